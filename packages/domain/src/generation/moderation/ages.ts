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
/** School grade N is taken as age N + 5 (first grade is about six years old). */
const GRADE_TO_AGE = 5;

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

/** Ages stated in many phrasings: aged N, age N, N years old, N-year-old, N yo, N y/o, Nth birthday, 5th grader, … */
export function detectAges(tokens: Tokens, prompt: string): AgeMention[] {
  const { raw, start, end } = tokens;
  const found: AgeMention[] = [];
  // After a match, scanning resumes behind it so "twenty-one years old" is not read again as "one years old".
  let resume = 0;
  const add = (age: number, from: number, to: number) => {
    found.push({ age, start: start[from]!, end: end[to - 1]! });
    resume = to;
  };
  for (let i = 0; i < raw.length; i++) {
    if (i < resume) continue;
    const t = raw[i]!;
    const glued = GLUED.exec(t);
    if (glued) {
      const unit = glued[2]!;
      const next = raw[i + 1];
      if (unit === 'yo' || unit === 'yos' || unit === 'yearold' || unit === 'yearsold') add(Number(glued[1]), i, i + 1);
      else if (next === 'old' || (unit === 'y' && next === 'o')) add(Number(glued[1]), i, i + 2);
      else if (next === 'of' && raw[i + 2] === 'age') add(Number(glued[1]), i, i + 3);
      continue;
    }
    if (AGE_LEADS.has(t)) {
      const at = raw[i + 1] === 'of' ? i + 2 : i + 1;
      const n = parseNumber(raw, at, CARDINALS, DIGITS);
      if (n) add(n.value, i, n.next);
      continue;
    }
    if (t === 'grade') {
      const n = parseNumber(raw, i + 1, CARDINALS, DIGITS);
      if (n && n.value <= 12) add(n.value + GRADE_TO_AGE, i, n.next);
      continue;
    }
    if (t === 'sweet' && raw[i + 1] === 'sixteen') {
      add(16, i, i + 2);
      continue;
    }
    const ord = parseNumber(raw, i, ORDINALS, DIGIT_ORDINAL);
    if (ord) {
      const after = raw[ord.next];
      if (after === 'birthday') {
        add(ord.value, i, ord.next + 1);
        continue;
      }
      if (after !== undefined && GRADE_WORDS.has(after) && ord.value <= 12) {
        add(ord.value + GRADE_TO_AGE, i, ord.next + 1);
        continue;
      }
    }
    const n = parseNumber(raw, i, CARDINALS, DIGITS);
    if (!n) continue;
    const unit = raw[n.next];
    const after = raw[n.next + 1];
    if (unit === undefined) continue;
    if (YEAR_WORDS.has(unit) && (after === 'old' || (unit === 'y' && after === 'o'))) add(n.value, i, n.next + 2);
    else if (YEAR_WORDS.has(unit) && after === 'of' && raw[n.next + 2] === 'age') add(n.value, i, n.next + 3);
    else if (unit === 'yo' || unit === 'yos') add(n.value, i, n.next + 1);
    else if ((unit === 'summers' || unit === 'winters') && after === 'old') add(n.value, i, n.next + 2);
    else if ((unit === 'month' || unit === 'months' || unit === 'week' || unit === 'weeks') && after === 'old')
      add(0, i, n.next + 2);
  }
  if (prompt.includes('歳') || prompt.includes('才')) {
    for (const m of prompt.matchAll(/(\d{1,3})\s*[歳才]/g))
      found.push({ age: Number(m[1]), start: m.index, end: m.index + m[0].length });
  }
  return found;
}
