import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePageRange } from '../../src/export/page-range.ts';

describe('parsePageRange', () => {
  it('takes every page when empty', () => {
    expect(parsePageRange('', 4)).toEqual({ pages: [0, 1, 2, 3] });
    expect(parsePageRange('  , ', 3)).toEqual({ pages: [0, 1, 2] });
  });

  it('reads single pages, ranges, open ends and en dashes, in reading order, each once', () => {
    expect(parsePageRange('1-3, 5, 8-', 10)).toEqual({ pages: [0, 1, 2, 4, 7, 8, 9] });
    expect(parsePageRange('-2', 5)).toEqual({ pages: [0, 1] });
    expect(parsePageRange('4, 2–3, 3', 5)).toEqual({ pages: [1, 2, 3] });
    expect(parsePageRange(' 7 ', 7)).toEqual({ pages: [6] });
  });

  it('refuses what is not a range of this chapter, saying which item', () => {
    expect(parsePageRange('1, two', 5)).toEqual({ error: { code: 'notRange', item: 'two' } });
    expect(parsePageRange('1-2-3', 5)).toEqual({ error: { code: 'notRange', item: '1-2-3' } });
    expect(parsePageRange('-', 5)).toEqual({ error: { code: 'notRange', item: '-' } });
    expect(parsePageRange('0-2', 5)).toEqual({ error: { code: 'beforeFirst', item: '0-2' } });
    expect(parsePageRange('4-2', 5)).toEqual({ error: { code: 'backwards', item: '4-2' } });
    expect(parsePageRange('3, 9', 8)).toEqual({ error: { code: 'pastLast', page: 9, last: 8 } });
  });

  it('gives sorted, distinct, in-range pages for any list of valid items', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }).chain((count) =>
          fc.tuple(
            fc.constant(count),
            fc.array(
              fc.tuple(fc.integer({ min: 1, max: count }), fc.integer({ min: 0, max: 5 })).map(([a, n]) => {
                const b = Math.min(count, a + n);
                return n === 0 ? String(a) : `${a}-${b}`;
              }),
              { minLength: 1, maxLength: 8 },
            ),
          ),
        ),
        ([count, items]) => {
          const result = parsePageRange(items.join(','), count);
          expect(result.error).toBeUndefined();
          const pages = 'pages' in result ? result.pages : [];
          expect([...new Set(pages)].sort((a, b) => a - b)).toEqual(pages);
          for (const item of items) {
            const [a, b] = item.split('-').map(Number);
            for (let p = a!; p <= (b ?? a!); p++) expect(pages).toContain(p - 1);
          }
          expect(pages.every((p) => p >= 0 && p < count)).toBe(true);
        },
      ),
    );
  });
});
