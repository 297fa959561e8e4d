/**
 * Prompt tokenisation for moderation, on the normalised text (normalize.ts). Every token keeps its position in the
 * original prompt, so matches can be reported and stripped in place. Two spellings of each token are produced:
 * - `raw`: lower-case ASCII letters and digits as normalised (ages are read from these);
 * - `canon`: `raw` with look-alikes folded, which word lists are matched on: l, 1, ! and | to i; 0 to o; z, 5 and
 *   $ to s; 3 to e; 4 and @ to a; 7 to t; 8 to b; 9 to g.
 * `@` and `$` are letters wherever they stand; `!` and `|` only between two letters or digits ("ch!ld").
 * Anything else separates tokens, which is how punctuation boundaries are ignored and how the space inside a
 * multi-word term comes to match any run of non-alphanumeric characters.
 */
import { normalizePrompt, type Normalized } from './normalize.ts';

export interface Tokens {
  readonly raw: readonly string[];
  readonly canon: readonly string[];
  /** Positions in the original prompt (end exclusive). */
  readonly start: readonly number[];
  readonly end: readonly number[];
  /** True when the separator before token i contains a phrase break (comma, bracket, semicolon…). */
  readonly breakBefore: readonly boolean[];
  /** True when token i follows token i - 1 across exactly one joining character (`na-ked`, `y/o`, `na.ked`). */
  readonly joinBefore: readonly boolean[];
  /** The character code between token i - 1 and token i when exactly one character stands there, else -1. */
  readonly gapBefore: readonly number[];
}

// Character classes of lower-cased ASCII: separators, letters and digits, signs that are always letters, signs
// that are letters only inside a word.
const SEPARATOR = 0;
const WORD = 1;
const INNER = 2;
const CLASS = new Uint8Array(128);
for (let c = 48; c <= 57; c++) CLASS[c] = WORD;
for (let c = 97; c <= 122; c++) CLASS[c] = WORD;
CLASS['@'.charCodeAt(0)] = WORD;
CLASS['$'.charCodeAt(0)] = WORD;
CLASS['!'.charCodeAt(0)] = INNER;
CLASS['|'.charCodeAt(0)] = INNER;

/** Raw spelling of the signs (they read as the letter they stand for). */
const RAW_SIGN: Readonly<Record<string, string>> = { '@': 'a', $: 's', '!': 'i', '|': 'i' };

const CANON_CHAR: string[] = [];
for (const [from, to] of Object.entries({
  l: 'i',
  '1': 'i',
  '!': 'i',
  '|': 'i',
  '0': 'o',
  z: 's',
  '5': 's',
  $: 's',
  '3': 'e',
  '4': 'a',
  '@': 'a',
  '7': 't',
  '8': 'b',
  '9': 'g',
})) {
  CANON_CHAR[from.charCodeAt(0)] = to;
}
const FOLDED = /[l0-9z!|$@]/;

// What a character of a token asks of its spelling, so the scan knows without a regular expression per token.
const FOLDS = 1;
const SIGN = 2;
const SPELLING = new Uint8Array(128);
for (const c of 'l0123456789z!|$@') SPELLING[c.charCodeAt(0)] = FOLDS;
for (const c of '@$!|') SPELLING[c.charCodeAt(0)] = FOLDS | SIGN;

/** The canonical spelling of a lower-case token (see the module comment). */
export function canonOf(token: string): string {
  if (!FOLDED.test(token)) return token;
  let out = '';
  for (let k = 0; k < token.length; k++) {
    const c = token.charCodeAt(k);
    out += CANON_CHAR[c] ?? token.charAt(k);
  }
  return out;
}

// Only tag and clause separators break a phrase; dots, dashes, slashes and line breaks are how words get spaced out
// to evade lists. The Japanese comma and full stop count as breaks.
const PHRASE_BREAK = new Set([...',;()[]{}、，。'].map((c) => c.charCodeAt(0)));
// The ASCII ones also have their own character class, read from the table the scan reads anyway.
const BREAK = 3;
for (const c of PHRASE_BREAK) if (c < 128) CLASS[c] = BREAK;
/** Single characters that join the word parts on either side (`na-ked`, `na.ked`, `y/o`). */
const JOINER = new Set([...'-._\'*~+:/\\^`·•‧・=#"'].map((c) => c.charCodeAt(0)));

function isWord(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 128 && CLASS[c] === WORD;
}

/** Splits a normalised text into tokens with their original positions (see Tokens). */
export function tokenizeNormalized(n: Normalized): Tokens {
  const { text, from, to } = n;
  const raw: string[] = [];
  const canon: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const breakBefore: boolean[] = [];
  const joinBefore: boolean[] = [];
  const gapBefore: number[] = [];
  let tokenStart = -1;
  let spelling = 0;
  let sawBreak = false;
  let gapStart = 0;
  const len = text.length;
  for (let i = 0; i <= len; i++) {
    const c = i < len ? text.charCodeAt(i) : 32;
    let kind = c < 128 ? CLASS[c]! : SEPARATOR;
    if (kind === INNER) {
      // A run of ! and | inside a word ("ch||d") is letters; at its edges it is punctuation.
      let next = i + 1;
      while (next < len && text.charCodeAt(next) < 128 && CLASS[text.charCodeAt(next)] === INNER) next++;
      kind = tokenStart >= 0 && next < len && isWord(text, next) ? WORD : SEPARATOR;
    }
    if (kind === WORD) {
      if (tokenStart < 0) {
        tokenStart = i;
        const gap = i - gapStart;
        const single = raw.length > 0 && gap === 1 ? text.charCodeAt(i - 1) : -1;
        joinBefore.push(JOINER.has(single));
        gapBefore.push(single);
        spelling = 0;
      }
      spelling |= SPELLING[c]!;
      continue;
    }
    if (tokenStart >= 0) {
      let token = text.slice(tokenStart, i);
      const spelled = spelling & FOLDS ? canonOf(token) : token;
      if (spelling & SIGN) token = token.replace(/[@$!|]/g, (s) => RAW_SIGN[s]!);
      raw.push(token);
      canon.push(spelled);
      start.push(from ? from[tokenStart]! : tokenStart);
      end.push(to ? to[i - 1]! : i);
      breakBefore.push(sawBreak);
      tokenStart = -1;
      sawBreak = false;
      gapStart = i;
    }
    if (i < len && (c < 128 ? CLASS[c] === BREAK : PHRASE_BREAK.has(c))) sawBreak = true;
  }
  return { raw, canon, start, end, breakBefore, joinBefore, gapBefore };
}

/** Normalises and tokenises a prompt. */
export function tokenize(prompt: string): Tokens {
  return tokenizeNormalized(normalizePrompt(prompt));
}

/**
 * Tokens with every chain of word parts joined by single joining characters read as one token ("na-ked" as
 * "naked", "y.o" as "yo"), so a word split by a separator is matched whole. `origin[k]` is the first token of the
 * original stream that joined token k covers, `originEnd[k]` one past its last. Null when nothing joins.
 */
export interface JoinedTokens extends Tokens {
  readonly origin: readonly number[];
  readonly originEnd: readonly number[];
}

/**
 * True when token i continues the word of token i - 1: across one joining character ("na-ked"), or as one letter
 * after one letter in the same phrase ("n a k e d").
 *
 * Strictly (the default), letters across a space are not linked where either is already joined to its other side by
 * a joining character ("o/l/d g.i.r.l" is two words). Loosely, two alphabetic letters across a space are linked
 * unless both are ("p r e-t*e*e*n" and "y e a r-o l d" are one word spelled two ways); the loose reading runs
 * words together ("g i r l a*g*e*d"), so it is only read where that does no harm: by the chain division of the
 * matcher, which needs every part covered, and as a second reading for ages.
 */
export function linked(t: Tokens, i: number, loose = false): boolean {
  if (i === 0) return false;
  if (t.joinBefore[i]) return true;
  const raw = t.raw[i]!;
  const before = t.raw[i - 1]!;
  if (t.breakBefore[i]) return false;
  if (!isLetter(raw) || !isLetter(before)) return loose && fragmentLink(t, i);
  const joinedLeft = t.joinBefore[i - 1]!;
  const joinedRight = t.joinBefore[i + 1] === true;
  // Digits stay strict: "grad·e 4 student" and "6 m-o-n-t-h-s" keep their number apart.
  if (loose && isAlpha(raw) && isAlpha(before)) return !(joinedLeft && joinedRight);
  return !joinedLeft && !joinedRight;
}

/** Longest part, repeats collapsed, that a spelled-out letter links to across one space ("nak e d"). */
const FRAGMENT = 3;

/**
 * Loosely, a short part and a spelled-out letter across exactly one space are one word ("n@k e d", "u n d 3 r w e@r",
 * "l le r s"). Not the articles a and i, which stand beside short words ("a pen", "i am").
 */
function fragmentLink(t: Tokens, i: number): boolean {
  if (t.gapBefore[i] !== 32) return false;
  const a = t.raw[i - 1]!;
  const b = t.raw[i]!;
  return (spelledLetter(a) && fragment(t.canon[i]!)) || (fragment(t.canon[i - 1]!) && spelledLetter(b));
}

function spelledLetter(raw: string): boolean {
  const c = raw.charCodeAt(0);
  return c !== 97 && c !== 105 && isAlpha(raw) && isLetter(raw);
}

function fragment(canon: string): boolean {
  if (canon.length <= FRAGMENT) return true;
  let letters = 1;
  for (let k = 1; k < canon.length && letters <= FRAGMENT; k++)
    if (canon.charCodeAt(k) !== canon.charCodeAt(k - 1)) letters++;
  return letters <= FRAGMENT;
}

/** One letter, possibly repeated ("l", "lll"). */
export function isLetter(raw: string): boolean {
  const c = raw.charAt(0);
  for (let k = 1; k < raw.length; k++) if (raw.charAt(k) !== c) return false;
  return raw.length > 0;
}

function isAlpha(raw: string): boolean {
  const c = raw.charCodeAt(0);
  return c >= 97 && c <= 122;
}

function hasLinks(t: Tokens, loose: boolean): boolean {
  for (let i = 1; i < t.raw.length; i++) if (linked(t, i, loose)) return true;
  return false;
}

/** The tokens with every linked chain joined (see JoinedTokens and linked); null when nothing links. */
export function joinTokens(t: Tokens, loose = false): JoinedTokens | null {
  if (!hasLinks(t, loose)) return null;
  const raw: string[] = [];
  const canon: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const breakBefore: boolean[] = [];
  const joinBefore: boolean[] = [];
  const gapBefore: number[] = [];
  const origin: number[] = [];
  const originEnd: number[] = [];
  for (let i = 0; i < t.raw.length; i++) {
    if (linked(t, i, loose) && raw.length > 0) {
      const k = raw.length - 1;
      raw[k] += t.raw[i]!;
      canon[k] += t.canon[i]!;
      end[k] = t.end[i]!;
      originEnd[k] = i + 1;
      continue;
    }
    raw.push(t.raw[i]!);
    canon.push(t.canon[i]!);
    start.push(t.start[i]!);
    end.push(t.end[i]!);
    breakBefore.push(t.breakBefore[i]!);
    joinBefore.push(false);
    gapBefore.push(t.gapBefore[i]!);
    origin.push(i);
    originEnd.push(i + 1);
  }
  return { raw, canon, start, end, breakBefore, joinBefore, gapBefore, origin, originEnd };
}

/** The strict and loose joinings of a token stream (see linked); `loose` is null where it joins nothing more. */
export interface Joinings {
  readonly joined: JoinedTokens | null;
  readonly loose: JoinedTokens | null;
}

export function joinings(t: Tokens): Joinings {
  const joined = joinTokens(t);
  // Loose links include the strict ones, so the loose joining is only built where some link is loose only.
  let looser = false;
  for (let i = 1; i < t.raw.length && !looser; i++) looser = !t.joinBefore[i] && linked(t, i, true) && !linked(t, i);
  return { joined, loose: looser ? joinTokens(t, true) : null };
}

/** The canonical token spelling of a word-list term, as the matcher compares it. */
export function canonicalTerm(term: string): string[] {
  return tokenize(term).canon.slice();
}
