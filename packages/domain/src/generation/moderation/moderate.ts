import { detectAges, type AgeMention } from './ages.ts';
import { TermMatcher, type TermMatch } from './matcher.ts';
import { tokenize, type Tokens } from './tokenize.ts';
import {
  COUNTER_NOUNS,
  JAPANESE_TERMS,
  NSFW_TERMS,
  PERSON_NOUNS,
  PUBLIC_FIGURES,
  SLURS,
  STRIPPED_GROUPS,
  SUGGESTIVE_GROUPS,
  TAG_GROUPS,
  YOUNG_ADJECTIVES,
  YOUNG_NOUNS,
  type TagGroup,
} from './words.data.ts';

/** Every list a term can belong to: the tag groups plus the other word lists. */
export type ModerationLabel =
  TagGroup | 'nsfw' | 'slur' | 'public_figure' | 'young_noun' | 'young_adjective' | 'person_noun' | 'counter_noun';

export type ModerationMatch = TermMatch<ModerationLabel>;

/** Why a prompt was rejected or changed. Only `nsfw_stripped` leaves the prompt allowed. */
export type ModerationReasonCode = 'slur' | 'public_figure' | 'minor_sexual' | 'nsfw_stripped' | 'nothing_left';

export interface ModerationReason {
  readonly code: ModerationReasonCode;
  readonly message: string;
  /** The words of the prompt that caused it, as written. */
  readonly terms: readonly string[];
}

/** The outcome of moderating one prompt. */
export interface ModerationVerdict {
  readonly allowed: boolean;
  readonly reasons: readonly ModerationReason[];
  /** The prompt with nsfw terms stripped; equal to the prompt when nothing was stripped. */
  readonly sanitizedPrompt: string;
  /** Ages stated in the prompt (0 for months or weeks old). */
  readonly ages: readonly number[];
  /** Tag groups the prompt touches, for display. */
  readonly groups: readonly TagGroup[];
}

const MESSAGES: Readonly<Record<ModerationReasonCode, string>> = {
  slur: 'The prompt contains a slur.',
  public_figure: 'Prompts may not depict real public figures.',
  minor_sexual: 'Sexual or suggestive content involving minors is not allowed.',
  nsfw_stripped: 'Explicit terms were removed from the prompt.',
  nothing_left: 'Nothing is left of the prompt once explicit terms are removed.',
};

const ADULT_AGE = 18;
/** How many words may stand between a young adjective and its noun ("little blonde girl"). */
const ADJECTIVE_WINDOW = 2;

const STRIPPED = new Set<ModerationLabel>(['nsfw', ...STRIPPED_GROUPS]);
const SEXUAL = new Set<ModerationLabel>([...STRIPPED, ...SUGGESTIVE_GROUPS]);
const GROUP_NAMES = new Set<string>(Object.keys(TAG_GROUPS));

function buildMatcher(): TermMatcher<ModerationLabel> {
  const lists = {
    ...TAG_GROUPS,
    nsfw: NSFW_TERMS,
    slur: SLURS,
    public_figure: PUBLIC_FIGURES,
    young_noun: YOUNG_NOUNS,
    young_adjective: YOUNG_ADJECTIVES,
    person_noun: PERSON_NOUNS,
    counter_noun: COUNTER_NOUNS,
  } satisfies Record<ModerationLabel, readonly string[]>;
  return new TermMatcher<ModerationLabel>(lists, new Set<ModerationLabel>(['young_noun', 'person_noun']));
}

// Compiled once at module load: every later call is one tokenisation and one trie walk.
const matcher = buildMatcher();

const JAPANESE_LABELS: ReadonlyArray<[ModerationLabel, readonly string[]]> = [
  ['young_noun', JAPANESE_TERMS.young],
  ['nsfw', JAPANESE_TERMS.nsfw],
];
const HAS_CJK = /[\u3040-\u30ff\u4e00-\u9fff]/;

function japaneseMatches(prompt: string): ModerationMatch[] {
  if (!HAS_CJK.test(prompt)) return [];
  const out: ModerationMatch[] = [];
  for (const [label, terms] of JAPANESE_LABELS) {
    for (const term of terms) {
      for (let at = prompt.indexOf(term); at >= 0; at = prompt.indexOf(term, at + term.length)) {
        out.push({ start: at, end: at + term.length, tokenStart: -1, tokenEnd: -1, term, labels: [label] });
      }
    }
  }
  return out;
}

/** All word-list matches of a prompt, in order of position. */
export function findTerms(prompt: string, tokens: Tokens = tokenize(prompt)): ModerationMatch[] {
  const matches = matcher.find(tokens);
  const japanese = japaneseMatches(prompt);
  if (japanese.length === 0) return matches;
  // Drop Japanese terms inside a longer one (女子小学生 contains 小学生): sorted by start, longest first, a term
  // that ends inside the previous kept term is contained in it.
  japanese.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: ModerationMatch[] = [];
  let coveredTo = -1;
  for (const m of japanese) {
    if (m.end <= coveredTo) continue;
    kept.push(m);
    coveredTo = m.end;
  }
  return [...matches, ...kept].sort((a, b) => a.start - b.start);
}

function has(m: ModerationMatch, label: ModerationLabel): boolean {
  return m.labels.includes(label);
}

/** Young adjectives followed within a short window, inside the same phrase, by a person noun. */
function youngPairs(matches: readonly ModerationMatch[], tokens: Tokens): ModerationMatch[][] {
  const pairs: ModerationMatch[][] = [];
  for (const [i, adj] of matches.entries()) {
    if (!has(adj, 'young_adjective') || adj.tokenEnd < 0) continue;
    for (const noun of matches.slice(i + 1)) {
      if (noun.tokenStart < 0) continue;
      if (noun.tokenStart - adj.tokenEnd > ADJECTIVE_WINDOW) break;
      let broken = false;
      for (let t = adj.tokenEnd; t <= noun.tokenStart; t++) broken ||= tokens.breakBefore[t] === true;
      if (broken) break;
      if (has(noun, 'person_noun')) {
        pairs.push([adj, noun]);
        break;
      }
    }
  }
  return pairs;
}

const SEPARATOR_RUNS: ReadonlyArray<[RegExp, string]> = [
  [/[ \t]{2,}/g, ' '],
  [/\s+([,.;])/g, '$1'],
  [/([,;])(?:\s*[,;])+/g, '$1'],
];

// Emphasis groups emptied by a removal: "((nude:1.2))" leaves "((:1.2))", "[nude]" leaves "[]".
const EMPTY_GROUP = /[([{]\s*(?::\s*[\d.]*)?\s*[)\]}]/g;

const TRIMMED = new Set([...' \t\n\r,;.'].map((c) => c.charCodeAt(0)));

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

function isStrippedLabel(l: ModerationLabel): boolean {
  return STRIPPED.has(l);
}

function isSexualLabel(l: ModerationLabel): boolean {
  return SEXUAL.has(l);
}

function isStrippedMatch(m: ModerationMatch): boolean {
  return m.labels.some(isStrippedLabel);
}

function empty(): string {
  return '';
}

/** Most strip passes; each pass shortens the text, and real prompts settle after one or two. */
const MAX_STRIP_PASSES = 8;

/** A text with its tokens and matches, so a caller can judge it without tokenising it again. */
interface Analysed {
  readonly text: string;
  readonly tokens: Tokens;
  readonly matches: readonly ModerationMatch[];
}

// Removing a word can join its neighbours into a new one ("n(nude)ude" becomes "nude"), so stripping repeats until
// nothing explicit is left. The last pass's analysis is returned for judging the result.
function stripRepeatedly(prompt: string, firstMatches: readonly ModerationMatch[]): Analysed {
  let text = tidy(replaceMatches(prompt, empty, isStrippedMatch, firstMatches));
  for (let pass = 1; ; pass++) {
    const tokens = tokenize(text);
    const matches = findTerms(text, tokens);
    if (pass >= MAX_STRIP_PASSES || !matches.some(isStrippedMatch)) return { text, tokens, matches };
    text = tidy(replaceMatches(text, empty, isStrippedMatch, matches));
  }
}

/** The prompt with nsfw words (general and explicit tag groups) removed and the separators tidied. */
export function stripNsfw(prompt: string): string {
  const matches = findTerms(prompt);
  return matches.some(isStrippedMatch) ? stripRepeatedly(prompt, matches).text : prompt;
}

interface Span {
  readonly start: number;
  readonly end: number;
}

function reasonOf(code: ModerationReasonCode, prompt: string, spans: readonly Span[]): ModerationReason {
  const terms: string[] = [];
  for (const m of spans) {
    const text = prompt.slice(m.start, m.end);
    if (!terms.includes(text)) terms.push(text);
  }
  return { code, message: MESSAGES[code], terms };
}

function byStart(a: Span, b: Span): number {
  return a.start - b.start;
}

/** What the policy concludes about one text: its refusal reasons, its explicit terms, ages and groups. */
interface Judgement {
  readonly refusals: ModerationReason[];
  readonly stripped: ModerationMatch[];
  readonly ages: AgeMention[];
  readonly groups: TagGroup[];
}

function judge({ text, tokens, matches }: Analysed): Judgement {
  const ages = detectAges(tokens, text);
  // One pass sorts the matches into what the policy needs.
  const slurs: ModerationMatch[] = [];
  const figures: ModerationMatch[] = [];
  const sexual: ModerationMatch[] = [];
  const stripped: ModerationMatch[] = [];
  const young: Span[] = [];
  const groups: TagGroup[] = [];
  let counter = false;
  let youngAdjective = false;
  for (const m of matches) {
    for (const l of m.labels) {
      if (GROUP_NAMES.has(l) && !groups.includes(l as TagGroup)) groups.push(l as TagGroup);
    }
    if (has(m, 'slur')) slurs.push(m);
    if (has(m, 'public_figure')) figures.push(m);
    if (has(m, 'young_noun')) young.push(m);
    if (has(m, 'counter_noun')) counter = true;
    if (has(m, 'young_adjective')) youngAdjective = true;
    if (m.labels.some(isSexualLabel)) sexual.push(m);
    if (m.labels.some(isStrippedLabel)) stripped.push(m);
  }

  const refusals: ModerationReason[] = [];
  if (slurs.length > 0) refusals.push(reasonOf('slur', text, slurs));
  if (figures.length > 0) refusals.push(reasonOf('public_figure', text, figures));
  if (sexual.length > 0) {
    let adultAge = false;
    for (const a of ages) {
      if (a.age < ADULT_AGE) young.push(a);
      else adultAge = true;
    }
    if (youngAdjective && !counter && !adultAge) for (const pair of youngPairs(matches, tokens)) young.push(...pair);
    if (young.length > 0) refusals.push(reasonOf('minor_sexual', text, [...young, ...sexual].sort(byStart)));
  }
  return { refusals, stripped, ages, groups };
}

/**
 * Moderates a prompt. Rejects slurs, real public figures, and minors (young nouns, stated ages under 18, or young
 * adjective + person noun not cancelled by a counter-noun or an adult age) together with any sexual or suggestive
 * term. Otherwise allows it, with explicit terms stripped from `sanitizedPrompt`.
 */
export function moderatePrompt(prompt: string): ModerationVerdict {
  const tokens = tokenize(prompt);
  const first = judge({ text: prompt, tokens, matches: findTerms(prompt, tokens) });
  const reasons = first.refusals;
  let sanitizedPrompt = prompt;
  if (first.stripped.length > 0) {
    const sanitized = stripRepeatedly(prompt, first.stripped);
    sanitizedPrompt = sanitized.text;
    reasons.push(reasonOf('nsfw_stripped', prompt, first.stripped));
    if (sanitizedPrompt.trim() === '') reasons.push(reasonOf('nothing_left', prompt, []));
    // What reaches the engine is the sanitised text, and stripping can join fragments into a new word
    // ("lo(nude)li"), so it is judged again, reusing the analysis the last strip pass made.
    for (const r of judge(sanitized).refusals) {
      if (!reasons.some((o) => o.code === r.code)) reasons.push(r);
    }
  }
  let allowed = true;
  for (const r of reasons) if (r.code !== 'nsfw_stripped') allowed = false;
  return { allowed, reasons, sanitizedPrompt, ages: first.ages.map(ageOf), groups: first.groups };
}

function ageOf(a: AgeMention): number {
  return a.age;
}
