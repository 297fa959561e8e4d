import { SPEECH_BUBBLES, signedArea, type Point, type Rect } from '@koma/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bubbleFillColor, bubbleOutline, pointInOutline, proceduralOutline } from '../../src/text/index.ts';

const corners = (r: Rect): Point[] => [
  { x: r.x, y: r.y },
  { x: r.x + r.width, y: r.y },
  { x: r.x, y: r.y + r.height },
  { x: r.x + r.width, y: r.y + r.height },
];

describe('bubbleOutline', () => {
  it('gives every catalogue style a clockwise silhouette inside its box and a text area inside that', () => {
    for (const { id } of SPEECH_BUBBLES) {
      const o = bubbleOutline(id, 400, 250);
      expect(o.style).toBe(id);
      expect(o.points.length, id).toBeGreaterThan(3);
      expect(signedArea(o.points), id).toBeGreaterThan(0);
      for (const p of o.points) {
        expect(p.x).toBeGreaterThanOrEqual(-400 * 0.05);
        expect(p.x).toBeLessThanOrEqual(400 * 1.05);
        expect(p.y).toBeGreaterThanOrEqual(-250 * 0.05);
        expect(p.y).toBeLessThanOrEqual(250 * 1.05);
      }
      for (const c of corners(o.textArea)) expect(pointInOutline(c, o.points), `${id} ${c.x},${c.y}`).toBe(true);
    }
  });

  it('draws the procedural styles from their kind and the drawn ones from scaled paths', () => {
    expect(bubbleOutline('b0', 100, 50).kind).toBe('ellipse');
    expect(bubbleOutline('b12', 100, 50).kind).toBe('wobbly-ellipse');
    expect(bubbleOutline('b17', 100, 50).kind).toBe('burst');
    expect(bubbleOutline('b21', 100, 50).kind).toBe('rounded-rect');
    expect(bubbleOutline('b32', 100, 50).kind).toBe('cloud');
    expect(bubbleOutline('b35', 100, 50).kind).toBe('thought');
    const drawn = bubbleOutline('b9', 400, 240);
    expect(drawn.kind).toBe('catalogue');
    expect(drawn.paths.map((p) => p.fill)).toEqual(['FILL_FG', 'FILL_BG', 'FILL_FG', 'FILL_BG']);
    // b9 is 800 × 480, so every coordinate halves.
    expect(drawn.paths[0]!.d.startsWith('M399 120')).toBe(true);
  });

  it('falls back to the default oval for an unknown style', () => {
    expect(bubbleOutline('b99', 100, 50)).toMatchObject({ style: 'b0', kind: 'ellipse' });
  });

  it('puts b0 on the ellipse that fills its box', () => {
    for (const p of bubbleOutline('b0', 300, 120).points) {
      expect(((p.x - 150) / 150) ** 2 + ((p.y - 60) / 60) ** 2).toBeCloseTo(1, 9);
    }
  });

  it('keeps procedural outlines in their box and their text areas inside them, for any size and wobble (property)', () => {
    const kinds = ['ellipse', 'wobbly-ellipse', 'burst', 'rounded-rect', 'cloud', 'thought'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom('b0', 'b12', 'b17', 'b21', 'b32', 'b35'),
        fc.double({ min: 20, max: 2000, noNaN: true }),
        fc.double({ min: 20, max: 2000, noNaN: true }),
        fc.record({
          amplitude: fc.double({ min: 0, max: 1, noNaN: true }),
          frequency: fc.double({ min: 0, max: 40, noNaN: true }),
          phase: fc.double({ min: -720, max: 720, noNaN: true }),
        }),
        (style, w, h, wobble) => {
          const o = bubbleOutline(style, w, h, wobble);
          expect(kinds).toContain(o.kind);
          for (const p of o.points) {
            expect(p.x).toBeGreaterThanOrEqual(-1e-6);
            expect(p.x).toBeLessThanOrEqual(w + 1e-6);
            expect(p.y).toBeGreaterThanOrEqual(-1e-6);
            expect(p.y).toBeLessThanOrEqual(h + 1e-6);
          }
          expect(o.textArea.width).toBeGreaterThan(0);
          expect(o.textArea.height).toBeGreaterThan(0);
          for (const c of corners(o.textArea)) expect(pointInOutline(c, o.points)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('wobbles the oval only when asked, by the given amplitude', () => {
    const plain = proceduralOutline('ellipse', 200, 200);
    const wobbly = proceduralOutline('ellipse', 200, 200, { amplitude: 0.1, frequency: 6, phase: 0 });
    const radii = (pts: Point[]) => pts.map((p) => Math.hypot(p.x - 100, p.y - 100));
    expect(Math.max(...radii(plain)) - Math.min(...radii(plain))).toBeLessThan(1e-9);
    const r = radii(wobbly);
    expect(Math.max(...r)).toBeCloseTo(100, 0);
    expect(Math.min(...r)).toBeCloseTo((100 / 1.1) * 0.9, 0);
  });
});

describe('bubbleFillColor', () => {
  it('maps the slots to the layer colours, the unknown slot half-way between', () => {
    expect(bubbleFillColor('FILL_FG', '#000', '#fff')).toBe('#000');
    expect(bubbleFillColor('FILL_BG', '#000', '#fff')).toBe('#fff');
    expect(bubbleFillColor('FILL_UNKNOWN', '#000000', '#ffffff')).toBe('#808080');
    expect(bubbleFillColor('FILL_UNKNOWN', '#f00', '#00f')).toBe('#800080');
  });
});
