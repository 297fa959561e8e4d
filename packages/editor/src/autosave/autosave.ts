import { AUTOSAVE_INTERVAL_MS, THUMBNAIL_EVERY_N_AUTOSAVES } from '@koma/domain';
import type { Editor } from '../editor.ts';

/** Owned timers, injected so tests control time. */
export interface Timers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export type SaveStatus = 'saved' | 'dirty' | 'saving' | 'error' | 'conflict' | 'refused';

export interface SaveRequest {
  /** Make a thumbnail with this save (the first save, then every 6th tick while the document changed). */
  withThumbnail: boolean;
}

/** The server answered that it will not store this version (a 4xx): why, in the user's words. */
export interface SaveRefusal {
  refused: string;
}

/**
 * Resolves true when stored; 'conflict' when another tab saved first and the user must choose; 'stale' when the
 * server has a newer version that the caller is fetching (saving resumes after it); a refusal when the server will
 * not take this version; throws or resolves false on a failure worth retrying (network, 5xx).
 */
export type SaveFunction = (request: SaveRequest) => Promise<boolean | 'conflict' | 'stale' | SaveRefusal>;

/**
 * Saves every 10 s while the document has unsaved changes; never runs two saves at once, and keeps the document
 * dirty when edits arrive during a save. A thumbnail goes with the first save, then on every 6th tick when the
 * document changed since the last thumbnail — even if those changes were already saved without one, so the picture
 * on the dashboard never stays behind the document.
 */
export class Autosave {
  private handle: unknown = null;
  private tick = 0;
  /** The editor version the last stored thumbnail showed; null until this session stored one. */
  private thumbnailVersion: number | null = null;
  private inFlight: Promise<void> | null = null;
  private statusValue: SaveStatus = 'saved';
  /** Why the server refused the last save, and which version it refused (not sent again until it changes). */
  private refusal: { reason: string; version: number } | null = null;
  private readonly listeners = new Set<(status: SaveStatus) => void>();

  constructor(
    private readonly editor: Editor,
    private readonly save: SaveFunction,
    private readonly timers: Timers,
    private readonly intervalMs = AUTOSAVE_INTERVAL_MS,
  ) {
    // Only undoable edits count as unsaved work for the indicator; view moves are saved quietly with the next tick.
    editor.subscribe(() => {
      if (editor.dirty && this.statusValue === 'saved') this.setStatus('dirty');
      // A refused version is never sent again as it is; an edit makes a new version worth one more try.
      if (this.statusValue === 'refused' && this.refusal && this.refusal.version !== editor.version) {
        this.refusal = null;
        this.setStatus(editor.needsSave ? 'dirty' : 'saved');
      }
    });
  }

  get status(): SaveStatus {
    return this.statusValue;
  }

  /** Why the server refused the last save (in words), while the status is 'refused'. */
  get refusedReason(): string | null {
    return this.statusValue === 'refused' ? (this.refusal?.reason ?? null) : null;
  }

  onStatus(listener: (status: SaveStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.handle !== null) return;
    this.handle = this.timers.setInterval(() => {
      this.tick++;
      const stale = this.thumbnailVersion !== null && this.thumbnailVersion !== this.editor.version;
      void this.saveNow(this.tick % THUMBNAIL_EVERY_N_AUTOSAVES === 0 && stale);
    }, this.intervalMs);
  }

  stop(): void {
    if (this.handle !== null) this.timers.clearInterval(this.handle);
    this.handle = null;
  }

  /**
   * Saves at once if anything is unsaved (also used before leaving), or when `withThumbnail` asks for a fresh
   * thumbnail of a document that changed since the last one; resolves when done.
   */
  async saveNow(withThumbnail = false): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if ((!this.editor.needsSave && !withThumbnail) || this.statusValue === 'conflict') return;
    if (this.statusValue === 'refused') return;
    const version = this.editor.version;
    const thumbnail = withThumbnail || this.thumbnailVersion === null;
    this.setStatus('saving');
    this.inFlight = (async () => {
      try {
        const result = await this.save({ withThumbnail: thumbnail });
        if (result === 'conflict') this.setStatus('conflict');
        else if (result === 'stale') this.setStatus(this.editor.needsSave ? 'dirty' : 'saved');
        else if (typeof result === 'object') {
          this.refusal = { reason: result.refused, version };
          this.setStatus('refused');
        } else if (result) {
          if (thumbnail) this.thumbnailVersion = version;
          this.editor.markSaved(version);
          this.setStatus(this.editor.dirty ? 'dirty' : 'saved');
        } else this.setStatus('error');
      } catch {
        this.setStatus('error');
      } finally {
        this.inFlight = null;
      }
    })();
    return this.inFlight;
  }

  /** After a conflict is resolved (reloaded or overwritten), saving resumes. */
  resolveConflict(): void {
    this.setStatus(this.editor.dirty ? 'dirty' : 'saved');
  }

  /** Another version was found on the server and both changed the same thing: the user must choose, now. */
  markConflict(): void {
    this.setStatus('conflict');
  }

  /** The document was replaced from elsewhere: the status follows what is left unsaved. */
  refresh(): void {
    if (this.statusValue === 'conflict' || this.statusValue === 'saving') return;
    this.refusal = null;
    this.setStatus(this.editor.dirty ? 'dirty' : 'saved');
  }

  /** Resolves when no save is running. */
  idle(): Promise<void> {
    return this.inFlight ?? Promise.resolve();
  }

  private setStatus(status: SaveStatus): void {
    if (status === this.statusValue) return;
    this.statusValue = status;
    for (const listener of this.listeners) listener(status);
  }
}
