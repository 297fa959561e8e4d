import { describe, expect, it } from 'vitest';
import { PROCESSING_ESTIMATE_MS } from '@koma/domain';
import type { ProcessingState } from '@koma/editor';
import { progressFromLogs, progressOfEvent, progressOfLine } from '../../src/generation/progress.ts';
import { JobTracker, estimateMs, regenerationSeed } from '../../src/generation/processing.ts';

describe('progressOfLine', () => {
  it('reads "Progress:" lines as steps, percents or fractions', () => {
    expect(progressOfLine('Progress: 9/20')).toBeCloseTo(0.45);
    expect(progressOfLine('Progress: 45%')).toBeCloseTo(0.45);
    expect(progressOfLine('progress: 0.25')).toBeCloseTo(0.25);
    expect(progressOfLine('Progress: 60')).toBeCloseTo(0.6);
  });

  it('reads a percent with step counts, preferring the counts', () => {
    expect(progressOfLine(' 45%|████      | 9/20 [00:03<00:04,  2.9it/s]')).toBeCloseTo(0.45);
    expect(progressOfLine('100%|██████████| 20/20')).toBe(1);
    expect(progressOfLine('50%|█████| 3/4')).toBeCloseTo(0.75);
  });

  it('ignores lines that state no progress', () => {
    expect(progressOfLine('Loading model')).toBeUndefined();
    expect(progressOfLine('45% done')).toBeUndefined();
    expect(progressOfLine('step 3 of 20')).toBeUndefined();
  });
});

describe('progressFromLogs and progressOfEvent', () => {
  it('takes the newest line that states progress', () => {
    expect(progressFromLogs(['Progress: 2/20', 'Progress: 5/20', 'saving'])).toBeCloseTo(0.25);
    expect(progressFromLogs('Progress: 1/4\nProgress: 3/4\n')).toBeCloseTo(0.75);
    expect(progressFromLogs(['Started'])).toBeUndefined();
  });

  it('prefers the explicit progress field and clamps it', () => {
    expect(progressOfEvent({ progress: 0.3, logs: ['Progress: 9/10'] })).toBeCloseTo(0.3);
    expect(progressOfEvent({ progress: 1.7 })).toBe(1);
    expect(progressOfEvent({ logs: ['Progress: 9/10'] })).toBeCloseTo(0.9);
  });
});

describe('JobTracker', () => {
  it('shows the queue position, then starts once with the estimate and refreshes credits on the switch', () => {
    const states: ProcessingState[] = [];
    let started = 0;
    const tracker = new JobTracker(
      { set: (s) => states.push(s), started: () => started++, now: () => 1000 },
      estimateMs(),
    );
    tracker.handle({ status: 'IN_QUEUE', queue_position: 3 });
    tracker.handle({ status: 'IN_QUEUE', queue_position: 1 });
    expect(states.at(-1)).toEqual({ status: 'IN_QUEUE', queuePosition: 1 });
    expect(started).toBe(0);
    tracker.handle({ status: 'IN_PROGRESS', logs: ['Started'], progress: 0 });
    tracker.handle({ status: 'IN_PROGRESS', logs: ['Progress: 10/20'], preview: 'data:image/jpeg;base64,AA' });
    tracker.handle({ status: 'IN_PROGRESS', logs: ['Progress: 4/20'] }); // never goes backwards
    expect(started).toBe(1);
    expect(states.at(-1)).toEqual({
      status: 'IN_PROGRESS',
      startedAt: 1000,
      estimateMs: PROCESSING_ESTIMATE_MS,
      progress: 0.5,
      previewUrl: 'data:image/jpeg;base64,AA',
    });
    tracker.handle({ status: 'IN_QUEUE', queue_position: 5 }); // stale queue event after start is ignored
    expect(states.at(-1)?.status).toBe('IN_PROGRESS');
    tracker.handle({ status: 'COMPLETED', output: {} });
    expect(states.at(-1)?.status).toBe('COMPLETED');
    expect(states.at(-1)?.progress).toBe(1);
  });

  it('estimates 3,000 ms per generated image and 10,000 ms otherwise', () => {
    expect(estimateMs(4)).toBe(12_000);
    expect(estimateMs(1)).toBe(3_000);
    expect(estimateMs()).toBe(10_000);
  });
});

describe('regenerationSeed', () => {
  it('adds the count of existing variations to the seed', () => {
    expect(regenerationSeed(1234, 0)).toBe(1234);
    expect(regenerationSeed(1234, 3)).toBe(1237);
  });

  it('keeps a random seed random', () => {
    expect(regenerationSeed(-1, 5)).toBe(-1);
  });

  it('wraps inside the seed range', () => {
    expect(regenerationSeed(2_147_483_646, 1)).toBe(0);
    expect(regenerationSeed(2_147_483_645, 3)).toBe(1);
  });
});
