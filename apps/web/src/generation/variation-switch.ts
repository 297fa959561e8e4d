// Flicking through an image layer's variations (editor.md §4): refused while processing; the image is fetched
// first, and a variation that fails to load is dropped with the index clamped.
import { changeVariation, cycledIndex, dropVariation } from '@koma/editor';
import { loadImageById } from '../api/imageLoader.ts';
import type { EditorSession } from '../editor/session.ts';
import { busy, imageLayer } from './operations/context.ts';

/** Shows the next or previous variation of a layer. */
export async function switchVariation(session: EditorSession, layerId: string, step: 1 | -1): Promise<void> {
  const node = imageLayer(session, layerId);
  if (!node || node.data.variations.length < 2 || busy(session, layerId)) return;
  const index = cycledIndex(node.data.variationsIdx, node.data.variations.length, step);
  const variation = node.data.variations[index];
  if (!variation) return;
  const url = await loadImageById(variation.id);
  const now = imageLayer(session, layerId);
  if (!now || now.data.variations[index]?.id !== variation.id) return;
  if (!url) {
    session.editor.execute(dropVariation, { id: layerId, index });
    return;
  }
  session.editor.execute(changeVariation, { id: layerId, index });
}

/**
 * Whatever switches the shown variation (arrow keys, undo): the selected image's variation is fetched once, and
 * one that fails to load is dropped with the index clamped. Returns the function that stops watching.
 */
export function watchShownVariation(session: EditorSession): () => void {
  const checked = new Set<string>();
  let stopped = false;
  const check = (): void => {
    const id = session.ui.state.selection[0];
    const node = id ? imageLayer(session, id) : undefined;
    if (!node || node.data.variations.length < 2) return;
    const variation = node.data.variations[node.data.variationsIdx];
    if (!variation || checked.has(variation.id)) return;
    checked.add(variation.id);
    void loadImageById(variation.id).then((url) => {
      if (url || stopped) return;
      const now = imageLayer(session, node.id);
      const index = now?.data.variations.findIndex((v) => v.id === variation.id) ?? -1;
      if (now && index >= 0) session.editor.execute(dropVariation, { id: node.id, index });
    });
  };
  const unsubscribe = session.editor.subscribe(check);
  return () => {
    stopped = true;
    unsubscribe();
  };
}
