// Ruby (furigana) in the notation Japanese writers already type: `｜漢字《かんじ》`, or `漢字《かんじ》` where the base is
// the run of kanji just before the bracket. The bar may be full-width ｜ or ASCII |.

/** Reading `ruby` over the base characters [start, end) of the plain text (indices count code points). */
export interface RubySpan {
  start: number;
  end: number;
  ruby: string;
}

export type RubyParse = { ok: true; text: string; spans: RubySpan[] } | { ok: false; message: string };

const BARS = new Set(['｜', '|']);
const OPEN = '《';
const CLOSE = '》';
/** Characters a bar-less reading attaches to: CJK ideographs and the marks written with them. */
const KANJI = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆ヶ]/u;

/** The plain text (what prints as the base line) and the readings over it; a clear refusal for broken notation. */
export function parseRuby(source: string): RubyParse {
  const chars = Array.from(source);
  const out: string[] = [];
  const spans: RubySpan[] = [];
  // Where the base of an open bar starts in `out`, or null.
  let barAt: number | null = null;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (BARS.has(c) && chars.slice(i + 1).some((d) => d === OPEN)) {
      // A bar opens a base only when a reading follows on the same line; otherwise it is just a character.
      const next = chars.slice(i + 1);
      const open = next.indexOf(OPEN);
      const newline = next.indexOf('\n');
      if (newline === -1 || open < newline) {
        barAt = out.length;
        continue;
      }
    }
    if (c === CLOSE) return { ok: false, message: `text: 》 at character ${i + 1} closes no 《` };
    if (c !== OPEN) {
      if (c === '\n') barAt = null;
      out.push(c);
      continue;
    }
    const close = chars.indexOf(CLOSE, i + 1);
    const nested = chars.indexOf(OPEN, i + 1);
    if (close === -1) return { ok: false, message: `text: the ruby 《 at character ${i + 1} is not closed with 》` };
    if (nested !== -1 && nested < close) {
      return {
        ok: false,
        message: `text: ruby brackets cannot be nested (《 inside 《…》 at character ${nested + 1})`,
      };
    }
    const ruby = chars.slice(i + 1, close).join('');
    if (ruby.trim() === '' || ruby.includes('\n')) {
      return { ok: false, message: `text: the ruby 《${ruby}》 at character ${i + 1} is empty or spans a line` };
    }
    let start = barAt;
    if (start === null) {
      start = out.length;
      while (start > 0 && KANJI.test(out[start - 1]!)) start--;
    }
    if (start === out.length) {
      return { ok: false, message: `text: the ruby 《${ruby}》 has no base text; write ｜base《${ruby}》` };
    }
    spans.push({ start, end: out.length, ruby });
    barAt = null;
    i = close;
  }
  return { ok: true, text: out.join(''), spans };
}

/** The text a layer prints as its base line: the notation removed (left as typed when it does not parse). */
export function plainText(source: string): string {
  const parsed = parseRuby(source);
  return parsed.ok ? parsed.text : source;
}

/** One character of a reading, drawn upright, centred on (x, y) (textAlign 'center', textBaseline 'middle'). */
export interface RubyMark {
  text: string;
  x: number;
  y: number;
  size: number;
}

/** Where each base character landed: its extent along the line and its place across it. */
export interface BaseExtent {
  /** Start and end along the line (x for horizontal, y for vertical). */
  from: number;
  to: number;
  /** Where the reading's centre goes across the line (above the line, or right of the column). */
  across: number;
}

/**
 * The readings' characters at half the font size, centred on their base; a reading longer than its base runs past it
 * evenly on both sides, a shorter one spreads over it. `vertical` sets them down a column instead of along a line.
 */
export function placeRuby(
  spans: readonly RubySpan[],
  bases: ReadonlyMap<number, BaseExtent>,
  size: number,
  vertical: boolean,
): RubyMark[] {
  const marks: RubyMark[] = [];
  for (const span of spans) {
    const extents: BaseExtent[] = [];
    for (let i = span.start; i < span.end; i++) {
      const e = bases.get(i);
      if (e) extents.push(e);
    }
    const first = extents[0];
    if (!first) continue;
    // A base broken over two lines keeps its reading on the first line's part.
    const same = extents.filter((e) => e.across === first.across);
    const from = Math.min(...same.map((e) => e.from));
    const to = Math.max(...same.map((e) => e.to));
    const chars = Array.from(span.ruby);
    const step = Math.max(size, (to - from) / chars.length);
    const start = (from + to) / 2 - (step * chars.length) / 2;
    chars.forEach((text, k) => {
      const along = start + step * (k + 0.5);
      marks.push(vertical ? { text, x: first.across, y: along, size } : { text, x: along, y: first.across, size });
    });
  }
  return marks;
}
