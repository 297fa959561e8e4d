import { BUBBLE_LINE_SPACING_FACTOR, type TextData } from '@koma/domain';
import { fontSpecOf, type FontSpec, type MeasureText } from './font.ts';
import { wrapDialogue } from './wrap.ts';

/** One character of a laid-out line: its left edge relative to the line's left edge. */
export interface LineGlyph {
  text: string;
  x: number;
}

/** A line of horizontal text: draw `text` at (x, y) with textBaseline 'top', or glyph by glyph when tracking ≠ 0. */
export interface LaidOutLine {
  text: string;
  x: number;
  /** Top of the line's em box. */
  y: number;
  width: number;
  glyphs: LineGlyph[];
}

/** Horizontal text laid out in a box whose top-left corner is (0, 0). */
export interface HorizontalLayout {
  kind: 'horizontal';
  font: FontSpec;
  width: number;
  height: number;
  /** Distance between the tops of consecutive lines. */
  linePitch: number;
  /** Extra space after every character (canvas `letterSpacing`), from characterSpacing. */
  tracking: number;
  lines: LaidOutLine[];
}

/** The lines of a TEXT layer: speech bubbles wrap at 15 characters, other text only at its own newlines. */
export function linesOf(data: Pick<TextData, 'text' | 'backgroundType'>): string[] {
  return data.backgroundType === 'SPEECH_BUBBLE' ? wrapDialogue(data.text) : data.text.split(/\r?\n/);
}

/**
 * characterSpacing is a factor of the natural advance: 1 is the font's own spacing and each 0.1 above adds a tenth
 * of an em between characters.
 */
export const trackingOf = (data: Pick<TextData, 'characterSpacing' | 'fontSize'>): number =>
  (data.characterSpacing - 1) * data.fontSize;

/**
 * Lays out horizontal text: lines `fontSize × (1 + 0.3) × lineSpacing` apart (the spec's bubble line-spacing factor),
 * each aligned left, centre or right within the widest line.
 */
export function layoutHorizontal(data: TextData, measure: MeasureText): HorizontalLayout {
  const font = fontSpecOf(data);
  const tracking = trackingOf(data);
  const linePitch = data.fontSize * (1 + BUBBLE_LINE_SPACING_FACTOR) * data.lineSpacing;
  const measured = linesOf(data).map((text) => {
    const chars = Array.from(text);
    const glyphs = chars.map((char, i) => ({
      text: char,
      x: (i === 0 ? 0 : measure(chars.slice(0, i).join(''), font).width) + tracking * i,
    }));
    const natural = text === '' ? 0 : measure(text, font).width;
    return { text, glyphs, width: Math.max(0, natural + tracking * Math.max(0, chars.length - 1)) };
  });
  const width = Math.max(0, ...measured.map((l) => l.width));
  const shift = data.textAlign === 'left' ? 0 : data.textAlign === 'right' ? 1 : 0.5;
  const lines = measured.map((line, i) => ({ ...line, x: (width - line.width) * shift, y: i * linePitch }));
  return {
    kind: 'horizontal',
    font,
    width,
    height: (lines.length - 1) * linePitch + data.fontSize,
    linePitch,
    tracking,
    lines,
  };
}
