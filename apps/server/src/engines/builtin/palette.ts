import { between, createRng, hashString } from './prng.ts';

export interface Palette {
  /** Light colours for backgrounds. */
  paper: string[];
  /** Mid and saturated colours for shapes. */
  colours: string[];
  /** Dark colour for lines and screentone dots. */
  ink: string;
  monochrome: boolean;
}

// Words a manga prompt commonly uses for mood; anything else still steers the palette through its hash.
const KEYWORD_HUES: Record<string, number> = {
  red: 0,
  blood: 355,
  fire: 15,
  sunset: 20,
  orange: 30,
  autumn: 28,
  gold: 45,
  yellow: 55,
  sun: 50,
  green: 120,
  forest: 110,
  grass: 95,
  sea: 195,
  ocean: 200,
  water: 195,
  rain: 205,
  ice: 190,
  snow: 200,
  sky: 210,
  blue: 220,
  night: 235,
  purple: 275,
  magic: 285,
  pink: 330,
  sakura: 340,
  cherry: 345,
};

const MONOCHROME_WORDS = new Set(['monochrome', 'lineart', 'greyscale', 'grayscale', 'ink', 'sumi']);

export function promptWords(prompt: string): string[] {
  return prompt
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

export function isMonochromePrompt(words: string[]): boolean {
  if (words.some((w) => MONOCHROME_WORDS.has(w))) return true;
  const text = ` ${words.join(' ')} `;
  return text.includes(' black and white ') || text.includes(' b w ');
}

function hsl(h: number, s: number, l: number): string {
  const hue = ((h % 360) + 360) % 360;
  return `hsl(${hue.toFixed(1)},${(s * 100).toFixed(1)}%,${(l * 100).toFixed(1)}%)`;
}

/**
 * Prompt words pick the hues (known mood words first, then hashes of the others); the seed varies
 * saturation and lightness, so two seeds of one prompt share a mood but differ in detail.
 * `referenceHue` (from an IP-Adapter image) pulls the palette towards that image by `referenceWeight`.
 */
export function paletteFor(prompt: string, seed: number, referenceHue?: number, referenceWeight = 0): Palette {
  const words = promptWords(prompt);
  const monochrome = isMonochromePrompt(words);
  const rng = createRng(seed ^ hashString(prompt));
  const keywordHues = words.flatMap((w) => (w in KEYWORD_HUES ? [KEYWORD_HUES[w] ?? 0] : []));
  const hashedHues = words.filter((w) => !(w in KEYWORD_HUES)).map((w) => hashString(w) % 360);
  let hues = [...keywordHues, ...hashedHues].slice(0, 4);
  if (hues.length === 0) hues = [between(rng, 0, 360)];
  if (referenceHue !== undefined && referenceWeight > 0) {
    hues = hues.map((h) => h + (((referenceHue - h + 540) % 360) - 180) * Math.min(1, referenceWeight));
  }
  const sat = monochrome ? 0 : 1;
  const paper = hues.map((h) =>
    hsl(h + between(rng, -10, 10), sat * between(rng, 0.25, 0.55), between(rng, 0.82, 0.94)),
  );
  const colours = hues.flatMap((h) => [
    hsl(h + between(rng, -20, 20), sat * between(rng, 0.45, 0.85), between(rng, 0.35, 0.6)),
    hsl(h + 180 + between(rng, -30, 30), sat * between(rng, 0.3, 0.7), between(rng, 0.5, 0.75)),
  ]);
  const ink = hsl(hues[0] ?? 0, sat * 0.35, between(rng, 0.06, 0.14));
  return { paper, colours, ink, monochrome };
}
