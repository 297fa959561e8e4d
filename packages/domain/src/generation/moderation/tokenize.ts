/**
 * Prompt tokenisation for moderation. Every token keeps its position in the original prompt, so matches can be
 * replaced or stripped in place. Two spellings of each token are produced:
 * - `raw`: lower-case ASCII letters and digits (ages are read from these);
 * - `canon`: `raw` with look-alikes folded (l and 1 to i, 0 to o, z to s, 3 to e), which word lists are matched on.
 * `@` and `$` count as the letters a and s.
 * Anything that is not a letter or digit separates tokens, which is how punctuation boundaries are ignored and how
 * the space inside a multi-word term comes to match any run of non-alphanumeric characters.
 */
export interface Tokens {
  readonly raw: readonly string[];
  readonly canon: readonly string[];
  readonly start: readonly number[];
  readonly end: readonly number[];
  /** True when the separator before token i contains a phrase break (comma, full stop, bracket, newline…). */
  readonly breakBefore: readonly boolean[];
}

// Homoglyphs from other scripts that are commonly used to slip past word lists, folded to their ASCII twin.
const HOMOGLYPHS: Readonly<Record<string, string>> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  х: 'x',
  у: 'y',
  і: 'i',
  ѕ: 's',
  ј: 'j',
  к: 'k',
  м: 'm',
  т: 't',
  н: 'h',
  в: 'b',
  α: 'a',
  ε: 'e',
  ο: 'o',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  τ: 't',
  ρ: 'p',
  υ: 'u',
  χ: 'x',
};

/** Maps every UTF-16 code unit to a lower-case ASCII letter or digit, or to a space when it separates tokens. */
const FOLD: string[] = (() => {
  const table: string[] = new Array<string>(0x10000).fill(' ');
  for (let c = 48; c <= 57; c++) table[c] = String.fromCharCode(c);
  for (let c = 97; c <= 122; c++) table[c] = table[c - 32] = String.fromCharCode(c);
  // Signs used as letters (f@ggot, $ex); they are never part of a word otherwise.
  table['@'.charCodeAt(0)] = 'a';
  table['$'.charCodeAt(0)] = 's';
  for (let c = 0xc0; c <= 0x24f; c++) {
    const base = String.fromCharCode(c).normalize('NFD').charAt(0).toLowerCase();
    if (/^[a-z]$/.test(base)) table[c] = base;
  }
  for (let c = 0xff10; c <= 0xff19; c++) table[c] = String.fromCharCode(c - 0xfee0);
  for (let c = 0xff21; c <= 0xff3a; c++) table[c] = String.fromCharCode(c - 0xfee0 + 32);
  for (let c = 0xff41; c <= 0xff5a; c++) table[c] = String.fromCharCode(c - 0xfee0);
  for (const [glyph, ascii] of Object.entries(HOMOGLYPHS)) {
    table[glyph.charCodeAt(0)] = ascii;
    table[glyph.toUpperCase().charCodeAt(0)] = ascii;
  }
  return table;
})();

// Only tag and clause separators break a phrase; dots, dashes, slashes and line breaks are how words get spaced out
// to evade lists.
const PHRASE_BREAK = new Set([...',;|()[]{}'].map((c) => c.charCodeAt(0)));
const NON_ASCII = /[\u0080-\uffff]/;
const NOT_ALNUM = /[^a-z0-9]/g;

/** Lower-cases and folds a prompt to ASCII letters, digits and spaces, keeping its length and positions. */
export function foldPrompt(prompt: string): string {
  // ASCII prompts (nearly all) fold with two native passes; lower-casing ASCII never changes the length.
  if (!NON_ASCII.test(prompt)) {
    const lower = prompt.toLowerCase();
    const signs = lower.includes('@') || lower.includes('$') ? lower.replace(/@/g, 'a').replace(/\$/g, 's') : lower;
    return signs.replace(NOT_ALNUM, ' ');
  }
  const parts: string[] = new Array<string>(prompt.length);
  for (let i = 0; i < prompt.length; i++) parts[i] = FOLD[prompt.charCodeAt(i)]!;
  return parts.join('');
}

// Character classes of lower-cased ASCII for the tokeniser: separators, plain letters and digits, look-alikes.
const SEPARATOR = 0;
const PLAIN = 1;
const LOOK_ALIKE = 2;
const CLASS = new Uint8Array(128);
for (let c = 48; c <= 57; c++) CLASS[c] = PLAIN;
for (let c = 97; c <= 122; c++) CLASS[c] = PLAIN;
const CANON_CHAR: string[] = [];
for (const [from, to] of [
  ['l', 'i'],
  ['1', 'i'],
  ['0', 'o'],
  ['z', 's'],
  ['3', 'e'],
] as const) {
  CLASS[from.charCodeAt(0)] = LOOK_ALIKE;
  CANON_CHAR[from.charCodeAt(0)] = to;
}

function canonOf(token: string): string {
  let out = '';
  for (let k = 0; k < token.length; k++) {
    const c = token.charCodeAt(k);
    out += CANON_CHAR[c] ?? token.charAt(k);
  }
  return out;
}

/** Splits a prompt into tokens with their original positions (see Tokens). */
export function tokenize(prompt: string): Tokens {
  // Non-ASCII prompts are folded to ASCII first (same length); ASCII ones only need lower-casing, which is native.
  const text =
    NON_ASCII.test(prompt) || prompt.includes('@') || prompt.includes('$') ? foldPrompt(prompt) : prompt.toLowerCase();
  const raw: string[] = [];
  const canon: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const breakBefore: boolean[] = [];
  let tokenStart = -1;
  let lookAlike = false;
  let sawBreak = false;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    const kind = c < 128 ? CLASS[c]! : SEPARATOR;
    if (kind !== SEPARATOR) {
      if (tokenStart < 0) tokenStart = i;
      if (kind === LOOK_ALIKE) lookAlike = true;
      continue;
    }
    if (tokenStart >= 0) {
      const token = text.slice(tokenStart, i);
      raw.push(token);
      canon.push(lookAlike ? canonOf(token) : token);
      start.push(tokenStart);
      end.push(i);
      breakBefore.push(sawBreak);
      tokenStart = -1;
      lookAlike = false;
      sawBreak = false;
    }
    if (i < n && PHRASE_BREAK.has(prompt.charCodeAt(i))) sawBreak = true;
  }
  return { raw, canon, start, end, breakBefore };
}

/** The canonical token spelling of a word-list term, as the matcher compares it. */
export function canonicalTerm(term: string): string[] {
  return tokenize(term).canon.slice();
}
