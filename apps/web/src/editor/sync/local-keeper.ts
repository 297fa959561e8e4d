import { clearLocalCopy, writeLocalCopy } from './local-copy.ts';

/** Written this long after the last change: often enough to lose at most a second, rarely enough to cost nothing. */
export const LOCAL_COPY_DEBOUNCE_MS = 1000;

/**
 * Keeps the local copy of one workspace in step with its unsaved edits: written 1 s after the last change while
 * there is unsaved work, removed once a save is acknowledged. Writes and removals run in order, so a slow write
 * never lands after the removal that followed it.
 */
export class LocalCopyKeeper {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<void> = Promise.resolve();
  private active = false;

  constructor(
    private readonly workspaceId: string,
    /** The unsaved document and the revision it was made on; null when nothing is unsaved. */
    private readonly snapshot: () => { baseRevision: number; data: unknown } | null,
  ) {}

  /** Starts keeping (after the user answered the offer of an earlier copy, so that copy is not overwritten). */
  start(): void {
    this.active = true;
    this.changed();
  }

  changed(): void {
    if (!this.active) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), LOCAL_COPY_DEBOUNCE_MS);
  }

  /** Writes now if anything is unsaved (the tab is going away). */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!this.active) return this.chain;
    const snap = this.snapshot();
    if (!snap) return this.chain;
    const copy = { workspaceId: this.workspaceId, savedAt: Date.now(), ...snap };
    return this.enqueue(() => writeLocalCopy(copy));
  }

  /** Everything is on the server: the copy is no longer needed. */
  saved(): void {
    if (!this.active) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    void this.enqueue(() => clearLocalCopy(this.workspaceId));
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.active = false;
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(work, work);
    return this.chain;
  }
}
