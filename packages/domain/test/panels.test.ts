import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  LAYOUT_PRESETS,
  COMIC_PAGE_HEIGHT,
  COMIC_PAGE_WIDTH,
  RANDOM_LAYOUT,
  boundsOf,
  computeNeighbors,
  isConvexClockwise,
  layoutPreset,
  moveVertices,
  randomLayout,
  readingOrder,
  rectVertices,
  splitPanel,
  type PanelShape,
  type Rect,
} from '../src/index.ts';

const page = { width: COMIC_PAGE_WIDTH, height: COMIC_PAGE_HEIGHT };

function shapes(rects: Record<string, Rect>, gap = 15): Map<string, PanelShape> {
  const list = Object.entries(rects).map(([id, r]) => ({ id, vertices: rectVertices(r) }));
  const neighbors = computeNeighbors(list, gap + 1);
  return new Map(
    list.map((p) => [p.id, { ...p, neighborPanels: neighbors.get(p.id)!, locked: false, ignoreNeighbors: false }]),
  );
}

// a b
// c d   (a 2×2 grid with 15 px gutters)
const grid = () =>
  shapes({
    a: { x: 100, y: 100, width: 500, height: 500 },
    b: { x: 615, y: 100, width: 500, height: 500 },
    c: { x: 100, y: 615, width: 500, height: 500 },
    d: { x: 615, y: 615, width: 500, height: 500 },
  });

describe('reading order', () => {
  it('reads a grid row by row, left to right or right to left', () => {
    expect(readingOrder([...grid().values()], 'LEFT_TO_RIGHT')).toEqual(['a', 'b', 'c', 'd']);
    expect(readingOrder([...grid().values()], 'RIGHT_TO_LEFT')).toEqual(['b', 'a', 'd', 'c']);
  });

  it('reads a tall panel before the stack beside it', () => {
    const s = shapes({
      tall: { x: 100, y: 100, width: 400, height: 1015 },
      top: { x: 515, y: 100, width: 400, height: 500 },
      bottom: { x: 515, y: 615, width: 400, height: 500 },
    });
    expect(readingOrder([...s.values()], 'LEFT_TO_RIGHT')).toEqual(['tall', 'top', 'bottom']);
    // Right to left the stack is on the starting side: it is read top to bottom before the tall panel it borders.
    expect(readingOrder([...s.values()], 'RIGHT_TO_LEFT')).toEqual(['top', 'bottom', 'tall']);
  });
});

describe('computeNeighbors', () => {
  it('links facing panels symmetrically and ignores panels that only share a corner', () => {
    const s = grid();
    expect(s.get('a')!.neighborPanels).toEqual({ left: [], right: ['b'], top: [], bottom: ['c'] });
    expect(s.get('d')!.neighborPanels).toEqual({ left: ['c'], right: [], top: ['b'], bottom: [] });
  });
});

describe('splitPanel', () => {
  it('cuts horizontally with an exact 15 px gap and hands the bottom neighbours to the clone', () => {
    const s = grid();
    const result = splitPanel(s.get('a')!, 'e', 'horizontal', 0.5, s);
    expect(result.original[3]!.y).toBe(342.5);
    expect(result.clone[0]!.y).toBe(357.5);
    expect(result.clone[0]!.y - result.original[3]!.y).toBe(15);
    expect(result.neighbors.get('a')).toEqual({ left: [], right: ['b'], top: [], bottom: ['e'] });
    expect(result.neighbors.get('e')).toEqual({ left: [], right: ['b'], top: ['a'], bottom: ['c'] });
    expect(result.neighbors.get('c')!.top).toEqual(['e']);
    expect(result.neighbors.get('b')!.left).toEqual(['a', 'e']);
  });

  it('cuts vertically and keeps the neighbour lists symmetric', () => {
    const s = grid();
    const result = splitPanel(s.get('c')!, 'f', 'vertical', 0.25, s);
    expect(result.clone[0]!.x - result.original[1]!.x).toBeCloseTo(15, 9);
    expect(result.neighbors.get('c')).toEqual({ left: [], right: ['f'], top: ['a'], bottom: [] });
    expect(result.neighbors.get('f')).toEqual({ left: ['c'], right: ['d'], top: ['a'], bottom: [] });
    expect(result.neighbors.get('a')!.bottom).toEqual(['c', 'f']);
    expect(result.neighbors.get('d')!.left).toEqual(['f']);
  });

  it('refuses a cut that leaves a sliver', () => {
    const s = grid();
    expect(() => splitPanel(s.get('a')!, 'x', 'horizontal', 0.01, s)).toThrow(/at least/);
    expect(() => splitPanel(s.get('a')!, 'x', 'vertical', 1, s)).toThrow(/inside/);
  });
});

describe('moveVertices', () => {
  it('drags the facing vertices of neighbours so the gutter keeps its width', () => {
    const s = grid();
    // Drag a's bottom-right corner right and down: b's bottom-left and c's top-right follow; d shares no edge with it.
    const out = moveVertices([{ panelId: 'a', index: 2 }], { x: 20, y: 30 }, s, page);
    expect(out.get('a')![2]).toEqual({ x: 620, y: 630 });
    expect(out.get('b')![3]).toEqual({ x: 635, y: 630 });
    expect(out.get('c')![1]).toEqual({ x: 620, y: 645 });
    expect(out.has('d')).toBe(false);
  });

  it('leaves neighbours alone when the panel ignores them, and refuses a locked panel', () => {
    const s = grid();
    s.get('a')!.ignoreNeighbors = true;
    const out = moveVertices([{ panelId: 'a', index: 1 }], { x: -50, y: 0 }, s, page);
    expect([...out.keys()]).toEqual(['a']);
    s.get('b')!.locked = true;
    expect(() => moveVertices([{ panelId: 'b', index: 0 }], { x: 5, y: 0 }, s, page)).toThrow('locked');
  });

  it('clamps to the page and refuses to fold a panel', () => {
    const s = grid();
    const out = moveVertices([{ panelId: 'a', index: 0 }], { x: -500, y: -500 }, s, page);
    expect(out.get('a')![0]).toEqual({ x: 0, y: 0 });
    expect(() => moveVertices([{ panelId: 'a', index: 0 }], { x: 900, y: 0 }, s, page)).toThrow(/fold/);
  });
});

describe('layouts', () => {
  it('has nine presets, laid out inside the 110 px inset with symmetric neighbours, in both orders', () => {
    expect(LAYOUT_PRESETS).toHaveLength(9);
    for (const preset of LAYOUT_PRESETS) {
      for (const order of ['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT'] as const) {
        const panels = layoutPreset(preset, page, order);
        const positions = panels.map((p) => p.position).sort((a, b) => a - b);
        expect(positions).toEqual(panels.map((_, i) => i + 1));
        for (const p of panels) {
          const box = boundsOf(p.vertices);
          expect(box.x).toBeGreaterThanOrEqual(110 - 1e-9);
          expect(box.y).toBeGreaterThanOrEqual(110 - 1e-9);
          expect(box.x + box.width).toBeLessThanOrEqual(1590 + 1e-9);
          expect(box.y + box.height).toBeLessThanOrEqual(2290 + 1e-9);
          for (const id of p.neighborPanels.right)
            expect(panels[Number(id)]!.neighborPanels.left).toContain(String(p.index));
          for (const id of p.neighborPanels.bottom)
            expect(panels[Number(id)]!.neighborPanels.top).toContain(String(p.index));
        }
      }
    }
  });

  it('starts reading at the top left for left-to-right and at the top right for right-to-left', () => {
    const preset = LAYOUT_PRESETS.find((p) => p.id === 'grid-2x3')!;
    const first = (order: 'LEFT_TO_RIGHT' | 'RIGHT_TO_LEFT') =>
      boundsOf(layoutPreset(preset, page, order).find((p) => p.position === 1)!.vertices);
    expect(first('LEFT_TO_RIGHT').x).toBe(110);
    expect(first('RIGHT_TO_LEFT').x + first('RIGHT_TO_LEFT').width).toBeCloseTo(1590, 9);
  });

  it('draws random layouts of 3 tiers with 1 to 2 panels each, every side at least 500, within the margin', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 0.999999, noNaN: true }), { minLength: 20, maxLength: 20 }),
        (draws) => {
          let i = 0;
          const random = () => draws[i++ % draws.length]!;
          const panels = randomLayout(page, 'LEFT_TO_RIGHT', random);
          const tiers = new Map<number, number>();
          for (const p of panels) {
            const box = boundsOf(p.vertices);
            expect(box.width).toBeGreaterThanOrEqual(RANDOM_LAYOUT.minSize);
            expect(box.height).toBeGreaterThanOrEqual(RANDOM_LAYOUT.minSize);
            expect(box.x).toBeGreaterThanOrEqual(100);
            expect(box.x + box.width).toBeLessThanOrEqual(1600 + 1e-9);
            expect(box.y + box.height).toBeLessThanOrEqual(2300 + 1e-9);
            expect(isConvexClockwise(p.vertices)).toBe(true);
            tiers.set(box.y, (tiers.get(box.y) ?? 0) + 1);
          }
          expect(tiers.size).toBe(3);
          for (const count of tiers.values()) expect(count === 1 || count === 2).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});
