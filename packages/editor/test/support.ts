import { createWorkspaceData, type WorkspaceType, type ReadingOrder } from '@koma/domain';
import { Editor, normalize, type DocState } from '../src/index.ts';

/** Sequential ids, so tests can name what a command created. */
export function idCounter(prefix = 'n'): () => string {
  let i = 0;
  return () => `${prefix}${i++}`;
}

/** An editor on a fresh workspace with deterministic ids and randomness. */
export function makeEditor(type: WorkspaceType = 'COMIC', order: ReadingOrder = 'LEFT_TO_RIGHT', seed = 1): Editor {
  const data = createWorkspaceData(type, idCounter('d'), order);
  let state = seed;
  const random = () => {
    // mulberry32: small and reproducible
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return new Editor(normalize(data, type), { ids: idCounter(), random });
}

export function pageRoot(editor: Editor, index = 0): string {
  return editor.doc.pages[index]!.rootId;
}

export function panelIds(doc: DocState, rootId: string): string[] {
  return doc.layers[rootId]!.children.filter((id) => doc.layers[id]!.type === 'PANEL');
}

export function ok<R>(result: { ok: true; value: R } | { ok: false; error: string }): R {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}
