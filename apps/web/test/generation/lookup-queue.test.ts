import { describe, expect, it } from 'vitest';
import { LookupQueue } from '../../src/generation/lookup-queue.ts';

describe('LookupQueue', () => {
  it('never runs more than its limit at once, and runs every task in order, failures included', async () => {
    const queue = new LookupQueue(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const done: Promise<void>[] = [];
    for (let i = 0; i < 7; i++) {
      done.push(
        new Promise<void>((resolve) =>
          queue.add(async () => {
            running++;
            most = Math.max(most, running);
            order.push(i);
            await new Promise((r) => setTimeout(r, 5));
            running--;
            resolve();
            if (i === 3) throw new Error('lookup failed');
          }),
        ),
      );
    }
    await Promise.all(done);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
