import type { Patch } from 'immer';

/** One undoable step: what a named command changed, forwards and backwards. */
export interface HistoryEntry {
  name: string;
  patches: Patch[];
  inversePatches: Patch[];
}

/** Undo and redo stacks. Entries hold patches only, so memory grows with what changed, not with the document. */
export class History {
  private readonly undoStack: HistoryEntry[] = [];
  private redoStack: HistoryEntry[] = [];

  constructor(private readonly limit = 500) {}

  push(entry: HistoryEntry): void {
    this.undoStack.push(entry);
    if (this.undoStack.length > this.limit) this.undoStack.shift();
    this.redoStack = [];
  }

  takeUndo(): HistoryEntry | undefined {
    const entry = this.undoStack.pop();
    if (entry) this.redoStack.push(entry);
    return entry;
  }

  takeRedo(): HistoryEntry | undefined {
    const entry = this.redoStack.pop();
    if (entry) this.undoStack.push(entry);
    return entry;
  }

  /** Removes the newest undo entry without offering it to redo (a step that should never have happened). */
  discardUndo(): HistoryEntry | undefined {
    return this.undoStack.pop();
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }

  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }

  get undoName(): string | undefined {
    return this.undoStack.at(-1)?.name;
  }

  get redoName(): string | undefined {
    return this.redoStack.at(-1)?.name;
  }

  /**
   * After the document was replaced by another version: keeps the undo entries, newest first, whose patches touch
   * none of `changed` (the parts that version changed) nor anything a dropped newer entry touched, so every kept
   * step still applies where it was recorded. Redo is cleared. Returns how many entries were kept.
   */
  keepUntouched(changed: ReadonlySet<string>, partOf: (path: readonly (string | number)[]) => string): number {
    const blocked = new Set(changed);
    const kept: HistoryEntry[] = [];
    for (let i = this.undoStack.length - 1; i >= 0; i--) {
      const entry = this.undoStack[i]!;
      const parts = new Set([...entry.patches, ...entry.inversePatches].map((patch) => partOf(patch.path)));
      if ([...parts].some((part) => blocked.has(part))) for (const part of parts) blocked.add(part);
      else kept.push(entry);
    }
    this.undoStack.length = 0;
    this.undoStack.push(...kept.reverse());
    this.redoStack = [];
    return kept.length;
  }

  clear(): void {
    this.undoStack.length = 0;
    this.redoStack = [];
  }

  get size(): { undo: number; redo: number } {
    return { undo: this.undoStack.length, redo: this.redoStack.length };
  }
}
