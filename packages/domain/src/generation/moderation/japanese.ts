/**
 * Japanese matching. Japanese has no spaces between words, so terms are found as substrings of the prompt's
 * Japanese text: its kana and kanji (and digits) with everything else left out, so "ロ・リ" or "ロ リ" read as ロリ,
 * while a phrase break (comma, 、) stays a boundary. Hiragana is read as katakana and a few kanji that look like
 * katakana are folded (工口 → エロ, 口リ → ロリ). Ages are read from the normalised text: 12歳, １２才, 十二歳, and
 * school years (小5, 中2, 高1).
 */
import type { AgeMention } from './age-mention.ts';
import type { Normalized } from './normalize.ts';
import { JAPANESE_TERMS } from './words-ja.data.ts';

export type JapaneseLabel = keyof typeof JAPANESE_TERMS;

export interface JapaneseMatch {
  readonly start: number;
  readonly end: number;
  readonly term: string;
  readonly label: JapaneseLabel;
}

/** Kanji that imitate katakana, folded for matching only (ages read the text unfolded). */
const KANJI_AS_KANA: Readonly<Record<string, string>> = {
  口: 'ロ',
  工: 'エ',
  力: 'カ',
  夕: 'タ',
  卜: 'ト',
  八: 'ハ',
  二: 'ニ',
  一: 'ー',
};
const BOUNDARY = '|';
const PHRASE_BREAKS = new Set([...',;()[]{}、，。\n']);

function isJapanese(code: number): boolean {
  // The middle dot ・ (U+30FB) and ゠ sit in the katakana block but separate words.
  if (code === 0x30fb || code === 0x30a0) return false;
  return (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff)
  );
}

function foldCode(code: number): string {
  // Hiragana ぁ..ゖ to katakana ァ..ヶ.
  if (code >= 0x3041 && code <= 0x3096) return String.fromCharCode(code + 0x60);
  const ch = String.fromCharCode(code);
  return KANJI_AS_KANA[ch] ?? ch;
}

const HAS_JAPANESE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const BREAK_CODES = new Set([...PHRASE_BREAKS].map((c) => c.charCodeAt(0)));

/**
 * The Japanese text of a normalised prompt, folded and as written, with the index in `text` of every character kept
 * (the same for both: folding maps one character to one).
 */
interface JapaneseText {
  readonly folded: string;
  readonly plain: string;
  readonly at: readonly number[];
}

function japaneseText(text: string): JapaneseText {
  let folded = '';
  let plain = '';
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isJapanese(code) || (code >= 48 && code <= 57)) {
      folded += foldCode(code);
      plain += text.charAt(i);
      at.push(i);
    } else if (BREAK_CODES.has(code) && folded.length > 0 && !folded.endsWith(BOUNDARY)) {
      folded += BOUNDARY;
      plain += BOUNDARY;
      at.push(i);
    }
  }
  return { folded, plain, at };
}

// Matching and age reading both read the Japanese text of the same normalised prompt, one after the other.
let lastNormalized: Normalized | null = null;
let lastText: JapaneseText | null = null;

/** The Japanese text of a normalised prompt; null when it has none. */
function japaneseOf(n: Normalized): JapaneseText | null {
  if (n !== lastNormalized) {
    lastNormalized = n;
    lastText = HAS_JAPANESE.test(n.text) ? japaneseText(n.text) : null;
  }
  return lastText;
}

function fold(term: string): string {
  return japaneseText(term).folded;
}

interface Entry {
  readonly key: string;
  readonly term: string;
  readonly label: JapaneseLabel;
}

// Terms indexed by their first folded character, longest first.
const BY_FIRST = new Map<string, Entry[]>();
for (const [label, terms] of Object.entries(JAPANESE_TERMS) as [JapaneseLabel, readonly string[]][]) {
  for (const term of terms) {
    const key = fold(term);
    const list = BY_FIRST.get(key.charAt(0)) ?? [];
    list.push({ key, term, label });
    BY_FIRST.set(key.charAt(0), list);
  }
}
for (const list of BY_FIRST.values()) list.sort((a, b) => b.key.length - a.key.length);

function original(n: Normalized, start: number, end: number): { start: number; end: number } {
  return n.from && n.to ? { start: n.from[start]!, end: n.to[end - 1]! } : { start, end };
}

/**
 * Japanese terms of a normalised prompt, with their spans in the original. A term inside a longer one is left out
 * (女子小学生 holds 小学生, 裸足 holds 裸), which is also how benign words shield what they contain.
 */
export function japaneseMatches(n: Normalized): JapaneseMatch[] {
  const japanese = japaneseOf(n);
  if (!japanese) return [];
  const { folded, at } = japanese;
  const found: { s: number; e: number; entry: Entry }[] = [];
  for (let p = 0; p < folded.length; p++) {
    const list = BY_FIRST.get(folded.charAt(p));
    if (!list) continue;
    for (const entry of list) {
      if (folded.startsWith(entry.key, p)) found.push({ s: p, e: p + entry.key.length, entry });
    }
  }
  found.sort((a, b) => a.s - b.s || b.e - a.e);
  const out: JapaneseMatch[] = [];
  let coveredTo = -1;
  let coveredFrom = -1;
  for (const f of found) {
    if (f.s >= coveredFrom && f.e <= coveredTo) continue;
    coveredFrom = f.s;
    coveredTo = Math.max(coveredTo, f.e);
    const span = original(n, at[f.s]!, at[f.e - 1]! + 1);
    out.push({ ...span, term: f.entry.term, label: f.entry.label });
  }
  return out;
}

const KANJI_DIGITS: Readonly<Record<string, number>> = {
  〇: 0,
  零: 0,
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};

/** 十二 → 12, 二十五 → 25, 百 → 100; null when it is not a kanji number. */
export function kanjiNumber(s: string): number | null {
  let total = 0;
  let current = 0;
  let any = false;
  for (const ch of s) {
    const d = KANJI_DIGITS[ch];
    if (d !== undefined) {
      current = current * 10 + d;
      any = true;
    } else if (ch === '十' || ch === '百') {
      total += (current || 1) * (ch === '十' ? 10 : 100);
      current = 0;
      any = true;
    } else {
      return null;
    }
  }
  return any ? total + current : null;
}

const AGE_DIGITS = /(\d{1,3})(?:歳|才|さい)/g;
const AGE_KANJI = /([〇零一二三四五六七八九十百]{1,5})(?:歳|才)/g;
// 小5 / 小学5年生 (grade N is about age 5 + N), 中2 / 中学2年 (11 + N), 高1 / 高校1年 (14 + N); not inside a longer
// kanji word (最高1位 is a ranking).
const SCHOOL_YEAR = /(?<![\u3400-\u9fff])(小|中|高)(?:学校?|校)?([1-6一二三四五六])(?:年生|年)?/g;
const SCHOOL_BASE: Readonly<Record<string, number>> = { 小: 5, 中: 11, 高: 14 };
const SCHOOL_YEARS: Readonly<Record<string, number>> = { 小: 6, 中: 3, 高: 3 };

/** Ages stated in Japanese. */
export function japaneseAges(n: Normalized): AgeMention[] {
  const japanese = japaneseOf(n);
  if (!japanese) return [];
  // Read on the Japanese text without separators ("十･二歳"), unfolded (一 is a digit here, not ー).
  const { plain: text, at } = japanese;
  const out: AgeMention[] = [];
  const push = (age: number, index: number, length: number) =>
    out.push({ age, ...original(n, at[index]!, at[index + length - 1]! + 1) });
  for (const m of text.matchAll(AGE_DIGITS)) push(Number(m[1]), m.index, m[0].length);
  for (const m of text.matchAll(AGE_KANJI)) {
    const age = kanjiNumber(m[1]!);
    if (age !== null) push(age, m.index, m[0].length);
  }
  for (const m of text.matchAll(SCHOOL_YEAR)) {
    const school = m[1]!;
    const year = kanjiNumber(m[2]!) ?? Number(m[2]);
    if (year >= 1 && year <= SCHOOL_YEARS[school]!) push(SCHOOL_BASE[school]! + year, m.index, m[0].length);
  }
  return out;
}
