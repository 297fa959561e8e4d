import { placeInPanel, placeInPanelAt, type AddImageArgs } from '@koma/editor';
import type { EditorSession } from '../session.ts';

/** Most images land at their own size, but never larger than this on their longest side. */
export const IMPORT_MAX_SIDE = 1024;
/** Each further image of one import lands this much lower and to the right, so none hides another. */
export const IMPORT_CASCADE = 20;

/** Where and how an imported picture is added: the part of addImage's arguments that placement decides. */
export type ImportPlacement = Pick<AddImageArgs, 'parentId' | 'transform' | 'clipTo' | 'locked'>;

/**
 * Where an imported image lands (upload, paste and drop all come here). Over a panel — the one under `at` (the drop
 * point, or the pointer for a paste), else the selected panel, else the one mid-view — it covers that panel and is
 * clipped to it (packages/editor panel-art.ts). Otherwise, or with `natural` (Alt held), it is centred on the point
 * at its own size up to 1024 px on its longest side, the `index`-th image of one import 20 px further down and right.
 */
export function placeImportedImage(
  session: EditorSession,
  size: { width: number; height: number },
  at: { x: number; y: number } | null,
  index: number,
  natural = false,
): ImportPlacement {
  const centre = at ?? viewCentre(session);
  if (!natural) {
    const doc = session.editor.doc;
    const selectedPanel = at ? undefined : selectedPanelId(session);
    const inPanel = selectedPanel
      ? placeInPanel(doc, selectedPanel, size)
      : placeInPanelAt(doc, session.activeRoot(), centre, size);
    if (inPanel) return inPanel;
  }
  const scale = Math.min(1, IMPORT_MAX_SIDE / Math.max(size.width, size.height));
  const width = Math.round(size.width * scale);
  const height = Math.round(size.height * scale);
  const offset = index * IMPORT_CASCADE;
  return {
    parentId: session.activeRoot(),
    transform: { x: centre.x - width / 2 + offset, y: centre.y - height / 2 + offset, size: { width, height } },
  };
}

/** The one selected panel on the open page, if that is the selection. */
function selectedPanelId(session: EditorSession): string | undefined {
  const selection = session.ui.state.selection;
  const node = selection.length === 1 ? session.editor.doc.layers[selection[0]!] : undefined;
  return node?.type === 'PANEL' && node.parent !== null ? node.id : undefined;
}

function viewCentre(session: EditorSession): { x: number; y: number } {
  const v = session.view();
  return { x: (session.viewport.width / 2 - v.x) / v.zoom, y: (session.viewport.height / 2 - v.y) / v.zoom };
}
