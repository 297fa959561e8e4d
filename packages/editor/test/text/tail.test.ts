import { SPEECH_BUBBLES, type Point, type Rect, type TextData } from '@koma/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bubbleContains,
  bubbleShape,
  distanceToOutline,
  newBubbleData,
  placedOutline,
  pointInOutline,
  spliceTail,
  tailFromTip,
  tailPolygon,
} from '../../src/text/index.ts';

const box: Rect = { x: 100, y: 50, width: 400, height: 240 };
// Every style with its tail on (captions start without one).
const bubble = (over: Partial<TextData> = {}) => newBubbleData({ hasTail: true, ...over });
const styles = SPEECH_BUBBLES.map((b) => b.id);
const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

describe('tailPolygon', () => {
  it('puts both base corners on the outline for every style and any angle, width and size (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...styles),
        fc.double({ min: -360, max: 720, noNaN: true }),
        fc.double({ min: 0, max: 80, noNaN: true }),
        fc.double({ min: 40, max: 1500, noNaN: true }),
        fc.double({ min: 40, max: 1500, noNaN: true }),
        (style, angle, width, w, h) => {
          const data = bubble({ bubbleStyle: style, tailAngle: angle, tailWidth: width });
          const place = { x: -20, y: 30, width: w, height: h };
          const tail = tailPolygon(data, place)!;
          const outline = placedOutline(data, place).points;
          expect(tail).not.toBeNull();
          for (const p of [...tail.base, tail.root]) expect(distanceToOutline(p, outline)).toBeLessThan(0.5);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('meets the b0 ellipse itself within 0.5 px all around', () => {
    for (let angle = 0; angle < 360; angle += 5) {
      const tail = tailPolygon(bubble({ tailAngle: angle, tailWidth: 25 }), box)!;
      for (const p of tail.base) {
        const r = Math.hypot((p.x - 300) / 200, (p.y - 170) / 120);
        expect(Math.abs(r - 1) * 200, `angle ${angle}`).toBeLessThan(0.5);
      }
    }
  });

  it('leaves the outline along tailAngle and stops tailGap of tailLength short of the aimed-at point', () => {
    const tail = tailPolygon(bubble({ tailAngle: 90, tailLength: 100, tailGap: 0.2 }), box)!;
    expect(tail.root.x).toBeCloseTo(300, 6);
    expect(tail.root.y).toBeCloseTo(290, 6);
    expect(tail.tip.x).toBeCloseTo(300, 6);
    expect(tail.tip.y).toBeCloseTo(370, 6);
    expect(tail.length).toBe(100);
    expect(tail.polygon).toEqual([tail.base[0], tail.tip, tail.base[1]]);
    // tailWidth 10 is 10 % of the shorter side: the base is about 24 px wide on the flat bottom of the oval.
    expect(dist(tail.base[0], tail.base[1])).toBeCloseTo(24, 0);
    const right = tailPolygon(bubble({ tailAngle: 0, tailLength: 50, tailGap: 0 }), box)!;
    expect(right.root.x).toBeCloseTo(500, 6);
    expect(right.tip.x).toBeCloseTo(550, 6);
  });

  it('points at the face when pinned, and ignores the face when not', () => {
    const face = { x: 700, y: 600 };
    const pinned = tailPolygon(bubble({ pinToFace: true, tailGap: 0.25 }), box, face)!;
    const centre = { x: 300, y: 170 };
    const angle = (Math.atan2(face.y - centre.y, face.x - centre.x) * 180) / Math.PI;
    expect(pinned.angle).toBeCloseTo(angle, 9);
    expect(pinned.length).toBeCloseTo(dist(pinned.root, face), 9);
    expect(dist(pinned.tip, pinned.root)).toBeCloseTo(pinned.length * 0.75, 9);
    // The tip lies on the way to the face.
    expect(dist(pinned.root, pinned.tip) + dist(pinned.tip, face)).toBeCloseTo(dist(pinned.root, face), 9);
    expect(tailPolygon(bubble({ pinToFace: false, tailAngle: 90 }), box, face)!.angle).toBe(90);
  });

  it('has no tail when switched off, on other backgrounds, or when the face is inside the bubble', () => {
    expect(tailPolygon(bubble({ hasTail: false }), box)).toBeNull();
    expect(tailPolygon(bubble({ backgroundType: 'RECTANGLE' }), box)).toBeNull();
    expect(tailPolygon(bubble({ pinToFace: true }), box, { x: 300, y: 170 })).toBeNull();
  });

  it('trails three shrinking circles outside a thought bubble', () => {
    for (const style of ['b3', 'b30', 'b35']) {
      const data = bubble({ bubbleStyle: style, tailAngle: 120, tailLength: 150, tailGap: 0 });
      const tail = tailPolygon(data, box)!;
      const outline = placedOutline(data, box).points;
      expect(tail.kind).toBe('circles');
      expect(tail.polygon).toEqual([]);
      expect(tail.circles).toHaveLength(3);
      const [a, b, c] = tail.circles;
      expect(a!.r).toBeGreaterThan(b!.r);
      expect(b!.r).toBeGreaterThan(c!.r);
      for (const circle of tail.circles) {
        expect(pointInOutline(circle, outline)).toBe(false);
        expect(dist(circle, tail.root)).toBeLessThanOrEqual(150 + 1e-9);
      }
    }
  });
});

describe('spliceTail and bubbleShape', () => {
  it('joins the tail into one closed contour that holds the outline and the tip (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('b0', 'b12', 'b17', 'b21', 'b32', 'b1', 'b4', 'b7', 'b38'),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (style, angle) => {
          const shape = bubbleShape(bubble({ bubbleStyle: style, tailAngle: angle, tailWidth: 15 }), box);
          const tail = shape.tail!;
          expect(shape.contour).toContain(tail.tip);
          expect(shape.contour).toContain(tail.base[0]);
          expect(shape.contour).toContain(tail.base[1]);
          // Only outline corners under the base are replaced: nothing farther from the root than the base corners.
          const reach = Math.max(dist(tail.base[0], tail.root), dist(tail.base[1], tail.root));
          for (const p of shape.outline.points) {
            if (dist(p, tail.root) > reach + 1e-9) expect(shape.contour).toContain(p);
          }
          // Half-way along the tail is inside the contour, and so is the bubble's centre.
          const mid = { x: (tail.root.x + tail.tip.x) / 2, y: (tail.root.y + tail.tip.y) / 2 };
          expect(pointInOutline(mid, shape.contour)).toBe(true);
          expect(pointInOutline({ x: 300, y: 170 }, shape.contour)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps the outline unchanged for a thought trail and without a tail', () => {
    const outline = placedOutline(bubble({ bubbleStyle: 'b35' }), box).points;
    const thought = bubbleShape(bubble({ bubbleStyle: 'b35' }), box);
    expect(spliceTail(outline, thought.tail!)).toEqual(outline);
    expect(bubbleShape(bubble({ hasTail: false }), box).contour).toEqual(placedOutline(bubble(), box).points);
  });

  it('shifts catalogue paths into the box', () => {
    const shape = bubbleShape(bubble({ bubbleStyle: 'b7' }), { x: 10, y: 20, width: 800, height: 167 });
    // b7 is drawn at its own 800 × 167, so its sharp caption box only moves by (10, 20).
    expect(shape.outline.paths[0]!.d).toBe('M808 22L808 185L12 185L12 22Z');
  });
});

describe('tailFromTip and bubbleContains', () => {
  it('turns a dragged tip into the angle and length that draw the tip there', () => {
    const data = bubble({ tailGap: 0.2 });
    const tip = { x: 520, y: 420 };
    const { tailAngle, tailLength } = tailFromTip(data, box, tip)!;
    const tail = tailPolygon({ ...data, tailAngle, tailLength }, box)!;
    expect(tail.tip.x).toBeCloseTo(tip.x, 6);
    expect(tail.tip.y).toBeCloseTo(tip.y, 6);
    expect(tailFromTip(data, box, { x: 300, y: 170 })).toBeNull();
  });

  it('hits the body, the tail and thought circles, and misses outside', () => {
    const speech = bubbleShape(bubble({ tailAngle: 90, tailLength: 100, tailGap: 0 }), box);
    expect(bubbleContains(speech, { x: 300, y: 170 })).toBe(true);
    expect(bubbleContains(speech, { x: 300, y: 380 })).toBe(true);
    expect(bubbleContains(speech, { x: 120, y: 60 })).toBe(false);
    const thought = bubbleShape(bubble({ bubbleStyle: 'b35', tailAngle: 90, tailLength: 150, tailGap: 0 }), box);
    const circle = thought.tail!.circles[0]!;
    expect(bubbleContains(thought, circle)).toBe(true);
    expect(bubbleContains(thought, { x: circle.x + circle.r + 30, y: circle.y })).toBe(false);
  });
});

describe('tail base width on jagged outlines', () => {
  // A zig-zag or needle outline is much longer than the straight line across it: measured along the outline the
  // base collapsed to a sliver (b13 and b37 at a corner drew a line instead of a wedge).
  it('the base corners stand tailWidth apart (as the crow flies) on every style, aspect and angle', () => {
    const aspects: Rect[] = [
      { x: 0, y: 0, width: 260, height: 130 },
      { x: 0, y: 0, width: 180, height: 180 },
      { x: 0, y: 0, width: 130, height: 260 },
    ];
    for (const style of styles) {
      for (const b of aspects) {
        for (let angle = 0; angle < 360; angle += 15) {
          const data = bubble({ bubbleStyle: style, tailAngle: angle, tailWidth: 18 });
          const tail = tailPolygon(data, b);
          if (!tail || tail.kind !== 'wedge') continue;
          const wanted = 0.18 * Math.min(b.width, b.height);
          expect(dist(tail.base[0], tail.base[1]), `${style} ${b.width}×${b.height} at ${angle}°`).toBeGreaterThan(
            wanted * 0.6,
          );
        }
      }
    }
  });
});
