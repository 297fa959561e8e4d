import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sliceFileName, sliceStrip, stackPages, stripObstacles, type Span } from '../../src/index.ts';

const inside = (y: number, spans: readonly Span[]) => spans.some((s) => y > s.top && y < s.bottom);

describe('webtoon slices', () => {
  it('stacks pages at 800 px wide, one under the other', () => {
    expect(
      stackPages([
        { width: 1700, height: 2400 },
        { width: 1700, height: 2400 },
      ]),
    ).toEqual([
      { top: 0, height: 1129, scale: 800 / 1700 },
      { top: 1129, height: 1129, scale: 800 / 1700 },
    ]);
  });

  it('maps page obstacles into the strip, never past their page', () => {
    const stacked = stackPages([
      { width: 1600, height: 2000 },
      { width: 1600, height: 2000 },
    ]);
    expect(stripObstacles([[{ top: 100, bottom: 300 }], [{ top: -50, bottom: 2100 }]], stacked)).toEqual([
      { top: 50, bottom: 150 },
      { top: 1000, bottom: 2000 },
    ]);
  });

  it('cuts at the limit when nothing is in the way', () => {
    expect(sliceStrip(3000, 1280, [])).toEqual({
      slices: [
        { top: 0, bottom: 1280 },
        { top: 1280, bottom: 2560 },
        { top: 2560, bottom: 3000 },
      ],
      forced: 0,
    });
  });

  it('cuts in the middle of the gutter between two panels instead of through the lower one', () => {
    const panels = [
      { top: 20, bottom: 1000 },
      { top: 1030, bottom: 1980 },
    ];
    expect(sliceStrip(2000, 1280, panels)).toEqual({
      slices: [
        { top: 0, bottom: 1015 },
        { top: 1015, bottom: 2000 },
      ],
      forced: 0,
    });
  });

  it('goes through a panel taller than the limit only where it must, and counts it', () => {
    const result = sliceStrip(3000, 1280, [{ top: 0, bottom: 3000 }]);
    expect(result.forced).toBe(2);
    expect(result.slices.map((s) => s.bottom)).toEqual([1280, 2560, 3000]);
  });

  it('never leaves a gap, never exceeds the limit, and crosses content only when no gap was within reach', () => {
    const span = fc
      .tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 18 }))
      // On a coarse grid of 50 px, so that spans often touch or share an edge.
      .map(([top, h]) => [top * 50, h * 50] as const)
      .map(([top, h]) => ({ top, bottom: top + h }));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6000 }),
        fc.integer({ min: 200, max: 1500 }),
        fc.array(span, { maxLength: 12 }),
        (total, max, obstacles) => {
          const { slices, forced } = sliceStrip(total, max, obstacles);
          expect(slices[0]!.top).toBe(0);
          expect(slices.at(-1)!.bottom).toBe(total);
          let crossings = 0;
          slices.forEach((s, i) => {
            expect(s.bottom - s.top).toBeGreaterThan(0);
            expect(s.bottom - s.top).toBeLessThanOrEqual(max);
            if (i > 0) expect(s.top).toBe(slices[i - 1]!.bottom);
            if (i < slices.length - 1 && inside(s.bottom, obstacles)) {
              crossings++;
              // A forced cut: no free row between a quarter of the limit and the limit.
              for (let y = s.top + Math.floor(max / 4); y <= s.top + max; y++) expect(inside(y, obstacles)).toBe(true);
            }
          });
          expect(crossings).toBe(forced);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('may cut where two panels meet edge to edge', () => {
    const touching = [
      { top: 0, bottom: 1000 },
      { top: 1000, bottom: 2000 },
    ];
    expect(sliceStrip(2000, 1280, touching)).toEqual({
      slices: [
        { top: 0, bottom: 1000 },
        { top: 1000, bottom: 2000 },
      ],
      forced: 0,
    });
  });

  it('names slices so they sort in reading order', () => {
    expect(sliceFileName('Ch 1', 0, 9, 'jpg')).toBe('Ch 1 01.jpg');
    expect(sliceFileName('Ch 1', 99, 120, 'png')).toBe('Ch 1 100.png');
  });
});
