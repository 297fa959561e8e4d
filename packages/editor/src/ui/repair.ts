import type { Editor } from '../editor.ts';
import type { DocState } from '../store/state.ts';
import type { UiState, UiStore } from './ui-state.ts';

/** The root whose layers are shown: the open page's, or the canvas's. */
export function activeRootOf(doc: DocState, activePage: number): string {
  return doc.pages[activePage]?.rootId ?? doc.rootId;
}

function below(doc: DocState, id: string, root: string): boolean {
  for (let node = doc.layers[id]; node; node = node.parent === null ? undefined : doc.layers[node.parent]) {
    if (node.id === root) return true;
  }
  return false;
}

/**
 * What UI state must change so that everything it names exists: the open page (following its page when pages
 * moved, else the nearest), the selection, hover, the text being edited and per-layer tool state. Null when
 * nothing does. `pageUuid` is the page that was open before the document changed.
 */
export function repairUiState(ui: UiState, doc: DocState, pageUuid?: string): Partial<UiState> | null {
  const patch: Partial<UiState> = {};
  const pages = doc.pages;
  let activePage = ui.activePage;
  if (pages.length === 0) activePage = 0;
  else {
    const followed = pageUuid === undefined ? -1 : pages.findIndex((p) => p.uuid === pageUuid);
    if (followed >= 0) activePage = followed;
    else activePage = Math.min(Math.max(0, Math.trunc(activePage) || 0), pages.length - 1);
  }
  if (activePage !== ui.activePage) patch.activePage = activePage;
  const root = activeRootOf(doc, activePage);
  const selection = ui.selection.filter((id) => id !== root && doc.layers[id] && below(doc, id, root));
  if (selection.length !== ui.selection.length) patch.selection = selection;
  if (ui.hovered !== null && !doc.layers[ui.hovered]) patch.hovered = null;
  if (ui.editingTextId !== null && doc.layers[ui.editingTextId]?.type !== 'TEXT') {
    patch.editingTextId = null;
    if (ui.interaction === 'EDIT_TEXT') patch.interaction = 'NONE';
  }
  if (ui.faceMenuFor !== null && !selection.includes(ui.faceMenuFor)) patch.faceMenuFor = null;
  const stale = Object.keys(ui.toolStates).filter((id) => !doc.layers[id]);
  if (stale.length > 0) {
    const toolStates = { ...ui.toolStates };
    for (const id of stale) delete toolStates[id];
    patch.toolStates = toolStates;
  }
  return Object.keys(patch).length > 0 ? patch : null;
}

/**
 * Keeps UI state pointing at what exists after every command, undo, redo, remote change and load, and keeps the
 * saved `lastPage` on the open page. Returns the unsubscribe function.
 */
export function bindUiRepair(editor: Editor, ui: UiStore): () => void {
  let pageUuid = editor.doc.pages[ui.state.activePage]?.uuid;
  const repair = () => {
    const patch = repairUiState(ui.state, editor.doc, pageUuid);
    if (patch) ui.update(patch);
    pageUuid = editor.doc.pages[ui.state.activePage]?.uuid;
    if (editor.doc.pages.length > 0 && editor.doc.lastPage !== ui.state.activePage) {
      editor.setLastPage(ui.state.activePage);
    }
  };
  repair();
  const offDoc = editor.subscribe(repair);
  const offUi = ui.subscribe((state, prev) => {
    if (state.activePage !== prev.activePage) pageUuid = editor.doc.pages[state.activePage]?.uuid;
  });
  return () => {
    offDoc();
    offUi();
  };
}
