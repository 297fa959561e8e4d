import { applyPatches, enablePatches, freeze, produce, produceWithPatches, type Patch } from 'immer';
import type { ViewTransform } from '@koma/domain';
import { History } from './history/history.ts';
import { changedParts, partOfPath } from './history/changed-parts.ts';
import type { Command, CommandContext } from './commands/command.ts';
import type { DocState } from './store/state.ts';

enablePatches();

export type CommandResult<R> = { ok: true; value: R } | { ok: false; error: string };

export interface EditorOptions {
  ids?: () => string;
  random?: () => number;
  historyLimit?: number;
  /** Every command and gesture is refused (a version shown read-only); the view still moves. */
  readOnly?: boolean;
}

export type EditorListener = (editor: Editor) => void;
export type ErrorListener = (message: string) => void;

/** An open drag or stroke: every update recomputes from the state at its start; commit records one history entry. */
export interface Gesture<A> {
  update(args: A): boolean;
  commit(): CommandResult<void>;
  cancel(): void;
  readonly active: boolean;
}

/**
 * The headless editor: the document store, the command runner with undo and redo, and the dirty flag. Selection,
 * view and other UI state live beside it (see EditorUi) and never enter history.
 */
export class Editor {
  private state: DocState;
  private readonly history: History;
  private readonly ctx: CommandContext;
  private readonly listeners = new Set<EditorListener>();
  private readonly errorListeners = new Set<ErrorListener>();
  private openGesture: { commit(): CommandResult<void> } | null = null;
  /** Counts document changes; a save records the count it saved so later edits keep the document dirty. */
  private changeCount = 0;
  private savedCount = 0;
  private viewChanged = false;
  private readonly readOnly: boolean;

  constructor(doc: DocState, options: EditorOptions = {}) {
    // Frozen once, deeply, up front: otherwise immer freezes each untouched subtree the first time a command
    // touches it, which shows up as latency spikes on the first edits of a large document.
    this.state = freeze(doc, true);
    this.history = new History(options.historyLimit);
    this.ctx = { ids: options.ids ?? (() => crypto.randomUUID()), random: options.random ?? Math.random };
    this.readOnly = options.readOnly ?? false;
  }

  get doc(): DocState {
    return this.state;
  }

  get dirty(): boolean {
    return this.changeCount !== this.savedCount;
  }

  /** True when something was changed that is saved but not undoable (the view). */
  get needsSave(): boolean {
    return this.dirty || this.viewChanged;
  }

  get canUndo(): boolean {
    return this.history.canUndo;
  }

  get canRedo(): boolean {
    return this.history.canRedo;
  }

  get historySize(): { undo: number; redo: number } {
    return this.history.size;
  }

  get undoName(): string | undefined {
    return this.history.undoName;
  }

  /** A token naming the current version; pass it to markSaved once that version is stored. */
  get version(): number {
    return this.changeCount;
  }

  markSaved(version: number): void {
    this.savedCount = version;
    if (version === this.changeCount) this.viewChanged = false;
    this.emit();
  }

  subscribe(listener: EditorListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onError(listener: ErrorListener): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** Runs a command as one transaction: all of it lands in the document and in history, or none of it does. */
  execute<A, R>(command: Command<A, R>, args: A): CommandResult<R> {
    this.openGesture?.commit();
    if (this.readOnly) return { ok: false, error: 'This version is read-only' };
    let value!: R;
    let next: DocState;
    let patches: Patch[];
    let inverse: Patch[];
    try {
      [next, patches, inverse] = produceWithPatches(this.state, (draft) => {
        value = command.run(draft, args, this.ctx);
      });
    } catch (error) {
      return this.fail(error);
    }
    if (patches.length > 0) {
      this.state = next;
      this.history.push({ name: command.name, patches, inversePatches: inverse });
      this.changeCount++;
      this.emit();
    }
    return { ok: true, value };
  }

  /** Starts a gesture for a command whose args describe the whole gesture so far (e.g. the total drag delta). */
  beginGesture<A>(command: Command<A, unknown>): Gesture<A> {
    this.openGesture?.commit();
    const base = this.state;
    let lastArgs: { value: A } | null = null;
    let active = true;
    const finish = () => {
      active = false;
      if (this.openGesture === handle) this.openGesture = null;
    };
    const gesture: Gesture<A> = {
      get active() {
        return active;
      },
      update: (args: A) => {
        if (!active || this.readOnly) return false;
        try {
          this.state = produce(base, (draft) => {
            command.run(draft, args, this.ctx);
          });
          lastArgs = { value: args };
          this.emit();
          return true;
        } catch (error) {
          this.fail(error);
          return false;
        }
      },
      commit: () => {
        if (!active) return { ok: true, value: undefined };
        finish();
        this.state = base;
        if (!lastArgs) return { ok: true, value: undefined };
        const result = this.execute(command, lastArgs.value);
        if (!result.ok) this.emit();
        return result.ok ? { ok: true, value: undefined } : result;
      },
      cancel: () => {
        if (!active) return;
        finish();
        this.state = base;
        this.emit();
      },
    };
    const handle = { commit: () => gesture.commit() };
    this.openGesture = handle;
    return gesture;
  }

  undo(): boolean {
    this.openGesture?.commit();
    const entry = this.history.takeUndo();
    if (!entry) return false;
    this.state = applyPatches(this.state, entry.inversePatches);
    this.changeCount++;
    this.keepLastPage();
    this.emit();
    return true;
  }

  /**
   * Undoes the last step and forgets it: redo cannot bring it back. For a step whose reason went away, such as
   * the placeholder layer of a generation that failed.
   */
  undoAndForget(): boolean {
    this.openGesture?.commit();
    const entry = this.history.discardUndo();
    if (!entry) return false;
    this.state = applyPatches(this.state, entry.inversePatches);
    this.changeCount++;
    this.keepLastPage();
    this.emit();
    return true;
  }

  redo(): boolean {
    this.openGesture?.commit();
    const entry = this.history.takeRedo();
    if (!entry) return false;
    this.state = applyPatches(this.state, entry.patches);
    this.changeCount++;
    this.keepLastPage();
    this.emit();
    return true;
  }

  /**
   * `lastPage` moves outside history (opening a page is not an edit), so undoing the page it names can leave it
   * past the end; the server would refuse such a document. It then names the last page.
   */
  private keepLastPage(): void {
    const count = this.state.pages.length;
    if (count === 0 || this.state.lastPage < count) return;
    this.state = produce(this.state, (draft) => {
      draft.lastPage = count - 1;
    });
    this.viewChanged = true;
  }

  /** Changes the saved view of the workspace or of a page; not undoable and does not make the document dirty. */
  setView(view: ViewTransform, pageUuid?: string): void {
    this.state = produce(this.state, (draft) => {
      if (pageUuid === undefined) draft.viewTransform = view;
      else {
        const page = draft.pages.find((p) => p.uuid === pageUuid);
        if (page) page.viewTransform = view;
      }
    });
    this.viewChanged = true;
    this.emit();
  }

  /**
   * Stores the page thumbnail URLs the server returned for a save. Outside history, and it does not ask for
   * another save: the URLs travel with the next one.
   */
  setPageThumbnails(urls: readonly string[]): void {
    const pages = this.state.pages;
    // An empty string means the page has no thumbnail yet.
    if (pages.every((p, i) => !urls[i] || p.thumbnailUrl === urls[i])) return;
    this.state = produce(this.state, (draft) => {
      draft.pages.forEach((page, i) => {
        const url = urls[i];
        if (url) page.thumbnailUrl = url;
      });
    });
    this.emit();
  }

  /**
   * Asks for the next autosave without an undoable edit: the document as loaded differs from what the server
   * holds (it was repaired on load), and saving it once means the repair is reported only once.
   */
  markNeedsSave(): void {
    this.viewChanged = true;
    this.emit();
  }

  /**
   * Puts another version of the document in place (a save from another tab, or a rebase onto it). History is
   * cleared: its steps were recorded against the old version, and replaying them onto the new one could rewrite
   * the other tab's work. `unsaved` keeps the document dirty (our rebased edits still have to reach the server).
   */
  replaceDocument(doc: DocState, unsaved: boolean, keepHistory = false): void {
    this.openGesture?.commit();
    // Undo steps that touch only what the new version left as it was still apply there; the rest go.
    if (keepHistory) this.history.keepUntouched(changedParts(this.state, doc), partOfPath);
    else this.history.clear();
    this.state = freeze(doc, true);
    this.changeCount++;
    if (!unsaved) {
      this.savedCount = this.changeCount;
      this.viewChanged = false;
    }
    this.emit();
  }

  /** Records which page is open; saved with the document but outside history. */
  setLastPage(index: number): void {
    if (index < 0 || index >= this.state.pages.length || index === this.state.lastPage) return;
    this.state = produce(this.state, (draft) => {
      draft.lastPage = index;
    });
    this.viewChanged = true;
    this.emit();
  }

  private fail(error: unknown): { ok: false; error: string } {
    const message = `Error executing command: ${error instanceof Error ? error.message : String(error)}`;
    for (const listener of this.errorListeners) listener(message);
    return { ok: false, error: message };
  }

  private emit(): void {
    for (const listener of this.listeners) listener(this);
  }
}
