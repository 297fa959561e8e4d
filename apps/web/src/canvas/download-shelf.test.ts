import { describe, expect, it } from 'vitest';
import { DownloadShelf } from './download-shelf.ts';

describe('DownloadShelf', () => {
  it('starts one download per key however many ask, and lets it go once taken', async () => {
    const shelf = new DownloadShelf<string>(4);
    let started = 0;
    const start = () => {
      started++;
      return Promise.resolve(`bytes ${started}`);
    };
    const ahead = shelf.get('a', start);
    expect(await shelf.take('a', start)).toBe('bytes 1');
    expect(await ahead).toBe('bytes 1');
    expect(started).toBe(1);
    expect(shelf.has('a')).toBe(false);
    // Taken, so a later ask downloads again.
    expect(await shelf.take('a', start)).toBe('bytes 2');
  });

  it('keeps at most its limit, the oldest let go first', () => {
    const shelf = new DownloadShelf<number>(2);
    for (const [i, key] of ['a', 'b', 'c'].entries()) void shelf.get(key, () => Promise.resolve(i));
    expect(['a', 'b', 'c'].map((key) => shelf.has(key))).toEqual([false, true, true]);
  });

  it('leaves a newer download of the key kept when an older one is taken', async () => {
    const shelf = new DownloadShelf<string>(1);
    let finish: (value: string) => void = () => undefined;
    const old = shelf.take('a', () => new Promise((resolve) => (finish = resolve)));
    // Pushed out by another key, then asked for again: a new download is kept for it.
    void shelf.get('b', () => Promise.resolve('b'));
    const again = shelf.get('a', () => Promise.resolve('a again'));
    finish('a first');
    expect(await old).toBe('a first');
    expect(shelf.has('a')).toBe(true);
    expect(await again).toBe('a again');
  });
});
