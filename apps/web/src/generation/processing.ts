// Turns job events into the processing state the canvas draws (editor.md §4): in queue with its position, in
// progress with a bar, a preview and a time estimate; the switch from queue to progress refreshes the credits.
import { GENERATION_ESTIMATE_PER_IMAGE_MS, MAX_SEED, PROCESSING_ESTIMATE_MS, RANDOM_SEED } from '@koma/domain';
import type { ProcessingState } from '@koma/editor';
import { progressOfEvent } from './progress.ts';
import type { JobEvent } from './stream.ts';

/**
 * Time estimate of a job until the server sends its own: 3,000 ms per image for generations, 10,000 ms for any
 * other processing.
 */
export function estimateMs(images?: number): number {
  return images !== undefined && images > 0 ? images * GENERATION_ESTIMATE_PER_IMAGE_MS : PROCESSING_ESTIMATE_MS;
}

export interface TrackerHooks {
  /** The layer's new processing state. */
  set(state: ProcessingState): void;
  /** Called once, when the job leaves the queue (or starts without having queued). */
  started(): void;
  now(): number;
}

/** Follows one job's events for one layer. */
export class JobTracker {
  private state: ProcessingState = { status: 'IN_QUEUE' };
  private running = false;

  constructor(
    private readonly hooks: TrackerHooks,
    private readonly estimate: number = PROCESSING_ESTIMATE_MS,
  ) {}

  get current(): ProcessingState {
    return this.state;
  }

  /** Shows the layer as waiting before the first event arrives. */
  begin(): void {
    this.hooks.set(this.state);
  }

  handle(event: JobEvent): void {
    if (event.status === 'IN_QUEUE') {
      if (this.running) return; // never back to the queue once started
      this.state = {
        status: 'IN_QUEUE',
        ...(typeof event.queue_position === 'number' ? { queuePosition: event.queue_position } : {}),
      };
      this.hooks.set(this.state);
      return;
    }
    if (event.status === 'IN_PROGRESS') {
      const next: ProcessingState = { ...this.state, status: 'IN_PROGRESS' };
      delete next.queuePosition;
      if (!this.running) {
        this.running = true;
        next.startedAt = this.hooks.now();
        next.estimateMs = this.estimate;
        this.hooks.started();
      }
      // The server's estimate is learned from the engine's recent speed: it replaces the default.
      if (typeof event.estimate_ms === 'number' && event.estimate_ms > 0) next.estimateMs = event.estimate_ms;
      const progress = progressOfEvent(event);
      if (progress !== undefined) next.progress = Math.max(progress, this.state.progress ?? 0);
      if (typeof event.preview === 'string' && event.preview.startsWith('data:')) next.previewUrl = event.preview;
      this.state = next;
      this.hooks.set(next);
      return;
    }
    this.state = { ...this.state, status: event.status, ...(event.status === 'COMPLETED' ? { progress: 1 } : {}) };
    this.hooks.set(this.state);
  }
}

/**
 * The seed of a regeneration (editor.md §4): the layer's seed plus the count of variations it already has, so
 * every regeneration gives new pictures yet the layer stays reproducible. A random seed (-1) stays random; the sum
 * wraps inside 0..MAX_SEED.
 */
export function regenerationSeed(seed: number, existingVariations: number): number {
  if (seed === RANDOM_SEED || !Number.isInteger(seed) || seed < 0) return RANDOM_SEED;
  return (seed + Math.max(0, Math.trunc(existingVariations))) % (MAX_SEED + 1);
}

/**
 * Seconds left of a running job: from the estimate at first, then from the speed measured so far once a tenth of
 * the work is done (the estimate may come from another engine's day; the progress is this job's own).
 */
export function secondsLeft(
  state: Pick<ProcessingState, 'startedAt' | 'estimateMs' | 'progress'>,
  now: number,
): number | null {
  if (state.startedAt === undefined) return null;
  const elapsed = Math.max(0, now - state.startedAt);
  const p = state.progress ?? 0;
  if (p >= 0.1 && p < 1) return Math.max(0, Math.ceil((elapsed * (1 - p)) / p / 1000));
  if (state.estimateMs === undefined) return null;
  return Math.max(0, Math.ceil((state.startedAt + state.estimateMs - now) / 1000));
}
