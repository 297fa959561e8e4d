import { describe, expect, it, vi } from 'vitest';
import {
  IMAGE_CACHE_BUDGET_BYTES,
  IMAGE_CACHE_BUDGET_PHONE_BYTES,
  ImageCache,
  imageCacheBudget,
  isPhoneScreen,
} from '../src/api/imageCache.ts';

describe('ImageCache', () => {
  it('evicts the least recently used images once the byte budget is exceeded', () => {
    const evicted: string[] = [];
    const cache = new ImageCache<string>(100, (id) => evicted.push(id));
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    expect(cache.get('a')).toBe('A'); // a is now the most recent
    cache.set('c', 'C', 40);
    expect(evicted).toEqual(['b']);
    expect(cache.has('a')).toBe(true);
    expect(cache.has('c')).toBe(true);
    expect(cache.bytesUsed).toBe(80);
  });

  it('evicts as many as needed for one large image', () => {
    const cache = new ImageCache<number>(100);
    for (let i = 0; i < 5; i++) cache.set(`s${i}`, i, 20);
    cache.set('big', 99, 90);
    expect(cache.size).toBe(1);
    expect(cache.bytesUsed).toBe(90);
  });

  it('does not keep an image larger than the whole budget, and keeps the others', () => {
    const cache = new ImageCache<number>(100);
    cache.set('a', 1, 50);
    expect(cache.set('huge', 2, 101)).toBe(false);
    expect(cache.has('huge')).toBe(false);
    expect(cache.get('a')).toBe(1);
  });

  it('replacing an id adjusts the total and releases the old value', () => {
    const onEvict = vi.fn();
    const cache = new ImageCache<string>(100, onEvict);
    cache.set('a', 'old', 60);
    cache.set('a', 'new', 30);
    expect(cache.bytesUsed).toBe(30);
    expect(onEvict).toHaveBeenCalledWith('a', 'old');
    cache.delete('a');
    expect(cache.bytesUsed).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('estimates RGBA bytes and refuses nonsense sizes', () => {
    expect(ImageCache.rgbaBytes(512, 512)).toBe(1_048_576);
    expect(() => new ImageCache(0)).toThrow(RangeError);
    expect(() => new ImageCache<number>(10).set('x', 1, -1)).toThrow(RangeError);
  });

  it('stays within budget over a random sequence of inserts and reads', () => {
    const cache = new ImageCache<number>(1000);
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 500; i++) {
      if (rand() < 0.6) cache.set(`k${Math.floor(rand() * 50)}`, i, Math.floor(rand() * 400));
      else cache.get(`k${Math.floor(rand() * 50)}`);
      expect(cache.bytesUsed).toBeLessThanOrEqual(1000);
    }
    cache.clear();
    expect(cache.bytesUsed).toBe(0);
  });
});

describe('imageCacheBudget', () => {
  it('gives the spec phone size (both sides within 480 and 896) the smaller budget', () => {
    expect(isPhoneScreen(390, 844)).toBe(true);
    expect(isPhoneScreen(896, 414)).toBe(true);
    expect(isPhoneScreen(480, 896)).toBe(true);
    expect(isPhoneScreen(481, 800)).toBe(false);
    expect(isPhoneScreen(768, 1024)).toBe(false);
    expect(imageCacheBudget(390, 844)).toBe(IMAGE_CACHE_BUDGET_PHONE_BYTES);
    expect(imageCacheBudget(1280, 800)).toBe(IMAGE_CACHE_BUDGET_BYTES);
  });
});
