/**
 * The text moderation reads: a prompt folded so that spelling tricks disappear, with every character traced back
 * to the characters of the original it came from (matches are reported and stripped on the original).
 *
 * Per character of the original:
 * - default-ignorable and format characters are dropped (zero-width space and joiners, soft hyphen, word joiner,
 *   variation selectors, bidi controls, tag characters);
 * - the rest is NFKD-decomposed (fullwidth forms, mathematical letters, circled digits, ligatures, superscripts),
 *   combining marks are dropped (accents, strike-through and other overlays), except the kana voicing marks, which
 *   are composed back (NFC) so Japanese stays readable;
 * - TR39 look-alikes from other scripts are folded to the Latin letter or digit they imitate (confusables.data.ts);
 * - upper case becomes lower case.
 * Digit and symbol substitutions (n4ked, $ex) are not folded here: they are ambiguous with real numbers, so the
 * tokenizer folds them only in the spelling word lists are matched on (tokenize.ts).
 */
import { CONFUSABLE_GROUPS, CONFUSABLE_PAIRS } from './confusables.data.ts';

/** A folded prompt. `from[i]`..`to[i]` is the span of the original that character i of `text` came from. */
export interface Normalized {
  readonly text: string;
  /** Null when `text` maps one to one onto the original (plain ASCII prompts). */
  readonly from: readonly number[] | null;
  readonly to: readonly number[] | null;
}

const CONFUSABLE = new Map<string, string>();
for (const [target, sources] of Object.entries(CONFUSABLE_GROUPS)) {
  for (const c of sources) {
    if (CONFUSABLE.has(c)) throw new Error(`confusables: ${c} is listed twice`);
    CONFUSABLE.set(c, target);
  }
}
for (const [c, target] of Object.entries(CONFUSABLE_PAIRS)) CONFUSABLE.set(c, target);

const IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\p{Cf}]$/u;
const MARK = /\p{M}/gu;
const KANA_VOICING = /[\u3099\u309a]/;

/** What one code point of the original becomes; cached, since prompts reuse few distinct characters. */
const folded = new Map<number, string>();

function foldCodePoint(cp: number): string {
  const cached = folded.get(cp);
  if (cached !== undefined) return cached;
  const ch = String.fromCodePoint(cp);
  let out: string;
  const direct = CONFUSABLE.get(ch);
  if (direct !== undefined) {
    // Before decomposition: NFKD would turn some look-alikes into other letters (lunate sigma ϲ into ς).
    out = direct;
  } else if (IGNORABLE.test(ch)) {
    out = '';
  } else {
    const decomposed = ch.normalize('NFKD');
    // Kana voicing marks are letters in Japanese; every other mark is decoration.
    const kept = KANA_VOICING.test(decomposed) ? decomposed.normalize('NFC') : decomposed.replace(MARK, '');
    out = '';
    for (const c of kept) {
      const lower = c.toLowerCase();
      // Case first as written (Greek Η looks like H, its lower case η like n), then lower-cased.
      out += CONFUSABLE.get(c) ?? CONFUSABLE.get(lower) ?? lower;
    }
  }
  folded.set(cp, out);
  return out;
}

/** Index of the first non-ASCII code unit of `s` at or after `i` (`s.length` when there is none). */
function asciiEnd(s: string, i: number): number {
  while (i < s.length && s.charCodeAt(i) < 128) i++;
  return i;
}

/** Folds a prompt for matching (see the module comment). ASCII prompts only need lower-casing. */
export function normalizePrompt(prompt: string): Normalized {
  let i = asciiEnd(prompt, 0);
  if (i === prompt.length) return { text: prompt.toLowerCase(), from: null, to: null };
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  let run = 0;
  for (;;) {
    // Most characters of most prompts are ASCII: each run is lower-cased in one piece and maps one to one.
    if (i > run) {
      text += prompt.slice(run, i).toLowerCase();
      for (let k = run; k < i; k++) {
        from.push(k);
        to.push(k + 1);
      }
    }
    if (i >= prompt.length) break;
    const cp = prompt.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const out = foldCodePoint(cp);
    let joined = '';
    const lead = out.charCodeAt(0);
    if (text.length > 0 && (lead === 0x3099 || lead === 0x309a)) {
      // A separate voicing mark (half-width ﾞ/ﾟ or a combining one) joins the kana before it: ｶﾞ → ガ.
      joined = (text.charAt(text.length - 1) + out).normalize('NFC');
    }
    if (joined.length === 1) {
      text = text.slice(0, -1) + joined;
      to[to.length - 1] = i + width;
    } else {
      for (let k = 0; k < out.length; k++) {
        from.push(i);
        to.push(i + width);
      }
      text += out;
    }
    i += width;
    run = i;
    i = asciiEnd(prompt, i);
  }
  return { text, from, to };
}

/** The original span of characters `start`..`end` (exclusive) of the normalised text. */
export function originalSpan(n: Normalized, start: number, end: number): { start: number; end: number } {
  if (!n.from || !n.to) return { start, end };
  return { start: n.from[start]!, end: n.to[end - 1]! };
}
