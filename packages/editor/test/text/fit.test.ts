import { SPEECH_BUBBLES, zTextData, type Point, type Rect, type TextData } from '@koma/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MIN_ROUND_ASPECT,
  bubbleOutline,
  bubbleStylePatch,
  fitBubble,
  newBubbleData,
  pointInOutline,
} from '../../src/text/index.ts';
import { fakeMeasure } from './fake-measure.ts';

const corners = (r: Rect): Point[] => [
  { x: r.x, y: r.y },
  { x: r.x + r.width, y: r.y },
  { x: r.x, y: r.y + r.height },
  { x: r.x + r.width, y: r.y + r.height },
];
const within = (inner: Rect, outer: Rect) =>
  inner.x >= outer.x - 1e-6 &&
  inner.y >= outer.y - 1e-6 &&
  inner.x + inner.width <= outer.x + outer.width + 1e-6 &&
  inner.y + inner.height <= outer.y + outer.height + 1e-6;

describe('fitBubble', () => {
  it('sizes the default oval to about √2 times its text box plus margins', () => {
    const data = newBubbleData({ text: 'Hello there\nmy dear\nfriend' });
    const fit = fitBubble(data, fakeMeasure);
    const m = 30 * 0.25 + 5 / 2;
    const innerW = fit.layout.width + 2 * m;
    const innerH = fit.layout.height + 2 * m;
    expect(fit.width / innerW).toBeGreaterThan(Math.SQRT2);
    expect(fit.width / innerW).toBeLessThan(Math.SQRT2 * 1.06);
    expect(fit.height / innerH).toBeGreaterThan(Math.SQRT2);
    expect(fit.height / innerH).toBeLessThan(Math.SQRT2 * 1.06);
    // Centred.
    expect(fit.paddings.left).toBeCloseTo(fit.paddings.right, 6);
    expect(fit.paddings.top).toBeCloseTo(fit.paddings.bottom, 6);
  });

  it('grows with its text', () => {
    const short = fitBubble(newBubbleData({ text: 'Hi' }), fakeMeasure);
    const long = fitBubble(newBubbleData({ text: 'Hi there, how have you been lately?' }), fakeMeasure);
    expect(long.width).toBeGreaterThan(short.width);
    expect(long.height).toBeGreaterThan(short.height);
  });

  it('adds the layer paddings as they are without autoPadding', () => {
    const paddings = { top: 5, right: 6, bottom: 7, left: 8 };
    const fit = fitBubble(newBubbleData({ text: 'Hey', autoPadding: false, paddings }), fakeMeasure);
    expect(fit.width).toBeCloseTo(fit.layout.width + 14, 9);
    expect(fit.height).toBeCloseTo(fit.layout.height + 12, 9);
    expect(fit.textBox).toMatchObject({ x: 8, y: 5 });
    expect(fit.paddings).toEqual(paddings);
  });

  it('gives rectangles a margin and plain text nothing', () => {
    const plain = zTextData.parse({ text: 'Hey', fontSize: 20 });
    expect(fitBubble(plain, fakeMeasure)).toMatchObject({ width: 30, height: 20, textBox: { x: 0, y: 0 } });
    const rect = fitBubble({ ...plain, backgroundType: 'RECTANGLE', rectRounding: 10 }, fakeMeasure);
    const m = 20 * 0.4 + 5 / 2 + 10 * (1 - Math.SQRT1_2);
    expect(rect.width).toBeCloseTo(30 + 2 * m, 9);
    expect(rect.textBox.x).toBeCloseTo(m, 9);
  });

  const words = fc.array(fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopWM!?'), minLength: 1, maxLength: 12 }), {
    minLength: 1,
    maxLength: 12,
  });
  const kana = fc.string({
    unit: fc.constantFrom(...'あいうえおかきくけこっゃー、。「」世界'),
    minLength: 1,
    maxLength: 60,
  });

  it('keeps the laid-out text inside the fitted bubble for any text, style, size and wobble (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          words.map((w) => ({ text: w.join(' '), vertical: false })),
          kana.map((t) => ({ text: t, vertical: true })),
          kana.map((t) => ({ text: t, vertical: false })),
        ),
        fc.constantFrom(...SPEECH_BUBBLES.map((b) => b.id)),
        fc.integer({ min: 8, max: 90 }),
        fc.record({
          wobbleAmplitude: fc.double({ min: 0, max: 0.4, noNaN: true }),
          wobbleFrequency: fc.integer({ min: 0, max: 20 }),
          wobblePhase: fc.double({ min: 0, max: 360, noNaN: true }),
        }),
        ({ text, vertical }, style, fontSize, wobble) => {
          const data: TextData = { ...newBubbleData({ text, vertical, bubbleStyle: style, fontSize }), ...wobble };
          const fit = fitBubble(data, fakeMeasure);
          const outline = bubbleOutline(style, fit.width, fit.height, {
            amplitude: wobble.wobbleAmplitude,
            frequency: wobble.wobbleFrequency,
            phase: wobble.wobblePhase,
          });
          expect(within(fit.textBox, outline.textArea)).toBe(true);
          for (const c of corners(fit.textBox)) expect(pointInOutline(c, outline.points)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('fitBubble proportions', () => {
  it('keeps round procedural bubbles from turning into needles, but leaves drawn captions flat', () => {
    for (const style of ['b0', 'b12', 'b17', 'b32', 'b35']) {
      const fit = fitBubble(newBubbleData({ text: 'WHAT?! No way!', bubbleStyle: style }), fakeMeasure);
      expect(fit.height / fit.width, style).toBeGreaterThanOrEqual(MIN_ROUND_ASPECT - 1e-9);
      expect(fit.paddings.top).toBeCloseTo(fit.paddings.bottom, 6);
    }
    const caption = fitBubble(newBubbleData({ text: 'Meanwhile, far', bubbleStyle: 'b7' }), fakeMeasure);
    expect(caption.height / caption.width).toBeLessThan(MIN_ROUND_ASPECT);
  });
});

describe('caption and narration styles', () => {
  it('have no tail by default; speech styles have one', () => {
    for (const style of ['b7', 'b16', 'b23', 'b27', 'b38'])
      expect(newBubbleData({ bubbleStyle: style }).hasTail).toBe(false);
    for (const style of ['b0', 'b1', 'b9', 'b29']) expect(newBubbleData({ bubbleStyle: style }).hasTail).toBe(true);
  });

  it('turn the tail off when a bubble becomes a caption, and on again when it goes back to speech', () => {
    const speech = newBubbleData();
    expect(bubbleStylePatch(speech, 'b7')).toEqual({ bubbleStyle: 'b7', hasTail: false });
    const caption = { ...speech, bubbleStyle: 'b7', hasTail: false };
    expect(bubbleStylePatch(caption, 'b1')).toEqual({ bubbleStyle: 'b1', hasTail: true });
    // Between two speech styles (or two captions) the tail stays as the user set it.
    expect(bubbleStylePatch({ ...speech, hasTail: false }, 'b2')).toEqual({ bubbleStyle: 'b2' });
    expect(bubbleStylePatch({ ...caption, hasTail: true }, 'b38')).toEqual({ bubbleStyle: 'b38' });
  });
});

describe('fitBubble rounding', () => {
  it('never leaves a rippled box a hair narrower than its text (a counterexample the property found)', () => {
    const data = {
      ...newBubbleData({ text: 'a aaaaaaa aaaaaa aaaaaaaaa aaaaaa', bubbleStyle: 'b21', fontSize: 8 }),
      wobbleAmplitude: 0.3950770450192314,
      wobbleFrequency: 1,
    };
    const fit = fitBubble(data, fakeMeasure);
    const area = bubbleOutline('b21', fit.width, fit.height, {
      amplitude: 0.3950770450192314,
      frequency: 1,
      phase: 0,
    }).textArea;
    expect(within(fit.textBox, area)).toBe(true);
  });
});
