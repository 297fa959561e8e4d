// Every bubble style painted with a tail at three aspects by the editor's own painter on a real Canvas2D (Skia,
// through @napi-rs/canvas), then judged on its pixels: the outline must close around the bubble and its tail with
// ink at least one stroke wide everywhere (no notch, no gap, no spike poking through), the stroke must keep its
// weight whatever the aspect, and nothing may be drawn away from the outline.
import { createCanvas } from '@napi-rs/canvas';
import { SPEECH_BUBBLES, type Point, type TextData } from '@koma/domain';
import { describe, expect, it } from 'vitest';
import {
  bubbleLook,
  bubbleShape,
  distanceToOutline,
  newBubbleData,
  paintBubble,
  pointInOutline,
  type BubbleShape,
} from '../../src/text/index.ts';

const BORDER = 6;
const ASPECTS = [
  { name: 'wide', width: 260, height: 130 },
  { name: 'square', width: 180, height: 180 },
  { name: 'tall', width: 130, height: 260 },
];
const MARGIN = 110;

interface Painted {
  width: number;
  height: number;
  data: Uint8ClampedArray;
  shape: BubbleShape;
  text: TextData;
}

function paint(style: string, aspect: { width: number; height: number }, angle: number): Painted {
  const width = aspect.width + MARGIN * 2;
  const height = aspect.height + MARGIN * 2;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const text = newBubbleData({
    bubbleStyle: style,
    hasTail: true,
    tailAngle: angle,
    tailLength: 80,
    tailWidth: 18,
    backgroundBorderSize: BORDER,
    backgroundColor: '#ffffff',
    backgroundStrokeColor: '#000000',
  });
  const shape = bubbleShape(text, { x: MARGIN, y: MARGIN, width: aspect.width, height: aspect.height });
  paintBubble(ctx, text, shape);
  return { width, height, data: ctx.getImageData(0, 0, width, height).data, shape, text };
}

const alpha = (p: Painted, i: number) => p.data[i * 4 + 3]!;
const luminance = (p: Painted, i: number) => (p.data[i * 4]! + p.data[i * 4 + 1]! + p.data[i * 4 + 2]!) / 3;
const isInk = (p: Painted, i: number) => alpha(p, i) > 128 && luminance(p, i) < 80;
const isPaper = (p: Painted, i: number) => alpha(p, i) > 200 && luminance(p, i) > 220;
const isOutside = (p: Painted, i: number) => alpha(p, i) < 16;

/** City-block distance from every pixel to the nearest pixel outside the bubble (two-pass chamfer transform). */
function distanceToOutside(p: Painted): Float32Array {
  const { width: w, height: h } = p;
  const d = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) d[i] = isOutside(p, i) ? 0 : 1e9;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (x > 0) d[i] = Math.min(d[i]!, d[i - 1]! + 1);
      if (y > 0) d[i] = Math.min(d[i]!, d[i - w]! + 1);
      if (x > 0 && y > 0) d[i] = Math.min(d[i]!, d[i - w - 1]! + Math.SQRT2);
      if (x < w - 1 && y > 0) d[i] = Math.min(d[i]!, d[i - w + 1]! + Math.SQRT2);
    }
  for (let y = h - 1; y >= 0; y--)
    for (let x = w - 1; x >= 0; x--) {
      const i = y * w + x;
      if (x < w - 1) d[i] = Math.min(d[i]!, d[i + 1]! + 1);
      if (y < h - 1) d[i] = Math.min(d[i]!, d[i + w]! + 1);
      if (x < w - 1 && y < h - 1) d[i] = Math.min(d[i]!, d[i + w + 1]! + Math.SQRT2);
      if (x > 0 && y < h - 1) d[i] = Math.min(d[i]!, d[i + w - 1]! + Math.SQRT2);
    }
  return d;
}

/** Distance from a point to the drawn outline: the contour with its tail, or a thought circle's rim. */
function distanceToDrawn(shape: BubbleShape, q: Point): number {
  let best = distanceToOutline(q, shape.contour);
  for (const c of shape.tail?.circles ?? []) best = Math.min(best, Math.abs(Math.hypot(q.x - c.x, q.y - c.y) - c.r));
  return best;
}

function insideDrawn(shape: BubbleShape, q: Point): boolean {
  return (
    pointInOutline(q, shape.contour) || (shape.tail?.circles ?? []).some((c) => Math.hypot(q.x - c.x, q.y - c.y) < c.r)
  );
}

interface Findings {
  /** Paper closer to the outside than this many pixels: a notch, a gap or a spike through the outline. */
  thinnest: number;
  /** Ink inside the outline farther from it than this: a stroke thicker than the rest or a stray mark. */
  deepestInk: number;
  /** Ink outside the outline farther from it than this. */
  farthestInk: number;
  /** Places on the outline with no ink within a pixel (the tip excluded). */
  uncovered: Point[];
}

function judge(p: Painted): Findings {
  const toOutside = distanceToOutside(p);
  let thinnest = Infinity;
  let deepestInk = 0;
  let farthestInk = 0;
  for (let y = 0; y < p.height; y++)
    for (let x = 0; x < p.width; x++) {
      const i = y * p.width + x;
      if (isPaper(p, i)) thinnest = Math.min(thinnest, toOutside[i]!);
      if (!isInk(p, i)) continue;
      const q = { x: x + 0.5, y: y + 0.5 };
      const d = distanceToDrawn(p.shape, q);
      if (insideDrawn(p.shape, q)) deepestInk = Math.max(deepestInk, d);
      else farthestInk = Math.max(farthestInk, d);
    }
  const uncovered: Point[] = [];
  const tip = p.shape.tail?.kind === 'wedge' ? p.shape.tail.tip : null;
  const contour = p.shape.contour;
  for (let k = 0; k < contour.length; k++) {
    const a = contour[k]!;
    const b = contour[(k + 1) % contour.length]!;
    const steps = Math.ceil(Math.hypot(b.x - a.x, b.y - a.y));
    for (let s = 0; s < steps; s++) {
      const q = { x: a.x + ((b.x - a.x) * s) / steps, y: a.y + ((b.y - a.y) * s) / steps };
      if (tip && Math.hypot(q.x - tip.x, q.y - tip.y) < BORDER * 2) continue;
      let inked = false;
      for (let dy = -1; dy <= 1 && !inked; dy++)
        for (let dx = -1; dx <= 1 && !inked; dx++) {
          const px = Math.floor(q.x) + dx;
          const py = Math.floor(q.y) + dy;
          if (px >= 0 && py >= 0 && px < p.width && py < p.height && isInk(p, py * p.width + px)) inked = true;
        }
      if (!inked) uncovered.push(q);
    }
  }
  return { thinnest, deepestInk, farthestInk, uncovered };
}

const styles = SPEECH_BUBBLES.map((b) => b.id);

describe('bubble outlines on the raster (every style, tail, three aspects)', () => {
  for (const style of styles) {
    it(`${style}: one closed outline of even weight around bubble and tail`, () => {
      const look = bubbleLook(style);
      const stroke = BORDER * look.weight;
      for (const [k, aspect] of ASPECTS.entries()) {
        const painted = paint(style, aspect, 100 + k * 35);
        const f = judge(painted);
        const where = `${style} ${aspect.name}`;
        if (look.ring !== 'dashed') {
          // Paper never comes closer to the outside than most of a stroke width (anti-aliasing takes the rest).
          expect(f.thinnest, `${where}: paper this close to the outside`).toBeGreaterThanOrEqual(stroke * 0.7);
          expect(f.uncovered.slice(0, 3), `${where}: outline without ink`).toEqual([]);
        }
        // Inside, ink reaches the outline's half-width (or the look's inner band) and no farther.
        expect(f.deepestInk, `${where}: ink this deep inside`).toBeLessThanOrEqual(look.innerDepth * BORDER + 1.5);
        // Outside, only half the stroke (flash lines, drawn on purpose, excepted).
        if (!look.flash) {
          expect(f.farthestInk, `${where}: ink this far outside`).toBeLessThanOrEqual(stroke / 2 + 1.5);
        }
      }
    });
  }
});

describe('bubble looks', () => {
  it('b10: the drop shadow follows the tail too', () => {
    const painted = paint('b10', ASPECTS[1]!, 90);
    const tail = painted.shape.tail!;
    const offset = bubbleLook('b10').shadow * ASPECTS[1]!.height;
    // Just beside the tip, down-right by the shadow's offset: the shadow's grey, not the page.
    const at = { x: Math.round(tail.tip.x + offset), y: Math.round(tail.tip.y + offset - BORDER) };
    const i = at.y * painted.width + at.x;
    expect(alpha(painted, i), 'shadow under the tail').toBeGreaterThan(200);
    expect(luminance(painted, i)).toBeGreaterThan(80);
    expect(luminance(painted, i)).toBeLessThan(200);
  });

  it('thought styles draw the tail as circles only, and nothing when the tail is off', () => {
    for (const style of ['b3', 'b30', 'b35']) {
      const painted = paint(style, ASPECTS[0]!, 120);
      expect(painted.shape.tail?.kind).toBe('circles');
      const off = newBubbleData({ bubbleStyle: style, hasTail: false, backgroundBorderSize: BORDER });
      const canvas = createCanvas(300, 300);
      const ctx = canvas.getContext('2d');
      const shape = bubbleShape(off, { x: 40, y: 40, width: 220, height: 130 });
      paintBubble(ctx, off, shape);
      const pixels = ctx.getImageData(0, 0, 300, 300).data;
      // Below the body (where the catalogue's own circles of b3 and b30 sit) nothing is drawn.
      let drawn = 0;
      for (let y = 185; y < 300; y++) for (let x = 0; x < 300; x++) if (pixels[(y * 300 + x) * 4 + 3]! > 16) drawn++;
      expect(drawn, style).toBe(0);
    }
  });
});
