import { TermMatcher, type TermMatch } from './matcher.ts';
import { tokenize, type Tokens } from './tokenize.ts';
import {
  COUNTER_NOUNS,
  JAPANESE_TERMS,
  NSFW_TERMS,
  PERSON_NOUNS,
  PUBLIC_FIGURES,
  PUBLIC_FIGURE_SINGLE_NAMES,
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

/** Labels whose words are stripped from prompts. */
export const STRIPPED = new Set<ModerationLabel>(['nsfw', ...STRIPPED_GROUPS]);
/** Labels that make a prompt sexual or suggestive (what a minor must never be combined with). */
export const SEXUAL = new Set<ModerationLabel>([...STRIPPED, ...SUGGESTIVE_GROUPS]);
/** Names of the tag groups, to tell them from the other labels. */
export const GROUP_NAMES = new Set<string>(Object.keys(TAG_GROUPS));

function buildMatcher(): TermMatcher<ModerationLabel> {
  const lists = {
    ...TAG_GROUPS,
    nsfw: NSFW_TERMS,
    slur: SLURS,
    public_figure: [...PUBLIC_FIGURES, ...PUBLIC_FIGURE_SINGLE_NAMES],
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

/** True when the match belongs to the list. */
export function has(m: ModerationMatch, label: ModerationLabel): boolean {
  return m.labels.includes(label);
}

/** True for labels whose words are stripped. */
export function isStrippedLabel(l: ModerationLabel): boolean {
  return STRIPPED.has(l);
}

/** True for sexual or suggestive labels. */
export function isSexualLabel(l: ModerationLabel): boolean {
  return SEXUAL.has(l);
}

/** True when the match has a stripped label. */
export function isStrippedMatch(m: ModerationMatch): boolean {
  return m.labels.some(isStrippedLabel);
}
