/**
 * Limits every JSON value the product accepts must keep, checked without recursion so that no input can
 * overflow the stack: a body nested 100,000 deep is just a long loop here.
 */

/** How deep objects and arrays may nest in any JSON body or saved document (the top value is level 1). */
export const MAX_JSON_DEPTH = 64;

export type JsonPath = (string | number)[];

/** What is wrong with a value: nested too deep, or a string no database stores the same way. */
export type JsonProblem =
  | { kind: 'too_deep'; path: JsonPath }
  /** `inKey`: the object key at the end of `path` is bad, not the value under it. */
  | { kind: 'bad_text'; path: JsonPath; reason: string; inKey: boolean };

interface Frame {
  value: object;
  depth: number;
  parent: Frame | null;
  key: string | number | null;
  /** Strings below this frame are not checked. */
  textOff: boolean;
}

function pathOf(frame: Frame | null, last?: string | number): JsonPath {
  const out: JsonPath = last === undefined ? [] : [last];
  for (let f = frame; f && f.key !== null; f = f.parent) out.push(f.key);
  return out.reverse();
}

/**
 * Why a string cannot be stored as text: PostgreSQL refuses NUL in text columns (SQLite keeps it), and a lone
 * surrogate is written as U+FFFD by one driver and kept by the other. Null when the string is fine.
 */
export function badTextReason(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone surrogate (half of a UTF-16 pair)';
  return null;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** The string with NUL removed and each lone surrogate replaced by U+FFFD, as a UTF-8 encoder would write it. */
export function repairText(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATES, '\uFFFD');
}

export interface InspectOptions {
  maxDepth?: number;
  /** Also report strings holding NUL or lone surrogates (object keys included). */
  text?: boolean;
  /** Stop after this many text problems (the depth problem always stops the walk). */
  maxProblems?: number;
  /** Top-level keys whose strings are not checked (documents repair their own text). */
  skipTextUnder?: readonly string[];
}

/**
 * Walks a parsed JSON value depth-first without recursion. Returns the first level past `maxDepth` (then
 * stops) and, when asked, the strings (and keys) that hold NUL or lone surrogates, each with its path.
 */
export function inspectJson(root: unknown, options: InspectOptions = {}): JsonProblem[] {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const maxProblems = options.maxProblems ?? 1;
  const text = options.text ?? false;
  const skip = new Set(options.skipTextUnder ?? []);
  const problems: JsonProblem[] = [];
  /** True when the walk should stop. */
  const checkString = (s: string, frame: Frame | null, key?: string | number, inKey = false): boolean => {
    const reason = badTextReason(s);
    if (reason === null) return false;
    problems.push({ kind: 'bad_text', path: pathOf(frame, key), reason, inKey });
    return problems.length >= maxProblems;
  };
  if (typeof root === 'string') {
    if (text) checkString(root, null);
    return problems;
  }
  if (typeof root !== 'object' || root === null) return problems;
  const stack: Frame[] = [{ value: root, depth: 1, parent: null, key: null, textOff: !text }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const childDepth = frame.depth + 1;
    if (Array.isArray(frame.value)) {
      const list = frame.value as unknown[];
      for (let i = list.length - 1; i >= 0; i--) {
        const item = list[i];
        if (typeof item === 'object' && item !== null) {
          if (childDepth > maxDepth) return [{ kind: 'too_deep', path: pathOf(frame, i) }];
          stack.push({ value: item, depth: childDepth, parent: frame, key: i, textOff: frame.textOff });
        } else if (!frame.textOff && typeof item === 'string' && checkString(item, frame, i)) return problems;
      }
    } else {
      const record = frame.value as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let k = keys.length - 1; k >= 0; k--) {
        const key = keys[k]!;
        const item = record[key];
        const textOff = frame.textOff || (frame.depth === 1 && skip.has(key));
        if (!textOff && checkString(key, frame, key, true)) return problems;
        if (typeof item === 'object' && item !== null) {
          if (childDepth > maxDepth) return [{ kind: 'too_deep', path: pathOf(frame, key) }];
          stack.push({ value: item, depth: childDepth, parent: frame, key, textOff });
        } else if (!textOff && typeof item === 'string' && checkString(item, frame, key)) return problems;
      }
    }
  }
  return problems;
}
