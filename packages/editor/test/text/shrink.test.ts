import { zTextData, type TextData } from '@koma/domain';
import { describe, expect, it } from 'vitest';
import { SHRINK_FONT_FLOOR, fitBubble, newBubbleData, shownText, textRoom } from '../../src/text/index.ts';
import { fakeMeasure } from './fake-measure.ts';

const inside = (data: TextData, width: number, height: number) => {
  const shown = shownText(data, width, height, fakeMeasure);
  const room = textRoom(shown.data, width, height);
  return shown.layout.width <= room.width + 1e-6 && shown.layout.height <= room.height + 1e-6;
};

describe('shrink text to fit', () => {
  const line = 'Hello there, how have you been lately? I was waiting for you all day long!';

  it('leaves grow-to-fit text at its own size, whatever the box', () => {
    const data = newBubbleData({ text: line, fontSize: 40 });
    const shown = shownText(data, 50, 50, fakeMeasure);
    expect(shown.data.fontSize).toBe(40);
    expect(shown.overflow).toBe(false);
  });

  it('keeps the size when the text already fits', () => {
    const data = newBubbleData({ text: 'Hi', fontSize: 30, textFit: 'shrink' });
    const fit = fitBubble(data, fakeMeasure);
    expect(shownText(data, fit.width, fit.height, fakeMeasure).data.fontSize).toBe(30);
  });

  it('steps down to the largest whole size that fits, horizontally and vertically', () => {
    for (const [vertical, text] of [
      [false, line],
      [true, '今日は本当にいい天気ですね。散歩に行きましょうか!?'],
    ] as const) {
      for (const style of ['b0', 'b7', 'b3']) {
        const data = newBubbleData({ text, fontSize: 48, textFit: 'shrink', vertical, bubbleStyle: style });
        const [w, h] = vertical ? [220, 320] : [320, 220];
        const shown = shownText(data, w, h, fakeMeasure);
        const size = shown.data.fontSize;
        expect(size, `${style} vertical=${vertical}`).toBeLessThan(48);
        expect(size).toBeGreaterThanOrEqual(SHRINK_FONT_FLOOR);
        expect(Number.isInteger(size)).toBe(true);
        expect(shown.overflow).toBe(false);
        // It fits, and one pixel more would not.
        expect(inside({ ...data, fontSize: size }, w, h)).toBe(true);
        expect(inside({ ...data, fontSize: size + 1, textFit: 'grow' }, w, h)).toBe(false);
      }
    }
  });

  it('re-fits when the text or the box changes: more text or a smaller box, a smaller size', () => {
    const data = newBubbleData({ text: 'Wait for me!', fontSize: 60, textFit: 'shrink' });
    const short = shownText(data, 260, 180, fakeMeasure).data.fontSize;
    const long = shownText({ ...data, text: line }, 260, 180, fakeMeasure).data.fontSize;
    const small = shownText({ ...data, text: line }, 200, 140, fakeMeasure).data.fontSize;
    expect(long).toBeLessThan(short);
    expect(small).toBeLessThan(long);
  });

  it('stops at the floor and reports the overflow', () => {
    const data = newBubbleData({ text: line.repeat(6), fontSize: 40, textFit: 'shrink' });
    const shown = shownText(data, 80, 60, fakeMeasure);
    expect(shown.data.fontSize).toBe(SHRINK_FONT_FLOOR);
    expect(shown.overflow).toBe(true);
  });

  it('measures the room a background leaves: paddings as set, a rectangle margin, the whole box for plain text', () => {
    const plain = zTextData.parse({ text: 'x', fontSize: 20 });
    expect(textRoom(plain, 100, 50)).toEqual({ x: 0, y: 0, width: 100, height: 50 });
    const padded = { ...plain, backgroundType: 'RECTANGLE' as const, autoPadding: false };
    expect(textRoom({ ...padded, paddings: { top: 1, right: 2, bottom: 3, left: 4 } }, 100, 50)).toEqual({
      x: 4,
      y: 1,
      width: 94,
      height: 46,
    });
    const rect = textRoom({ ...plain, backgroundType: 'RECTANGLE' }, 100, 50);
    const m = 20 * 0.4 + 5 / 2;
    expect(rect.x).toBeCloseTo(m, 9);
    expect(rect.width).toBeCloseTo(100 - 2 * m, 9);
    // The inverse of grow-to-fit: a bubble fitted to its text has room for exactly that text.
    const bubble = newBubbleData({ text: line, fontSize: 30 });
    const fit = fitBubble(bubble, fakeMeasure);
    const room = textRoom(bubble, fit.width, fit.height);
    expect(room.width).toBeGreaterThanOrEqual(fit.layout.width - 1e-6);
    expect(room.width).toBeLessThan(fit.layout.width * 1.05 + 1);
  });
});
