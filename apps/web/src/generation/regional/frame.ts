// Which generation frame regional and sketch-map generation use right now (docs/decisions/generation.md):
// the selected panel (or the panel the selected layer is clipped to), else the chosen image size at the view centre.
import { frameAt, frameOver, type GenerationFrame, type PixelSize } from '@koma/domain';
import type { EditorSession } from '../../editor/session.ts';

export function panelOfSelection(session: EditorSession): string | null {
  const doc = session.editor.doc;
  const ids = session.ui.state.selection;
  if (ids.length !== 1) return null;
  const node = doc.layers[ids[0]!];
  if (node?.type === 'PANEL') return node.id;
  const target = node?.clipTarget ? doc.layers[node.clipTarget] : undefined;
  return target?.type === 'PANEL' ? target.id : null;
}

export function viewCentre(session: EditorSession): { x: number; y: number } {
  const v = session.view();
  return { x: (session.viewport.width / 2 - v.x) / v.zoom, y: (session.viewport.height / 2 - v.y) / v.zoom };
}

export function currentFrame(session: EditorSession, dimension: PixelSize): GenerationFrame {
  const panelId = panelOfSelection(session);
  const panel = panelId ? session.editor.doc.layers[panelId] : undefined;
  if (panel) {
    const t = panel.transform;
    return frameOver({ x: t.x, y: t.y, width: t.size.width, height: t.size.height }, dimension, panel.id);
  }
  return frameAt(viewCentre(session), dimension);
}
