import {
  STRIPPED,
  analyse,
  findTerms,
  isStrippedMatch,
  type Analysis,
  type ModerationLabel,
  type ModerationMatch,
} from './terms.ts';

const SEPARATOR_RUNS: ReadonlyArray<[RegExp, string]> = [
  [/[ \t]{2,}/g, ' '],
  [/\s+([,.;])/g, '$1'],
  [/([,;、])(?:\s*[,;、])+/g, '$1'],
];

// Emphasis groups emptied by a removal: "((nude:1.2))" leaves "((:1.2))", "[nude]" leaves "[]".
const EMPTY_GROUP = /[([{]\s*(?::\s*[\d.]*)?\s*[)\]}]/g;

const TRIMMED = new Set([...' \t\n\r,;.、'].map((c) => c.charCodeAt(0)));

function trimSeparators(t: string): string {
  let a = 0;
  let b = t.length;
  while (a < b && TRIMMED.has(t.charCodeAt(a))) a++;
  // A trailing full stop is kept: it ends a sentence rather than separating tags.
  while (b > a && TRIMMED.has(t.charCodeAt(b - 1)) && t.charCodeAt(b - 1) !== 46) b--;
  return t.slice(a, b);
}

/** Tidies the commas, spaces and emphasis brackets left behind when terms are removed. */
function tidy(text: string): string {
  let t = text;
  const hasGroups = t.includes('(') || t.includes('[') || t.includes('{');
  for (let before = hasGroups ? '' : t; before !== t;) {
    before = t;
    t = t.replace(EMPTY_GROUP, '');
  }
  for (const [re, by] of SEPARATOR_RUNS) t = t.replace(re, by);
  return trimSeparators(t);
}

/** Replaces each match accepted by `filter` with what `replacer` returns; text between matches is kept as is. */
export function replaceMatches(
  prompt: string,
  replacer: (match: ModerationMatch, text: string) => string,
  filter: (match: ModerationMatch) => boolean,
  matches: readonly ModerationMatch[] = findTerms(prompt),
): string {
  let out = '';
  let last = 0;
  for (const m of matches) {
    if (!filter(m) || m.start < last) continue;
    out += prompt.slice(last, m.start) + replacer(m, prompt.slice(m.start, m.end));
    last = m.end;
  }
  return last === 0 ? prompt : out + prompt.slice(last);
}

function isBannedLabel(l: ModerationLabel): boolean {
  return l === 'slur' || STRIPPED.has(l);
}

/** True for words the product never sends to an engine: slurs, nsfw words and the explicit tag groups. */
export function isBanned(match: ModerationMatch): boolean {
  return match.labels.some(isBannedLabel);
}

/** Replaces every banned word (see isBanned) through a callback, e.g. `(m, text) => '*'.repeat(text.length)`. */
export function replaceBannedWords(prompt: string, replacer: (match: ModerationMatch, text: string) => string): string {
  return replaceMatches(prompt, replacer, isBanned);
}

function empty(): string {
  return '';
}

/** Most strip passes; each pass shortens the text, and real prompts settle after one or two. */
const MAX_STRIP_PASSES = 8;

/** A text with its analysis, so a caller can judge it without reading it again. */
export type Analysed = Analysis;

/** Strips explicit terms until none is left (see below). */
// Removing a word can join its neighbours into a new one ("n(nude)ude" becomes "nude"), so stripping repeats until
// nothing explicit is left. The last pass's analysis is returned for judging the result.
export function stripRepeatedly(prompt: string, firstMatches: readonly ModerationMatch[]): Analysed {
  let text = tidy(replaceMatches(prompt, empty, isStrippedMatch, firstMatches));
  for (let pass = 1; ; pass++) {
    const analysis = analyse(text);
    if (pass >= MAX_STRIP_PASSES || !analysis.matches.some(isStrippedMatch)) return analysis;
    text = tidy(replaceMatches(text, empty, isStrippedMatch, analysis.matches));
  }
}

/** The prompt with nsfw words (general and explicit tag groups) removed and the separators tidied. */
export function stripNsfw(prompt: string): string {
  const matches = findTerms(prompt);
  return matches.some(isStrippedMatch) ? stripRepeatedly(prompt, matches).text : prompt;
}
