/** What the keeper needs of a worker. */
export interface Stoppable {
  terminate(): void;
}

/**
 * Keeps one worker alive between jobs, so that a job after the first finds it started and holding what it kept (the
 * export worker's PixelPool: the buffers of the last page it wrote). It is lent to one job at a time; a job that
 * comes while it is lent gets a worker of its own, ended when that job gives it back. Idle for `idleMs`, the kept
 * worker is ended, and with it everything it held.
 */
export class WorkerKeeper<W extends Stoppable> {
  /** The kept worker while no job has it. */
  private idle: W | null = null;
  /** The kept worker while a job has it. */
  private lent: W | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly start: () => W,
    readonly idleMs: number,
  ) {}

  /** The kept worker if no job has it (started if there is none), else a new worker for this job alone. */
  take(): W {
    this.stopTimer();
    if (this.idle) {
      this.lent = this.idle;
      this.idle = null;
      return this.lent;
    }
    const worker = this.start();
    if (!this.lent) this.lent = worker;
    return worker;
  }

  /** A job is done with a worker that is still sound: the kept one waits for the next job, any other ends. */
  give(worker: W): void {
    if (worker !== this.lent) {
      worker.terminate();
      return;
    }
    this.lent = null;
    this.idle = worker;
    this.stopTimer();
    this.timer = setTimeout(() => this.drop(), this.idleMs);
  }

  /**
   * A worker that was stopped in the middle of a request (cancelled) or that failed: ended, and never handed out
   * again, since whatever it was doing may have left it half done.
   */
  discard(worker: W): void {
    worker.terminate();
    if (worker === this.lent) this.lent = null;
    if (worker === this.idle) this.drop();
  }

  /** Ends the kept worker now if no job has it (idle for too long, or the page is hidden or going away). */
  drop(): void {
    this.stopTimer();
    this.idle?.terminate();
    this.idle = null;
  }

  /** Whether a worker is kept, idle or lent (for tests). */
  get holding(): boolean {
    return this.idle !== null || this.lent !== null;
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
