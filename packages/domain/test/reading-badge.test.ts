import { describe, expect, it } from 'vitest';
import { readingBadgeAt } from '../src/index.ts';

describe('reading-order badge', () => {
  const rect = [
    { x: 100, y: 100 },
    { x: 900, y: 100 },
    { x: 900, y: 600 },
    { x: 100, y: 600 },
  ];

  it('sits at the top-left corner left to right and the top-right corner right to left, inset on both edges', () => {
    expect(readingBadgeAt(rect, 'LEFT_TO_RIGHT', 56)).toEqual({ x: 156, y: 156 });
    expect(readingBadgeAt(rect, 'RIGHT_TO_LEFT', 56)).toEqual({ x: 844, y: 156 });
  });

  it('stays inside a slanted panel, away from the bounding-box corner that lies in the neighbour', () => {
    // The left edge leans: the bounding box's top-left (100, 100) is outside this panel.
    const slanted = [
      { x: 300, y: 100 },
      { x: 900, y: 100 },
      { x: 900, y: 600 },
      { x: 100, y: 600 },
    ];
    const p = readingBadgeAt(slanted, 'LEFT_TO_RIGHT', 56);
    expect(p.y).toBeCloseTo(100 + 56 * Math.sin(Math.atan2(500, 200)), 5);
    // Right of the leaning edge at that height, near the top-left vertex.
    const edgeX = 300 - ((p.y - 100) * 200) / 500;
    expect(p.x).toBeGreaterThan(edgeX);
    expect(p.x).toBeLessThan(420);
  });

  it('falls back to the middle of a panel too small for the inset', () => {
    const tiny = [
      { x: 0, y: 0 },
      { x: 40, y: 0 },
      { x: 40, y: 20 },
      { x: 0, y: 20 },
    ];
    expect(readingBadgeAt(tiny, 'LEFT_TO_RIGHT', 56)).toEqual({ x: 20, y: 10 });
  });
});
