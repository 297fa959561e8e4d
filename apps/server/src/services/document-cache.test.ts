import { describe, expect, it } from 'vitest';
import { DocumentCache } from './document-cache.ts';

describe('DocumentCache', () => {
  it('keys by workspace and revision', () => {
    const cache = new DocumentCache(1000);
    cache.set('w', 1, Buffer.from('one'));
    cache.set('w', 2, Buffer.from('two'));
    expect(cache.get('w', 1)?.toString()).toBe('one');
    expect(cache.get('w', 2)?.toString()).toBe('two');
    expect(cache.get('w', 3)).toBeUndefined();
    expect(cache.get('x', 1)).toBeUndefined();
  });

  it('evicts the least recently used entries to stay within its budget', () => {
    const cache = new DocumentCache(100);
    cache.set('a', 1, Buffer.alloc(20));
    cache.set('b', 1, Buffer.alloc(20));
    cache.set('c', 1, Buffer.alloc(20));
    cache.set('d', 1, Buffer.alloc(20));
    cache.get('a', 1);
    cache.set('e', 1, Buffer.alloc(25));
    expect(cache.size).toBeLessThanOrEqual(100);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBeDefined();
    expect(cache.get('e', 1)).toBeDefined();
  });

  it('does not keep documents over a quarter of the budget', () => {
    const cache = new DocumentCache(100);
    cache.set('big', 1, Buffer.alloc(26));
    expect(cache.get('big', 1)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
