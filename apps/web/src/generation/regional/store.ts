// What the Regions and Sketch map sections show and draw with: not document state (it never enters history), one
// store per editor session, shared by the sections in the prompt tab and the overlay on the canvas.
import { useSyncExternalStore } from 'react';
import type { EditorSession } from '../../editor/session.ts';

/** Which section draws on the canvas: regions (boxes) or the sketch map (brush strokes); null for neither. */
export type CompositeMode = 'regions' | 'sketch' | null;

export interface CompositeUi {
  mode: CompositeMode;
  /** The chosen region and brush (indices into the document's lists). */
  region: number;
  brush: number;
  /** The sketch-map eraser: strokes clear the chosen brush instead of painting it. */
  erase: boolean;
  /** A Generate of the section was stopped: what stops it is shown (and kept up to date) until one goes through. */
  regionChecked: boolean;
  sketchChecked: boolean;
}

export class CompositeStore {
  private value: CompositeUi = {
    mode: null,
    region: 0,
    brush: 0,
    erase: false,
    regionChecked: false,
    sketchChecked: false,
  };
  private readonly listeners = new Set<() => void>();

  get state(): CompositeUi {
    return this.value;
  }

  update(patch: Partial<CompositeUi>): void {
    this.value = { ...this.value, ...patch };
    for (const l of this.listeners) l();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const stores = new WeakMap<EditorSession, CompositeStore>();

export function compositeStoreOf(session: EditorSession): CompositeStore {
  let store = stores.get(session);
  if (!store) {
    store = new CompositeStore();
    stores.set(session, store);
  }
  return store;
}

export function useComposite(session: EditorSession): [CompositeUi, CompositeStore] {
  const store = compositeStoreOf(session);
  const state = useSyncExternalStore(
    (cb) => store.subscribe(cb),
    () => store.state,
  );
  return [state, store];
}
