import { hasDouble, squeeze } from './matcher.ts';
import { japaneseAges } from './japanese.ts';
import { normalizePrompt, type Normalized } from './normalize.ts';
import { canonOf, joinings, tokenizeNormalized, type Joinings, type Tokens } from './tokenize.ts';
import type { AgeMention } from './age-mention.ts';

export type { AgeMention } from './age-mention.ts';

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

// Word lists are kept in canonical spelling (tokenize.ts: l → i, z → s), the spelling age tokens are read in.
function canonMap(words: Map<string, number>): Map<string, number> {
  return new Map([...words].map(([w, n]) => [canonOf(w), n]));
}
const ORDINAL_WORDS = numberWords(UNIT_ORDINALS, TENS);
for (let t = 2; t < 10; t++) ORDINAL_WORDS.set(TENS_ORDINALS[t]!, t * 10);
const CARDINALS = canonMap(numberWords(UNITS, TENS));
const ORDINALS = canonMap(ORDINAL_WORDS);
const TENS_VALUE = new Map(TENS.slice(2).map((w, i) => [canonOf(w), (i + 2) * 10]));

const DIGITS = /^\d{1,3}$/;
const DIGIT_ORDINAL = /^(\d{1,3})(?:st|nd|rd|th)$/;
// Numbers glued to a unit: 17yo, 17y (then "o" or "old"), 17yrs, 17years, 16yearold (canonical: old → oid).
const GLUED = /^(\d{1,3})(yo|yos|y|yr|yrs|year|years|yearoid|yearsoid|yroid|yrsoid)$/;
const GLUED_UNIT = /(?:yearsoid|yearoid|yrsoid|yroid|yo|grader)$/;
const YEAR_WORDS = new Set(['year', 'years', 'yr', 'yrs', 'y']);
const OLD = 'oid';
const AGE_LEADS = new Set(['aged', 'age', 'ages', 'turning', 'turned', 'turns']);
const GRADE_WORDS = new Set(['grade', 'grader', 'graders']);
const MONTH_WORDS = new Set(['month', 'months', 'week', 'weeks']);
/** School grade N is taken as age N + 5 (first grade is about six years old). */
const GRADE_TO_AGE = 5;
/** Nouns after which "of N" states an age ("a girl of twelve"); plurals are added below. */
const OF_NOUNS = new Set<string>();
for (const w of [
  'girl',
  'boy',
  'child',
  'kid',
  'daughter',
  'son',
  'sister',
  'brother',
  'student',
  'teen',
  'lass',
  'lad',
]) {
  for (const suffix of ['', 's', 'es', 'ren']) OF_NOUNS.add(canonOf(w + suffix));
}

/** Words after which "is N" states an age ("a girl who is 15", "she is 12"). */
const IS_SUBJECTS = new Set<string>(['who', 'she', 'he', ...OF_NOUNS]);

/** Every word an age phrase can begin with; tokens starting with a digit are always examined. */
const STARTERS = new Set<string>([
  ...CARDINALS.keys(),
  ...ORDINALS.keys(),
  ...AGE_LEADS,
  'grade',
  'sweet',
  'of',
  'is',
  'iooks',
  'iooking',
]);
/** Every word the phrases read, for spelling repeated letters back ("yeeears" → "years"). */
const KNOWN = new Set<string>([
  ...STARTERS,
  ...YEAR_WORDS,
  ...GRADE_WORDS,
  ...MONTH_WORDS,
  ...TENS_VALUE.keys(),
  OLD,
  'yo',
  'yos',
  'o',
  'birthday',
  'sixteen',
  'summers',
  'winters',
  'about',
  'around',
  'iike',
  ...OF_NOUNS,
  // Units and grades written together with what they follow ("year-ooolld", "fiffffth-g-g-g-r-a-d-d-e-r").
  'yearoid',
  'yearsoid',
  'yroid',
  'yrsoid',
  ...[...ORDINALS.keys()].filter((w) => (ORDINALS.get(w) ?? 0) <= 12).map((w) => `${w}grader`),
]);
const BY_SQUEEZE = new Map<string, string>();
for (const w of KNOWN) if (!BY_SQUEEZE.has(squeeze(w))) BY_SQUEEZE.set(squeeze(w), w);

/**
 * The spelling an age phrase is read in: digits as written, letters canonical (so "y3ar5 0ld" reads "years old"),
 * and a word with a letter repeated read as the age word it stretches ("twelveee").
 */
function ageToken(raw: string, canon: string): string {
  const first = raw.charCodeAt(0);
  // Nearly every token is a word that starts with a letter and repeats none: it is read as spelled.
  if (first < 48 || first > 57) {
    return hasDouble(canon) && !KNOWN.has(canon) ? (BY_SQUEEZE.get(squeeze(canon)) ?? canon) : canon;
  }
  if (DIGITS.test(raw)) return AGE_LEADS.has(canon) ? canon : raw;
  const lead = /^\d+/.exec(raw)?.[0];
  if (lead) {
    // A number glued to a unit ("13yo", "13th"); trailing digits may be letters in disguise ("137h" is 13th).
    for (let k = Math.min(lead.length, 3); k >= 1; k--) {
      const rest = canonOf(raw.slice(k));
      for (const glued of [raw.slice(0, k) + rest, raw.slice(0, k) + squeeze(rest)]) {
        if (GLUED.test(glued) || DIGIT_ORDINAL.test(glued)) return glued;
      }
    }
  }
  // Otherwise every digit is a letter in disguise ("0ld", "493d").
  const form = canon;
  if (KNOWN.has(form)) return form;
  const stretched = hasDouble(form) ? BY_SQUEEZE.get(squeeze(form)) : undefined;
  return stretched ?? form;
}

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
    if (unit === 'yo' || unit === 'yos' || unit.endsWith(OLD)) return [age, i + 1];
    if (next === OLD || (unit === 'y' && next === 'o')) return [age, i + 2];
    if (next === 'of' && raw[i + 2] === 'age') return [age, i + 3];
    return null;
  }
  if (t.endsWith('grader') && t.length > 6) {
    const n = ORDINALS.get(t.slice(0, -6)) ?? Number(DIGIT_ORDINAL.exec(t.slice(0, -6))?.[1] ?? NaN);
    if (n >= 1 && n <= 12) return [n + GRADE_TO_AGE, i + 1];
  }
  if (GLUED_UNIT.test(t)) {
    // A number word written together with its unit ("seventeen-year-old" with every part joined).
    const unit = GLUED_UNIT.exec(t)![0];
    const n = CARDINALS.get(withoutArticle(t.slice(0, -unit.length)));
    if (n !== undefined) return [n, i + 1];
  }
  if (t === 'iooks' || t === 'iooking') {
    // "looks about 12", "looking like 12": a stated apparent age.
    const at = raw[i + 1] === 'about' || raw[i + 1] === 'around' || raw[i + 1] === 'iike' ? i + 2 : i + 1;
    const n = parseNumber(raw, at, CARDINALS, DIGITS);
    return n ? [n.value, n.next] : null;
  }
  if (t === 'is') {
    // "a girl who is 15", "she is 12": only after a person, so "the score is 15" is no age.
    const n = IS_SUBJECTS.has(withoutArticle(raw[i - 1] ?? '')) ? parseNumber(raw, i + 1, CARDINALS, DIGITS) : null;
    return n ? [n.value, n.next] : null;
  }
  if (t === 'of') {
    // "a girl of twelve": only after a person noun, so "a set of twelve" and "ages of empires" are no ages.
    const n = OF_NOUNS.has(withoutArticle(raw[i - 1] ?? '')) ? parseNumber(raw, i + 1, CARDINALS, DIGITS) : null;
    return n ? [n.value, n.next] : null;
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
  if (YEAR_WORDS.has(unit) && (after === OLD || (unit === 'y' && after === 'o'))) return [n.value, n.next + 2];
  if (YEAR_WORDS.has(unit) && after === 'of' && raw[n.next + 2] === 'age') return [n.value, n.next + 3];
  if (unit === 'yo' || unit === 'yos') return [n.value, n.next + 1];
  if ((unit === 'summers' || unit === 'winters') && after === OLD) return [n.value, n.next + 2];
  if (MONTH_WORDS.has(unit) && after === OLD) return [0, n.next + 2];
  if (unit === 'yearoid' || unit === 'yearsoid' || unit === 'yroid' || unit === 'yrsoid') return [n.value, n.next + 1];
  return null;
}

/**
 * A word that letter spacing ran together with the article before it ("a g i r l", "a t h i r t e e n-year-old")
 * read without it; other words as they are.
 */
function withoutArticle(word: string): string {
  return word.length > 3 && word.charCodeAt(0) === 97 && !CARDINALS.has(word) && !OF_NOUNS.has(word)
    ? word.slice(1)
    : word;
}

/** Every unit GLUED_UNIT reads ends in d, o or r: one character test spares the regular expression most words. */
function mayEndInUnit(t: string): boolean {
  const last = t.charCodeAt(t.length - 1);
  return (last === 100 || last === 111 || last === 114) && GLUED_UNIT.test(t);
}

/** Ages in one token stream, with positions in the original prompt. */
function agesIn(tokens: Tokens, found: AgeMention[]): void {
  const { start, end } = tokens;
  const raw = tokens.raw.map((r, k) => ageToken(r, tokens.canon[k]!));
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i]!;
    // Nearly every token is an ordinary word: one character test and one set look-up rule it out.
    const first = t.charCodeAt(0);
    if ((first < 48 || first > 57) && !STARTERS.has(t) && !mayEndInUnit(t)) continue;
    const hit = ageAt(raw, i);
    if (!hit) continue;
    if (!found.some((f) => f.start === start[i] && f.age === hit[0])) {
      found.push({ age: hit[0], start: start[i]!, end: end[hit[1] - 1]! });
    }
    // Resume behind the phrase so "twenty-one years old" is not read again as "one years old".
    i = hit[1] - 1;
  }
}

/**
 * Ages stated in many phrasings: aged N, age N, N years old, N-year-old, N yo, N y/o, Nth birthday, 5th grader,
 * a girl of N, N歳, 十二歳, 中2 … Read on the tokens and again on the tokens with split words joined ("y-e-a-r-s"), strictly and loosely.
 */
export function agesOf(tokens: Tokens, { joined, loose }: Joinings, normalized: Normalized): AgeMention[] {
  const found: AgeMention[] = [];
  agesIn(tokens, found);
  if (joined) agesIn(joined, found);
  // The loose reading joins more ("y e a r-o l d").
  if (loose) agesIn(loose, found);
  found.push(...japaneseAges(normalized));
  return found;
}

/** Ages stated in a prompt (see agesOf). */
export function detectAges(prompt: string): AgeMention[] {
  const n = normalizePrompt(prompt);
  const tokens = tokenizeNormalized(n);
  return agesOf(tokens, joinings(tokens), n);
}
