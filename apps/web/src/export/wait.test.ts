import { describe, expect, it } from 'vitest';
import { EXPORT_LOAD_POLL_MS, EXPORT_LOAD_TIMEOUT_MS } from '@koma/domain';
import { waitForImages, type Clock } from './wait.ts';

/** A clock that moves only when the code under test sleeps. */
function fakeClock(): Clock & { sleeps: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: (ms) => {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

/** Images that become ready at given times (ms on the fake clock); `never` ones stay loading; `broken` ones fail. */
function images(clock: Clock, readyAt: Record<string, number>, broken: string[] = []) {
  return {
    get: (id: string) => (id in readyAt && clock.now() >= readyAt[id]! ? {} : null),
    failed: (id: string) => broken.includes(id),
  };
}

describe('waiting for images before an export', () => {
  it('polls every 500 ms until every image is ready', async () => {
    const clock = fakeClock();
    const wanted = new Map([
      ['a', ['Sky']],
      ['b', ['Hero']],
    ]);
    await waitForImages(images(clock, { a: 0, b: 1200 }), wanted, undefined, clock);
    expect(clock.sleeps).toEqual([EXPORT_LOAD_POLL_MS, EXPORT_LOAD_POLL_MS, EXPORT_LOAD_POLL_MS]);
  });

  it('gives up after 10 s and names the layers whose images did not load', async () => {
    const clock = fakeClock();
    const wanted = new Map([
      ['a', ['Sky']],
      ['slow', ['Hero', 'Hero copy']],
    ]);
    await expect(waitForImages(images(clock, { a: 0 }), wanted, undefined, clock)).rejects.toThrow(
      'These images did not load, so nothing was exported: Hero, Hero copy.',
    );
    expect(clock.now()).toBe(EXPORT_LOAD_TIMEOUT_MS);
    expect(clock.sleeps.every((ms) => ms === EXPORT_LOAD_POLL_MS)).toBe(true);
  });

  it('stops waiting at once when the only missing images have failed', async () => {
    const clock = fakeClock();
    const wanted = new Map([['gone', ['Old panel art']]]);
    await expect(waitForImages(images(clock, {}, ['gone']), wanted, undefined, clock)).rejects.toThrow(/Old panel art/);
    expect(clock.sleeps).toEqual([]);
  });
});
