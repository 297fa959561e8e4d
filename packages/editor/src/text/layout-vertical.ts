import { BUBBLE_LINE_SPACING_FACTOR_VERTICAL, type TextData } from '@koma/domain';
import { fontSpecOf, type FontSpec, type MeasureText } from './font.ts';
import { SMALL_KANA, VERTICAL_CORNER_PUNCTUATION, VERTICAL_ROTATED, isCjk } from './kinsoku.ts';
import { linesOf, trackingOf } from './layout-horizontal.ts';

/**
 * How a vertical glyph is set: upright; rotated 90° clockwise (ー, brackets, dashes, Latin runs); a corner
 * punctuation mark or small kana moved towards the top-right; tate-chū-yoko (1–2 digits or !? set side by side
 * upright in one cell); or blank space.
 */
export type VerticalGlyphKind = 'upright' | 'rotated' | 'corner' | 'small-kana' | 'tate-chu-yoko' | 'space';

/**
 * One glyph (or Latin run) of vertical text. Draw with textAlign 'center' and textBaseline 'middle':
 * translate to (x, y), rotate by `rotation` degrees clockwise, scale x by `scaleX`, fillText(text, 0, 0).
 */
export interface VerticalGlyph {
  text: string;
  kind: VerticalGlyphKind;
  x: number;
  y: number;
  rotation: number;
  scaleX: number;
  /** Length along the column. */
  advance: number;
}

/** A column of vertical text: centre x, top and length. */
export interface LaidOutColumn {
  text: string;
  x: number;
  y: number;
  height: number;
  glyphs: VerticalGlyph[];
}

/** Vertical (tategaki) text laid out in a box whose top-left corner is (0, 0); columns run right to left. */
export interface VerticalLayout {
  kind: 'vertical';
  font: FontSpec;
  width: number;
  height: number;
  /** Distance between the centres of consecutive columns. */
  columnPitch: number;
  columns: LaidOutColumn[];
}

/** Moves of corner punctuation and small kana towards the top-right of the cell, in ems (+x right, −y up). */
export const CORNER_OFFSET = { x: 0.5, y: -0.5 } as const;
export const SMALL_KANA_OFFSET = { x: 0.1, y: -0.1 } as const;

const LATIN = /[\x21-\x7e]/;
const DIGITS = /^[0-9]+$/;
const EXCLAMATIONS = /^[!?]+$/;

/**
 * Whether a run of half-width characters is set tate-chū-yoko: digits ("12", "2024" only with a longer limit) or
 * "!?", "!!", "?!" (and "!!!" at 3), up to `maxLength` characters, when the layer's switch is on. Mixed runs such as
 * "1!" or "A1" and longer ones turn sideways with the rest of the Latin text.
 */
export function isTateChuYoko(run: string, options: Pick<TextData, 'tateChuYoko' | 'tateChuYokoLength'>): boolean {
  if (!options.tateChuYoko) return false;
  const length = Array.from(run).length;
  if (length < 1 || length > options.tateChuYokoLength) return false;
  return DIGITS.test(run) || EXCLAMATIONS.test(run);
}

/** Splits a column into cells: one per CJK character, one per run of Latin letters and digits (with inner spaces). */
function cellsOf(column: string): string[] {
  const cells: string[] = [];
  let run = '';
  const flush = () => {
    if (run.trim()) cells.push(run.trim());
    else if (run) cells.push(' ');
    run = '';
  };
  for (const char of column) {
    if (LATIN.test(char) || (char === ' ' && run.trim() !== '')) {
      run += char;
    } else {
      flush();
      cells.push(char);
    }
  }
  flush();
  return cells;
}

interface Cell {
  text: string;
  kind: VerticalGlyphKind;
  advance: number;
  rotation: number;
  scaleX: number;
  dx: number;
  dy: number;
}

function setCell(text: string, size: number, font: FontSpec, measure: MeasureText, data: TextData): Cell {
  const base = { text, advance: size, rotation: 0, scaleX: 1, dx: 0, dy: 0 };
  if (text === ' ') return { ...base, kind: 'space', advance: measure(' ', font).width };
  if (text === '\u3000') return { ...base, kind: 'space' };
  if (isTateChuYoko(text, data)) {
    return { ...base, kind: 'tate-chu-yoko', scaleX: Math.min(1, size / Math.max(1e-9, measure(text, font).width)) };
  }
  if (Array.from(text).length > 1 || (LATIN.test(text) && !isCjk(text))) {
    return { ...base, kind: 'rotated', rotation: 90, advance: measure(text, font).width };
  }
  if (VERTICAL_CORNER_PUNCTUATION.has(text)) {
    return { ...base, kind: 'corner', dx: CORNER_OFFSET.x * size, dy: CORNER_OFFSET.y * size };
  }
  if (SMALL_KANA.has(text)) {
    return { ...base, kind: 'small-kana', dx: SMALL_KANA_OFFSET.x * size, dy: SMALL_KANA_OFFSET.y * size };
  }
  if (VERTICAL_ROTATED.has(text)) return { ...base, kind: 'rotated', rotation: 90 };
  return { ...base, kind: 'upright' };
}

/**
 * Lays out vertical Japanese text: columns top to bottom, the first on the right, `fontSize × (1 + 0.1) ×
 * lineSpacing` apart (the spec's vertical bubble factor); textAlign sets columns to the top, middle or bottom.
 * Latin runs of 3+ characters or with letters turn 90° clockwise as a whole; 1–2 digits (or !?) are set upright
 * side by side (tate-chū-yoko), squeezed into one em.
 */
export function layoutVertical(data: TextData, measure: MeasureText): VerticalLayout {
  const font = fontSpecOf(data);
  const size = data.fontSize;
  const tracking = trackingOf(data);
  const columnPitch = size * (1 + BUBBLE_LINE_SPACING_FACTOR_VERTICAL) * data.lineSpacing;
  const set = linesOf(data).map((text) => {
    const cells = cellsOf(text).map((c) => setCell(c, size, font, measure, data));
    const length = cells.reduce((sum, c) => sum + c.advance, 0) + tracking * Math.max(0, cells.length - 1);
    return { text, cells, length: Math.max(0, length) };
  });
  const height = Math.max(0, ...set.map((c) => c.length));
  const width = (set.length - 1) * columnPitch + size;
  const shift = data.textAlign === 'left' ? 0 : data.textAlign === 'right' ? 1 : 0.5;
  const columns = set.map((column, i) => {
    const x = width - size / 2 - i * columnPitch;
    const top = (height - column.length) * shift;
    let y = top;
    const glyphs = column.cells.map((cell) => {
      const glyph: VerticalGlyph = {
        text: cell.text,
        kind: cell.kind,
        x: x + cell.dx,
        y: y + cell.advance / 2 + cell.dy,
        rotation: cell.rotation,
        scaleX: cell.scaleX,
        advance: cell.advance,
      };
      y += cell.advance + tracking;
      return glyph;
    });
    return { text: column.text, x, y: top, height: column.length, glyphs };
  });
  return { kind: 'vertical', font, width, height, columnPitch, columns };
}
