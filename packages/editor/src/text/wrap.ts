import { BUBBLE_WRAP_CHARACTERS } from '@koma/domain';
import { NO_LINE_END, NO_LINE_START, isCjk } from './kinsoku.ts';

/** A piece that is never split when wrapping (unless it alone is longer than a line): a Latin word or one CJK character. */
interface Unit {
  text: string;
  length: number;
  /** Whether a space separated it from the previous unit (kept inside a line, dropped at a break). */
  spaceBefore: boolean;
}

function unitsOf(paragraph: string, maxChars: number): Unit[] {
  const units: Unit[] = [];
  let word = '';
  let space = false;
  const flushWord = () => {
    if (!word) return;
    const chars = Array.from(word);
    // A word longer than a line is cut into line-long pieces.
    for (let i = 0; i < chars.length; i += maxChars) {
      const piece = chars.slice(i, i + maxChars);
      units.push({ text: piece.join(''), length: piece.length, spaceBefore: i === 0 && space });
    }
    word = '';
    space = false;
  };
  for (const char of paragraph) {
    if (/\s/.test(char) && char !== '\u3000') {
      flushWord();
      space = units.length > 0;
    } else if (isCjk(char)) {
      flushWord();
      units.push({ text: char, length: 1, spaceBefore: space });
      space = false;
    } else {
      word += char;
    }
  }
  flushWord();
  return units;
}

const lengthOf = (line: readonly Unit[]) =>
  line.reduce((sum, u, i) => sum + u.length + (i > 0 && u.spaceBefore ? 1 : 0), 0);
const textOf = (line: readonly Unit[]) => line.map((u, i) => (i > 0 && u.spaceBefore ? ' ' : '') + u.text).join('');
const startsBadly = (u: Unit | undefined) => u !== undefined && NO_LINE_START.has(Array.from(u.text)[0] ?? '');
const endsBadly = (u: Unit | undefined) => u !== undefined && NO_LINE_END.has(Array.from(u.text).at(-1) ?? '');

/** Wraps one paragraph greedily, then moves the break so kinsoku rules hold (see wrapDialogue). */
function wrapParagraph(paragraph: string, maxChars: number): string[] {
  const lines: Unit[][] = [];
  let current: Unit[] = [];
  for (const unit of unitsOf(paragraph, maxChars)) {
    const candidate = [...current, unit];
    if (current.length === 0 || lengthOf(candidate) <= maxChars) {
      current = candidate;
      continue;
    }
    // Break before `unit`; push units out to the next line while it would start with a closing mark.
    let split = current.length;
    while (split > 1 && startsBadly(candidate[split])) split--;
    if (startsBadly(candidate[split])) {
      // Nothing can be pushed out: let the closing mark hang past the limit instead.
      current = candidate;
      continue;
    }
    // Opening brackets move down to the line they open.
    while (split > 1 && endsBadly(candidate[split - 1])) split--;
    lines.push(candidate.slice(0, split));
    current = candidate.slice(split);
  }
  lines.push(current);
  return lines.map(textOf);
}

/**
 * Wraps dialogue to lines of at most `maxChars` characters (15 by the spec): Latin text breaks at spaces, CJK text
 * between any two characters, explicit newlines are kept, and kinsoku holds — no line starts with closing
 * punctuation or small kana (。、」』）！？ー っゃゅょ ァィゥェォッャュョ …) and none ends with an opening bracket
 * (「『（ …). A line exceeds the limit only when a closing mark cannot be pushed down any other way.
 */
export function wrapDialogue(text: string, maxChars: number = BUBBLE_WRAP_CHARACTERS): string[] {
  const limit = Math.max(1, Math.floor(maxChars));
  return text.split(/\r?\n/).flatMap((paragraph) => wrapParagraph(paragraph, limit));
}
