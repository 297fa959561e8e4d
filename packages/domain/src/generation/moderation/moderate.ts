import { detectAges } from './ages.ts';
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
  // Drop Japanese terms inside a longer Japanese term (女子小学生 contains 小学生) before merging.
  const kept = japanese.filter(
    (m) => !japanese.some((o) => o !== m && o.start <= m.start && o.end >= m.end && o.end - o.start > m.end - m.start),
  );
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
  [/^[\s,;.]+|[\s,;]+$/g, ''],
];

// Emphasis groups emptied by a removal: "((nude:1.2))" leaves "((:1.2))", "[nude]" leaves "[]".
const EMPTY_GROUP = /[([{]\s*(?::\s*[\d.]*)?\s*[)\]}]/g;

/** Tidies the commas, spaces and emphasis brackets left behind when terms are removed. */
function tidy(text: string): string {
  let t = text;
  for (let before = ''; before !== t;) {
    before = t;
    t = t.replace(EMPTY_GROUP, '');
  }
  return SEPARATOR_RUNS.reduce((acc, [re, by]) => acc.replace(re, by), t);
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

/** True for words the product never sends to an engine: slurs, nsfw words and the explicit tag groups. */
export function isBanned(match: ModerationMatch): boolean {
  return match.labels.some((l) => l === 'slur' || STRIPPED.has(l));
}

/** Replaces every banned word (see isBanned) through a callback, e.g. `(m, text) => '*'.repeat(text.length)`. */
export function replaceBannedWords(prompt: string, replacer: (match: ModerationMatch, text: string) => string): string {
  return replaceMatches(prompt, replacer, isBanned);
}

function stripWith(prompt: string, matches: readonly ModerationMatch[]): string {
  const isStripped = (m: ModerationMatch) => m.labels.some((l) => STRIPPED.has(l));
  if (!matches.some(isStripped)) return prompt;
  return tidy(replaceMatches(prompt, () => '', isStripped, matches));
}

/** The prompt with nsfw words (general and explicit tag groups) removed and the separators tidied. */
export function stripNsfw(prompt: string): string {
  return stripWith(prompt, findTerms(prompt));
}

function textOf(prompt: string, ms: readonly { start: number; end: number }[]): string[] {
  return [...new Set(ms.map((m) => prompt.slice(m.start, m.end)))];
}

/**
 * Moderates a prompt. Rejects slurs, real public figures, and minors (young nouns, stated ages under 18, or young
 * adjective + person noun not cancelled by a counter-noun or an adult age) together with any sexual or suggestive
 * term. Otherwise allows it, with explicit terms stripped from `sanitizedPrompt`.
 */
export function moderatePrompt(prompt: string): ModerationVerdict {
  const tokens = tokenize(prompt);
  const matches = findTerms(prompt, tokens);
  const ages = detectAges(tokens, prompt);
  const reasons: ModerationReason[] = [];
  const reason = (code: ModerationReasonCode, ms: readonly { start: number; end: number }[]) =>
    reasons.push({ code, message: MESSAGES[code], terms: textOf(prompt, ms) });

  const slurs = matches.filter((m) => has(m, 'slur'));
  if (slurs.length > 0) reason('slur', slurs);
  const figures = matches.filter((m) => has(m, 'public_figure'));
  if (figures.length > 0) reason('public_figure', figures);

  const sexual = matches.filter((m) => m.labels.some((l) => SEXUAL.has(l)));
  if (sexual.length > 0) {
    const cancelled = matches.some((m) => has(m, 'counter_noun')) || ages.some((a) => a.age >= ADULT_AGE);
    const young: { start: number; end: number }[] = [
      ...matches.filter((m) => has(m, 'young_noun')),
      ...ages.filter((a) => a.age < ADULT_AGE),
      ...(cancelled ? [] : youngPairs(matches, tokens).flat()),
    ];
    if (young.length > 0)
      reason(
        'minor_sexual',
        [...young, ...sexual].sort((a, b) => a.start - b.start),
      );
  }

  const sanitizedPrompt = stripWith(prompt, matches);
  if (sanitizedPrompt !== prompt) {
    reason(
      'nsfw_stripped',
      matches.filter((m) => m.labels.some((l) => STRIPPED.has(l))),
    );
    if (sanitizedPrompt.trim() === '') reason('nothing_left', []);
  }
  const groups = [...new Set(matches.flatMap((m) => m.labels.filter((l): l is TagGroup => GROUP_NAMES.has(l))))];
  return {
    allowed: reasons.every((r) => r.code === 'nsfw_stripped'),
    reasons,
    sanitizedPrompt,
    ages: ages.map((a) => a.age),
    groups,
  };
}
