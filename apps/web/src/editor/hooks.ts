import { useSyncExternalStore } from 'react';
import type { DocState, UiState } from '@koma/editor';
import type { EditorSession } from './session.ts';

/** The current document; components re-render when it changes. */
export function useDoc(session: EditorSession): DocState {
  return useSyncExternalStore(
    (cb) => session.editor.subscribe(cb),
    () => session.editor.doc,
  );
}

/** A slice of UI state; pick returns something stable (a field, not a new object) to avoid needless renders. */
export function useUi<T>(session: EditorSession, pick: (state: UiState) => T): T {
  return useSyncExternalStore(
    (cb) => session.ui.subscribe(cb),
    () => pick(session.ui.state),
  );
}

/** Undo/redo availability and the dirty flag, read from the editor itself. */
export function useHistoryState(session: EditorSession): { canUndo: boolean; canRedo: boolean } {
  const canUndo = useSyncExternalStore(
    (cb) => session.editor.subscribe(cb),
    () => session.editor.canUndo,
  );
  const canRedo = useSyncExternalStore(
    (cb) => session.editor.subscribe(cb),
    () => session.editor.canRedo,
  );
  return { canUndo, canRedo };
}
