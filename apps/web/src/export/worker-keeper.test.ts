import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkerKeeper } from './worker-keeper.ts';

class FakeWorker {
  stopped = false;
  constructor(readonly id: number) {}
  terminate(): void {
    this.stopped = true;
  }
}

function keeper(idleMs = 1000) {
  const started: FakeWorker[] = [];
  const k = new WorkerKeeper(() => {
    const w = new FakeWorker(started.length);
    started.push(w);
    return w;
  }, idleMs);
  return { k, started };
}

describe('WorkerKeeper', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lends one worker to job after job and ends it once idle for idleMs', () => {
    const { k, started } = keeper(1000);
    const first = k.take();
    k.give(first);
    vi.advanceTimersByTime(999);
    const second = k.take();
    expect(second).toBe(first);
    // Lent, it is never ended by the timer, however long the job takes.
    vi.advanceTimersByTime(5000);
    expect(first.stopped).toBe(false);
    k.give(second);
    vi.advanceTimersByTime(999);
    expect(first.stopped).toBe(false);
    vi.advanceTimersByTime(1);
    expect(first.stopped).toBe(true);
    expect(k.holding).toBe(false);
    // The next job starts a new one.
    const third = k.take();
    expect(third).not.toBe(first);
    expect(started).toHaveLength(2);
  });

  it('gives a job that comes while the kept worker is lent a worker of its own, ended when given back', () => {
    const { k } = keeper();
    const kept = k.take();
    const other = k.take();
    expect(other).not.toBe(kept);
    k.give(other);
    expect(other.stopped).toBe(true);
    k.give(kept);
    expect(kept.stopped).toBe(false);
    expect(k.take()).toBe(kept);
  });

  it('never hands out again a worker stopped in a request, and starts a fresh one for the next job', () => {
    const { k } = keeper();
    const first = k.take();
    k.discard(first);
    expect(first.stopped).toBe(true);
    expect(k.holding).toBe(false);
    const next = k.take();
    expect(next).not.toBe(first);
    k.give(next);
    // One that fails while idle is let go too.
    k.discard(next);
    expect(next.stopped).toBe(true);
    expect(k.holding).toBe(false);
  });

  it('drops the idle worker at once (page hidden) but not one a job has', () => {
    const { k } = keeper();
    const first = k.take();
    k.drop();
    expect(first.stopped).toBe(false);
    k.give(first);
    k.drop();
    expect(first.stopped).toBe(true);
    expect(k.take()).not.toBe(first);
  });
});
