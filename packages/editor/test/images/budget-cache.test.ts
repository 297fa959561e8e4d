import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BudgetCache } from '../../src/images/budget-cache.ts';

describe('BudgetCache eviction order', () => {
  it('evicts least recently used first, a read counting as a use', () => {
    const evicted: string[] = [];
    const cache = new BudgetCache<string>(100, (id) => evicted.push(id));
    cache.set('a', 'A', 30);
    cache.set('b', 'B', 30);
    cache.set('c', 'C', 30);
    cache.get('a');
    cache.set('d', 'D', 30);
    cache.set('e', 'E', 30);
    expect(evicted).toEqual(['b', 'c']);
    expect(cache.bytesUsed).toBe(90);
    expect(cache.evicted).toBe(2);
  });

  it('does not count a peek as a use', () => {
    const evicted: string[] = [];
    const cache = new BudgetCache<string>(100, (id) => evicted.push(id));
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    expect(cache.peek('a')).toBe('A');
    expect(cache.peek('z')).toBeUndefined();
    cache.set('c', 'C', 40);
    expect(evicted).toEqual(['a']);
  });
});

describe('BudgetCache pins', () => {
  it('never evicts a pinned image, evicting unpinned ones around it', () => {
    const evicted: string[] = [];
    const cache = new BudgetCache<number>(100, (id) => evicted.push(id));
    cache.set('old', 1, 40);
    cache.set('x', 2, 40);
    cache.pin('view', ['old']);
    cache.set('y', 3, 40);
    expect(evicted).toEqual(['x']);
    expect(cache.has('old')).toBe(true);
  });

  it('lets pinned images alone exceed the budget, and refuses unpinned ones that do not fit beside them', () => {
    const cache = new BudgetCache<number>(100);
    cache.pin('view', ['p1', 'p2', 'p3']);
    cache.set('p1', 1, 40);
    cache.set('p2', 2, 40);
    expect(cache.set('p3', 3, 40)).toBe(true);
    expect(cache.bytesUsed).toBe(120);
    expect(cache.set('loose', 4, 10)).toBe(false);
    expect(cache.has('loose')).toBe(false);
    expect(cache.bytesUsed).toBe(120);
  });

  it('keeps a pinned image larger than the whole budget', () => {
    const cache = new BudgetCache<number>(100);
    cache.pin('export', ['huge']);
    expect(cache.set('huge', 1, 150)).toBe(true);
    expect(new BudgetCache<number>(100).set('huge', 1, 150)).toBe(false);
  });

  it('trims back to the budget when a pin is released', () => {
    const evicted: string[] = [];
    const cache = new BudgetCache<number>(100, (id) => evicted.push(id));
    cache.pin('view', ['a', 'b', 'c']);
    cache.set('a', 1, 40);
    cache.set('b', 2, 40);
    cache.set('c', 3, 40);
    cache.pin('view', ['c']);
    expect(evicted).toEqual(['a']);
    expect(cache.bytesUsed).toBe(80);
    cache.unpin('view');
    expect(cache.bytesUsed).toBe(80);
    expect(cache.pinnedBytes).toBe(0);
  });

  it('keeps each owner’s pins apart: one owner unpinning leaves the other’s images pinned', () => {
    const cache = new BudgetCache<number>(50);
    cache.pin('view', ['a']);
    cache.pin('export', ['a', 'b']);
    cache.set('a', 1, 40);
    cache.set('b', 2, 40);
    cache.unpin('export');
    expect(cache.isPinned('a')).toBe(true);
    expect(cache.isPinned('b')).toBe(false);
    expect(cache.has('b')).toBe(false);
    expect(cache.has('a')).toBe(true);
  });
});

describe('BudgetCache invariant', () => {
  const op = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), id: fc.nat(30), bytes: fc.nat(60) }),
    fc.record({ kind: fc.constant('get' as const), id: fc.nat(30) }),
    fc.record({
      kind: fc.constant('pin' as const),
      owner: fc.constantFrom('view', 'export'),
      ids: fc.array(fc.nat(30)),
    }),
    fc.record({ kind: fc.constant('delete' as const), id: fc.nat(30) }),
  );

  it('holds no more than the budget plus the pinned images, and pinned images are never evicted', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const budget = 100;
        const evictedPinned: string[] = [];
        const cache: BudgetCache<number> = new BudgetCache<number>(budget, (id) => {
          if (cache.isPinned(id)) evictedPinned.push(id);
        });
        const deleted = new Set<string>();
        for (const o of ops) {
          if (o.kind === 'set') cache.set(`k${o.id}`, o.id, o.bytes);
          else if (o.kind === 'get') cache.get(`k${o.id}`);
          else if (o.kind === 'pin')
            cache.pin(
              o.owner,
              o.ids.map((i) => `k${i}`),
            );
          else if (cache.isPinned(`k${o.id}`)) deleted.add(`k${o.id}`);
          if (o.kind === 'delete') cache.delete(`k${o.id}`);
          expect(cache.bytesUsed).toBeLessThanOrEqual(Math.max(budget, cache.pinnedBytes));
          expect(cache.bytesUsed - cache.pinnedBytes).toBeLessThanOrEqual(budget);
        }
        // Explicit deletes of pinned ids are the caller's choice; evictions of pinned ids never happen.
        expect(evictedPinned.filter((id) => !deleted.has(id))).toEqual([]);
      }),
    );
  });
});
