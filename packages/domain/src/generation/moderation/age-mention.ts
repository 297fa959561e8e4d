// Apart from ages.ts so japanese.ts, which ages.ts calls, can name it without importing ages.ts back.

/** An age stated in a prompt, with the characters that state it. */
export interface AgeMention {
  readonly age: number;
  readonly start: number;
  readonly end: number;
}
