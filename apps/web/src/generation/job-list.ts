// The jobs of this page, for the queue panel: every job submitted or followed here, with its state as the stream
// tells it, its cost, why it failed, and how to cancel or retry it. Finished jobs stay until cleared (at most 20).
import type { ProcessingState } from '@koma/editor';
import { Observable } from './observable.ts';

export type QueueStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export interface QueueEntry {
  /** Local key: a job has no id until its first event. */
  readonly key: string;
  jobId?: string;
  /** The operation kind (txt2img, upscale, …). */
  readonly kind: string;
  readonly layerId: string;
  status: QueueStatus;
  position?: number;
  progress?: number;
  previewUrl?: string;
  startedAt?: number;
  estimateMs?: number;
  /** Credits charged (the server's first event says; the quote until then). */
  cost?: number;
  /** Why it failed, refund included, in the user's language at the time it is read. */
  failure?: () => string;
  /** Submits the same request again (jobs sent from this page). */
  retry?: () => void;
}

const KEEP_FINISHED = 20;

export class JobList {
  readonly entries = new Observable<readonly QueueEntry[]>([]);
  private next = 0;

  add(entry: Omit<QueueEntry, 'key' | 'status'>): string {
    const key = `job-${++this.next}`;
    this.entries.set([...this.entries.value, { ...entry, key, status: 'IN_QUEUE' }]);
    return key;
  }

  update(key: string, change: Partial<QueueEntry>): void {
    const list = this.entries.value;
    if (!list.some((e) => e.key === key)) return;
    const updated = list.map((e) => (e.key === key ? { ...e, ...change } : e));
    const finished = updated.filter((e) => e.status === 'COMPLETED' || e.status === 'FAILED');
    const drop = new Set(finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED)).map((e) => e.key));
    this.entries.set(updated.filter((e) => !drop.has(e.key)));
  }

  /** Copies a layer's processing state (what the canvas shows) into the entry. */
  track(key: string, state: ProcessingState): void {
    this.update(key, {
      status: state.status,
      position: state.status === 'IN_QUEUE' ? state.queuePosition : undefined,
      progress: state.progress,
      previewUrl: state.previewUrl,
      startedAt: state.startedAt,
      estimateMs: state.estimateMs,
    });
  }

  /** Forgets the finished jobs. */
  clearFinished(): void {
    this.entries.set(this.entries.value.filter((e) => e.status === 'IN_QUEUE' || e.status === 'IN_PROGRESS'));
  }

  byJobId(jobId: string): QueueEntry | undefined {
    return this.entries.value.find((e) => e.jobId === jobId);
  }
}
