import { agesOf, type AgeMention } from './ages.ts';
import { stripRepeatedly, type Analysed } from './strip.ts';
import { GROUP_NAMES, analyse, has, isSexualLabel, isStrippedLabel, type ModerationMatch } from './terms.ts';
import { linked, type Tokens } from './tokenize.ts';
import type { TagGroup } from './words.data.ts';

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
const HAS_CONTENT = /[\p{L}\p{N}]/u;
/** How many words may stand between a young adjective and its noun ("little blonde girl"). */
const ADJECTIVE_WINDOW = 2;

/** Words from token `from` up to token `to` (exclusive), a word spelled out in parts counting once. */
function wordsBetween(tokens: Tokens, from: number, to: number): number {
  let words = 0;
  for (let t = from; t < to && words <= ADJECTIVE_WINDOW; t++) if (t === from || !linked(tokens, t)) words++;
  return words;
}

/** Young adjectives followed within a short window, inside the same phrase, by a person noun. */
function youngPairs(matches: readonly ModerationMatch[], tokens: Tokens): ModerationMatch[][] {
  const pairs: ModerationMatch[][] = [];
  for (const [i, adj] of matches.entries()) {
    if (!has(adj, 'young_adjective') || adj.tokenEnd < 0) continue;
    for (const noun of matches.slice(i + 1)) {
      if (noun.tokenStart < 0) continue;
      if (wordsBetween(tokens, adj.tokenEnd, noun.tokenStart) > ADJECTIVE_WINDOW) break;
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

function judge({ text, tokens, joinings, normalized, matches }: Analysed): Judgement {
  const ages = agesOf(tokens, joinings, normalized);
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
    if (has(m, 'minor_term')) young.push(m);
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
  const first = judge(analyse(prompt));
  const reasons = first.refusals;
  let sanitizedPrompt = prompt;
  if (first.stripped.length > 0) {
    const sanitized = stripRepeatedly(prompt, first.stripped);
    sanitizedPrompt = sanitized.text;
    reasons.push(reasonOf('nsfw_stripped', prompt, first.stripped));
    // Invisible characters and punctuation left behind are nothing either.
    if (!HAS_CONTENT.test(sanitized.normalized.text)) reasons.push(reasonOf('nothing_left', prompt, []));
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
