/**
 * Character classes of Japanese line breaking (kinsoku shori, JIS X 4051) and vertical setting.
 * Sets hold single code points; test with `has(char)`.
 */

/** Small kana: never start a line; in vertical text they sit towards the top-right of their cell. */
export const SMALL_KANA: ReadonlySet<string> = new Set([
  ...'ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ',
  ...'ㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ',
]);

/** Closing brackets and punctuation that must not begin a line. */
export const NO_LINE_START: ReadonlySet<string> = new Set([
  ...'、。，．,.・：；:;？！?!‼⁇⁈⁉…‥ー〜～ゝゞヽヾ々〻',
  ...'）」』】〕〉》］｝〙〗〟’”)]}',
  ...SMALL_KANA,
]);

/** Opening brackets that must not end a line. */
export const NO_LINE_END: ReadonlySet<string> = new Set([...'（「『【〔〈《［｛〘〖〝‘“([{']);

/** Punctuation drawn in the top-right corner of its cell in vertical text. */
export const VERTICAL_CORNER_PUNCTUATION: ReadonlySet<string> = new Set([...'、。，．']);

/** Characters turned 90° clockwise in vertical text: long vowel mark, dashes, wave dash, ellipses, brackets. */
export const VERTICAL_ROTATED: ReadonlySet<string> = new Set([
  ...'ー－—―‐–〜～…‥＝：;；',
  ...'「」『』（）()【】〔〕［］[]｛｝{}〈〉《》〘〙〖〗＜＞<>→←',
]);

/** Whether a character belongs to a script set one character at a time (kana, kanji, Hangul, full-width forms). */
export function isCjk(char: string): boolean {
  const c = char.codePointAt(0) ?? 0;
  return (
    (c >= 0x3000 && c <= 0x303f) || // CJK symbols and punctuation
    (c >= 0x3040 && c <= 0x30ff) || // hiragana, katakana
    (c >= 0x31f0 && c <= 0x31ff) || // katakana phonetic extensions
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xff00 && c <= 0xffef) || // full-width and half-width forms
    (c >= 0x20000 && c <= 0x2fa1f) ||
    // … ‥ — ― behave as CJK punctuation in Japanese text.
    c === 0x2026 ||
    c === 0x2025 ||
    c === 0x2014 ||
    c === 0x2015
  );
}
