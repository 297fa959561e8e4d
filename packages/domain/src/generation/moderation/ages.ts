import type { Tokens } from './tokenize.ts';

/** An age stated in a prompt, with the characters that state it. */
export interface AgeMention {
  readonly age: number;
  readonly start: number;
  readonly end: number;
}

const UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const UNIT_ORDINALS = [
  'zeroth',
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
];
const TENS_ORDINALS = [
  '',
  '',
  'twentieth',
  'thirtieth',
  'fortieth',
  'fiftieth',
  'sixtieth',
  'seventieth',
  'eightieth',
  'ninetieth',
];

function numberWords(
  units: readonly string[],
  tensWords: readonly string[],
  tensOrdinals?: readonly string[],
): Map<string, number> {
  const words = new Map<string, number>();
  for (let n = 1; n < 20; n++) words.set(units[n]!, n);
  for (let t = 2; t < 10; t++) {
    words.set((tensOrdinals ?? tensWords)[t]!, t * 10);
    // Compound numbers written as one word ("twentyone", from "twenty-one" they arrive as two tokens).
    for (let u = 1; u < 10; u++) words.set(tensWords[t]! + units[u]!, t * 10 + u);
  }
  return words;
}

const CARDINALS = numberWords(UNITS, TENS);
const ORDINALS = numberWords(UNIT_ORDINALS, TENS);
for (let t = 2; t < 10; t++) ORDINALS.set(TENS_ORDINALS[t]!, t * 10);
const TENS_VALUE = new Map(TENS.slice(2).map((w, i) => [w, (i + 2) * 10]));

const DIGITS = /^\d{1,3}$/;
const DIGIT_ORDINAL = /^(\d{1,3})(?:st|nd|rd|th)$/;
// Numbers glued to a unit: 17yo, 17y (then "o" or "old"), 17yrs, 17years, 16yearold.
const GLUED = /^(\d{1,3})(yo|yos|y|yr|yrs|year|years|yearold|yearsold)$/;
const YEAR_WORDS = new Set(['year', 'years', 'yr', 'yrs', 'y']);
const AGE_LEADS = new Set(['aged', 'age', 'ages', 'turning', 'turned', 'turns']);
const GRADE_WORDS = new Set(['grade', 'grader', 'graders']);
const MONTH_WORDS = new Set(['month', 'months', 'week', 'weeks']);
/** School grade N is taken as age N + 5 (first grade is about six years old). */
const GRADE_TO_AGE = 5;

/** Every word an age phrase can begin with; tokens starting with a digit are always examined. */
const STARTERS = new Set<string>([...CARDINALS.keys(), ...ORDINALS.keys(), ...AGE_LEADS, 'grade', 'sweet']);

interface Parsed {
  value: number;
  next: number;
}

function parseNumber(raw: readonly string[], i: number, words: Map<string, number>, digits: RegExp): Parsed | null {
  const t = raw[i];
  if (t === undefined) return null;
  const m = digits.exec(t);
  if (m) return { value: Number(m[1] ?? m[0]), next: i + 1 };
  const tens = TENS_VALUE.get(t);
  if (tens !== undefined) {
    const unit = words.get(raw[i + 1] ?? '');
    if (unit !== undefined && unit < 10) return { value: tens + unit, next: i + 2 };
  }
  const w = words.get(t);
  return w === undefined ? null : { value: w, next: i + 1 };
}

/** An age and the token just past the phrase that states it. */
type AgeAt = [age: number, nextToken: number];

/** Reads an age phrase starting at token i, if there is one. */
function ageAt(raw: readonly string[], i: number): AgeAt | null {
  const t = raw[i]!;
  const glued = GLUED.exec(t);
  if (glued) {
    const unit = glued[2]!;
    const next = raw[i + 1];
    const age = Number(glued[1]);
    if (unit === 'yo' || unit === 'yos' || unit === 'yearold' || unit === 'yearsold') return [age, i + 1];
    if (next === 'old' || (unit === 'y' && next === 'o')) return [age, i + 2];
    if (next === 'of' && raw[i + 2] === 'age') return [age, i + 3];
    return null;
  }
  if (AGE_LEADS.has(t)) {
    const n = parseNumber(raw, raw[i + 1] === 'of' ? i + 2 : i + 1, CARDINALS, DIGITS);
    return n ? [n.value, n.next] : null;
  }
  if (t === 'grade') {
    const n = parseNumber(raw, i + 1, CARDINALS, DIGITS);
    return n && n.value <= 12 ? [n.value + GRADE_TO_AGE, n.next] : null;
  }
  if (t === 'sweet') return raw[i + 1] === 'sixteen' ? [16, i + 2] : null;
  const ord = parseNumber(raw, i, ORDINALS, DIGIT_ORDINAL);
  if (ord) {
    const after = raw[ord.next];
    if (after === 'birthday') return [ord.value, ord.next + 1];
    if (after !== undefined && GRADE_WORDS.has(after) && ord.value <= 12)
      return [ord.value + GRADE_TO_AGE, ord.next + 1];
  }
  const n = parseNumber(raw, i, CARDINALS, DIGITS);
  if (!n) return null;
  const unit = raw[n.next];
  const after = raw[n.next + 1];
  if (unit === undefined) return null;
  if (YEAR_WORDS.has(unit) && (after === 'old' || (unit === 'y' && after === 'o'))) return [n.value, n.next + 2];
  if (YEAR_WORDS.has(unit) && after === 'of' && raw[n.next + 2] === 'age') return [n.value, n.next + 3];
  if (unit === 'yo' || unit === 'yos') return [n.value, n.next + 1];
  if ((unit === 'summers' || unit === 'winters') && after === 'old') return [n.value, n.next + 2];
  if (MONTH_WORDS.has(unit) && after === 'old') return [0, n.next + 2];
  return null;
}

const JAPANESE_AGE = /(\d{1,3})\s*[歳才]/g;

/** Ages stated in many phrasings: aged N, age N, N years old, N-year-old, N yo, N y/o, Nth birthday, 5th grader, … */
export function detectAges(tokens: Tokens, prompt: string): AgeMention[] {
  const { raw, start, end } = tokens;
  const found: AgeMention[] = [];
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i]!;
    // Nearly every token is an ordinary word: one character test and one set look-up rule it out.
    const first = t.charCodeAt(0);
    if ((first < 48 || first > 57) && !STARTERS.has(t)) continue;
    const hit = ageAt(raw, i);
    if (!hit) continue;
    found.push({ age: hit[0], start: start[i]!, end: end[hit[1] - 1]! });
    // Resume behind the phrase so "twenty-one years old" is not read again as "one years old".
    i = hit[1] - 1;
  }
  if (prompt.includes('歳') || prompt.includes('才')) {
    for (const m of prompt.matchAll(JAPANESE_AGE))
      found.push({ age: Number(m[1]), start: m.index, end: m.index + m[0].length });
  }
  return found;
}
