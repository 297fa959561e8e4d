import { japaneseMatches, type JapaneseLabel } from './japanese.ts';
import { TermMatcher, type TermMatch } from './matcher.ts';
import { normalizePrompt, type Normalized } from './normalize.ts';
import { joinings, tokenizeNormalized, type Joinings, type Tokens } from './tokenize.ts';
import {
  BENIGN_PHRASES,
  COUNTER_NOUNS,
  MINOR_SEXUAL_TERMS,
  NSFW_TERMS,
  PERSON_NOUNS,
  PUBLIC_FIGURES,
  PUBLIC_FIGURE_SINGLE_NAMES,
  SLURS,
  STRIPPED_GROUPS,
  SUGGESTIVE_GROUPS,
  SUGGESTIVE_TERMS,
  TAG_GROUPS,
  YOUNG_ADJECTIVES,
  YOUNG_NOUNS,
  type TagGroup,
} from './words.data.ts';

/** Every list a term can belong to: the tag groups plus the other word lists. */
export type ModerationLabel =
  | TagGroup
  | 'nsfw'
  | 'suggestive'
  | 'minor_term'
  | 'slur'
  | 'public_figure'
  | 'young_noun'
  | 'young_adjective'
  | 'person_noun'
  | 'counter_noun'
  | 'benign';

export type ModerationMatch = TermMatch<ModerationLabel>;

/** Labels whose words are stripped from prompts. */
export const STRIPPED = new Set<ModerationLabel>(['nsfw', ...STRIPPED_GROUPS]);
/** Labels that make a prompt sexual or suggestive (what a minor must never be combined with). */
export const SEXUAL = new Set<ModerationLabel>([...STRIPPED, ...SUGGESTIVE_GROUPS, 'suggestive', 'minor_term']);
/** Names of the tag groups, to tell them from the other labels. */
export const GROUP_NAMES = new Set<string>(Object.keys(TAG_GROUPS));

function buildMatcher(): TermMatcher<ModerationLabel> {
  const lists = {
    ...TAG_GROUPS,
    nsfw: NSFW_TERMS,
    suggestive: SUGGESTIVE_TERMS,
    minor_term: MINOR_SEXUAL_TERMS,
    slur: SLURS,
    public_figure: [...PUBLIC_FIGURES, ...PUBLIC_FIGURE_SINGLE_NAMES],
    young_noun: YOUNG_NOUNS,
    young_adjective: YOUNG_ADJECTIVES,
    person_noun: PERSON_NOUNS,
    counter_noun: COUNTER_NOUNS,
    benign: BENIGN_PHRASES,
  } satisfies Record<ModerationLabel, readonly string[]>;
  return new TermMatcher<ModerationLabel>(lists, new Set<ModerationLabel>(['young_noun', 'person_noun']));
}

// Compiled once at module load: every later call is one tokenisation and one trie walk.
const matcher = buildMatcher();

const JAPANESE_LABEL: Readonly<Record<JapaneseLabel, ModerationLabel>> = {
  young_noun: 'young_noun',
  minor_term: 'minor_term',
  nsfw: 'nsfw',
  nudity: 'nudity',
  'partial nudity': 'partial nudity',
  swimsuit: 'swimsuit',
  underwear: 'underwear',
  'sexual activity': 'sexual activity',
  penis: 'penis',
  vagina: 'vagina',
  anus: 'anus',
  'sexual situations': 'sexual situations',
  suggestive: 'suggestive',
  benign: 'benign',
};

/** A prompt read for moderation: its folded form, tokens (and joined tokens) and every word-list match. */
export interface Analysis {
  readonly text: string;
  readonly normalized: Normalized;
  readonly tokens: Tokens;
  readonly joinings: Joinings;
  readonly matches: readonly ModerationMatch[];
}

/** Reads a prompt: normalises, tokenises and matches it. */
export function analyse(text: string): Analysis {
  const normalized = normalizePrompt(text);
  const tokens = tokenizeNormalized(normalized);
  const joined = joinings(tokens);
  return { text, normalized, tokens, joinings: joined, matches: matchesOf(normalized, tokens, joined) };
}

function matchesOf(normalized: Normalized, tokens: Tokens, joined: Joinings): ModerationMatch[] {
  let matches = matcher.find(tokens, joined);
  const japanese = japaneseMatches(normalized);
  if (japanese.length > 0) {
    const extra = japanese.map((m): ModerationMatch => ({
      start: m.start,
      end: m.end,
      tokenStart: -1,
      tokenEnd: -1,
      term: m.term,
      labels: [JAPANESE_LABEL[m.label]],
    }));
    matches = [...matches, ...extra].sort((a, b) => a.start - b.start || b.end - a.end);
  }
  // A benign phrase ("kid gloves") shields the words inside it; it is not a finding itself.
  const benign = matches.filter((m) => has(m, 'benign'));
  if (benign.length === 0) return matches;
  return matches.filter((m) => !has(m, 'benign') && !benign.some((b) => b.start <= m.start && m.end <= b.end));
}

/** All word-list matches of a prompt, in order of position. */
export function findTerms(prompt: string): ModerationMatch[] {
  return analyse(prompt).matches.slice();
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
