import { zTextData, type TextData } from '@koma/domain';
import { describe, expect, it } from 'vitest';
import {
  CORNER_OFFSET,
  SMALL_KANA_OFFSET,
  cssFont,
  layoutHorizontal,
  layoutText,
  layoutVertical,
  newBubbleData,
  type VerticalGlyph,
} from '../../src/text/index.ts';
import { fakeMeasure } from './fake-measure.ts';

const text = (over: Partial<TextData>): TextData => zTextData.parse(over);

describe('layoutHorizontal', () => {
  it('stacks lines 1.3 font sizes apart and centres them in the widest line', () => {
    const layout = layoutHorizontal(text({ text: 'Hello\nHi', fontSize: 20 }), fakeMeasure);
    expect(layout.linePitch).toBeCloseTo(26);
    expect(layout.width).toBe(50);
    expect(layout.height).toBeCloseTo(46);
    expect(layout.lines.map((l) => [l.text, l.x, l.y, l.width])).toEqual([
      ['Hello', 0, 0, 50],
      ['Hi', 15, 26, 20],
    ]);
  });

  it('aligns left and right, and scales line spacing', () => {
    const left = layoutHorizontal(text({ text: 'Hello\nHi', fontSize: 20, textAlign: 'left' }), fakeMeasure);
    expect(left.lines[1]!.x).toBe(0);
    const right = layoutHorizontal(
      text({ text: 'Hello\nHi', fontSize: 20, textAlign: 'right', lineSpacing: 2 }),
      fakeMeasure,
    );
    expect(right.lines[1]!.x).toBe(30);
    expect(right.lines[1]!.y).toBeCloseTo(52);
  });

  it('adds a tenth of an em between characters per 0.1 of characterSpacing above 1', () => {
    const layout = layoutHorizontal(text({ text: 'abc', fontSize: 20, characterSpacing: 1.5 }), fakeMeasure);
    expect(layout.tracking).toBeCloseTo(10);
    expect(layout.lines[0]!.glyphs.map((g) => g.x)).toEqual([0, 20, 40]);
    expect(layout.lines[0]!.width).toBeCloseTo(50);
  });

  it('wraps speech bubbles at 15 characters but leaves plain text on its own lines', () => {
    const long = 'The quick brown fox jumps over the lazy dog';
    expect(layoutHorizontal(text({ text: long, backgroundType: 'SPEECH_BUBBLE' }), fakeMeasure).lines).toHaveLength(3);
    expect(layoutHorizontal(text({ text: long }), fakeMeasure).lines).toHaveLength(1);
  });

  it('gives empty text one empty line a font size high', () => {
    const layout = layoutHorizontal(text({ text: '', fontSize: 30 }), fakeMeasure);
    expect([layout.width, layout.height, layout.lines.length]).toEqual([0, 30, 1]);
  });
});

describe('layoutVertical', () => {
  const sample = newBubbleData({ vertical: true, text: '「こんにちは、世界！」ちょっと待って。' });
  const layout = layoutVertical(sample, fakeMeasure);
  const glyph = (column: number, char: string): VerticalGlyph =>
    layout.columns[column]!.glyphs.find((g) => g.text === char)!;

  it('sets columns right to left, 1.1 font sizes apart, each running top to bottom', () => {
    expect(sample.fontSize).toBe(35);
    expect(layout.columns.map((c) => c.text)).toEqual(['「こんにちは、世界！」ちょっと', '待って。']);
    expect(layout.columnPitch).toBeCloseTo(38.5);
    expect(layout.width).toBeCloseTo(38.5 + 35);
    const [right, left] = layout.columns;
    expect(right!.x).toBeCloseTo(layout.width - 17.5);
    expect(left!.x).toBeCloseTo(right!.x - 38.5);
    for (const column of layout.columns) {
      const ys = column.glyphs.map((g) => g.y - (g.kind === 'corner' ? CORNER_OFFSET.y * 35 : 0));
      ys.slice(1).forEach((y, i) => expect(y).toBeGreaterThan(ys[i]!));
    }
    expect(layout.height).toBeCloseTo(15 * 35);
  });

  it('centres the shorter column and leaves the full one at the top', () => {
    expect(layout.columns[0]!.y).toBe(0);
    expect(layout.columns[1]!.y).toBeCloseTo((15 - 4) * 35 * 0.5);
  });

  it('turns brackets 90° and keeps kana upright', () => {
    expect(glyph(0, '「')).toMatchObject({ kind: 'rotated', rotation: 90 });
    expect(glyph(0, '」')).toMatchObject({ kind: 'rotated', rotation: 90 });
    expect(glyph(0, 'こ')).toMatchObject({ kind: 'upright', rotation: 0, x: layout.columns[0]!.x });
    expect(glyph(0, '！')).toMatchObject({ kind: 'upright', rotation: 0 });
  });

  it('moves 、 and 。 to the top-right of their cells and small kana slightly so', () => {
    const comma = glyph(0, '、');
    const column = layout.columns[0]!;
    const cellCentre = column.y + 6 * 35 + 17.5;
    expect(comma.kind).toBe('corner');
    expect(comma.x - column.x).toBeCloseTo(CORNER_OFFSET.x * 35);
    expect(comma.y - cellCentre).toBeCloseTo(CORNER_OFFSET.y * 35);
    expect(glyph(1, '。').kind).toBe('corner');
    const small = glyph(0, 'ょ');
    expect(small.kind).toBe('small-kana');
    expect(small.x - column.x).toBeCloseTo(SMALL_KANA_OFFSET.x * 35);
    expect(small.y - (column.y + 12 * 35 + 17.5)).toBeCloseTo(SMALL_KANA_OFFSET.y * 35);
    expect(SMALL_KANA_OFFSET.x).toBeGreaterThan(0);
    expect(SMALL_KANA_OFFSET.y).toBeLessThan(0);
  });

  it('rotates the long vowel mark and wave dash', () => {
    const ramen = layoutVertical(newBubbleData({ vertical: true, text: 'ラーメン〜' }), fakeMeasure);
    const kinds = ramen.columns[0]!.glyphs.map((g) => [g.text, g.rotation]);
    expect(kinds).toEqual([
      ['ラ', 0],
      ['ー', 90],
      ['メ', 0],
      ['ン', 0],
      ['〜', 90],
    ]);
  });

  it('rotates Latin runs as a whole and sets one or two digits upright in one cell', () => {
    const mixed = layoutVertical(newBubbleData({ vertical: true, text: 'OK boss、12月2024年!?' }), fakeMeasure);
    const glyphs = mixed.columns.flatMap((c) => c.glyphs);
    expect(glyphs.find((g) => g.text === 'OK boss')).toMatchObject({
      kind: 'rotated',
      rotation: 90,
      advance: 35 * 3.3,
    });
    expect(glyphs.find((g) => g.text === '12')).toMatchObject({ kind: 'tate-chu-yoko', rotation: 0, advance: 35 });
    expect(glyphs.find((g) => g.text === '2024')).toMatchObject({ kind: 'rotated', rotation: 90, advance: 70 });
    expect(glyphs.find((g) => g.text === '!?')).toMatchObject({ kind: 'tate-chu-yoko' });
  });

  it('squeezes a wide tate-chū-yoko pair into one em', () => {
    const wide = (t: string, font: { size: number }) => ({ width: Array.from(t).length * font.size * 0.8 });
    const l = layoutVertical(newBubbleData({ vertical: true, text: '42' }), wide);
    expect(l.columns[0]!.glyphs[0]!.scaleX).toBeCloseTo(1 / 1.6);
  });

  it('sets shorter columns at the top for left and at the bottom for right alignment, and tracks cells', () => {
    const base = { vertical: true, text: 'あいうえお\nかき' };
    const top = layoutVertical(newBubbleData({ ...base, textAlign: 'left' }), fakeMeasure);
    expect(top.columns[1]!.y).toBe(0);
    const bottom = layoutVertical(newBubbleData({ ...base, textAlign: 'right' }), fakeMeasure);
    expect(bottom.columns[1]!.y).toBeCloseTo(3 * 35);
    const tracked = layoutVertical(newBubbleData({ ...base, characterSpacing: 1.2 }), fakeMeasure);
    const ys = tracked.columns[0]!.glyphs.map((g) => g.y);
    expect(ys[1]! - ys[0]!).toBeCloseTo(35 * 1.2);
    expect(tracked.height).toBeCloseTo(5 * 35 + 4 * 7);
  });

  it('is what layoutText picks for vertical data', () => {
    expect(layoutText(sample, fakeMeasure).kind).toBe('vertical');
    expect(layoutText(newBubbleData(), fakeMeasure).kind).toBe('horizontal');
  });
});

describe('newBubbleData and fonts', () => {
  it('starts dialogue at 30 px (35 vertical) in the lettering or Japanese font', () => {
    expect(newBubbleData()).toMatchObject({ backgroundType: 'SPEECH_BUBBLE', fontSize: 30, bubbleStyle: 'b0' });
    expect(newBubbleData({ vertical: true })).toMatchObject({ fontSize: 35, fontName: 'Noto Sans JP', vertical: true });
    expect(newBubbleData({ text: 'Hey' }).text).toBe('Hey');
  });

  it('writes a canvas font shorthand', () => {
    expect(cssFont({ family: 'Komika', size: 30, bold: true, italic: true })).toBe('italic bold 30px "Komika"');
  });
});
