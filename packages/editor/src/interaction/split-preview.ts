// The Panel tool's split preview (issue 17): where a click at the pointer would cut the panel under it, drawn as
// the two facing edges of the parts, the page's gutter apart. It goes through the same choice of panel and the
// same geometry as the click (kinds/panel.ts, commands/panels.ts `splitGeometry`), so it lands exactly there.
import type { Point } from '@koma/domain';
import type { DocState } from '../store/state.ts';
import type { UiState } from '../ui/ui-state.ts';
import { panelsUnder } from '../commands/panel-helpers.ts';
import { splitGeometry } from '../commands/panels.ts';
import { edgeAt, splitArgsAt, vertexAt } from '../kinds/panel-geometry.ts';
import { hitLayer } from './hit.ts';

export interface SplitPreview {
  panelId: string;
  direction: 'horizontal' | 'vertical';
  /** The new edge of each part: the original's (top or left part) first, then the new panel's. */
  edges: [[Point, Point], [Point, Point]];
}

/**
 * The cut a Panel-tool click at `p` would make (Shift: a vertical cut), or null where a click would not split: off
 * every panel, on a vertex or an edge (those drag), on a locked panel, or where a part would be too small.
 */
export function splitPreviewAt(
  doc: DocState,
  rootId: string,
  p: Point,
  vertical: boolean,
  zoom: number,
): SplitPreview | null {
  const panels = panelsUnder(doc, rootId).filter((n) => n.visible);
  if (vertexAt(panels, p) || edgeAt(panels, p, zoom)) return null;
  const hit = hitLayer(doc, rootId, p, (n) => n.type === 'PANEL');
  const panel = hit ? doc.layers[hit] : undefined;
  if (panel?.type !== 'PANEL' || panel.locked) return null;
  const args = splitArgsAt(panel, p, vertical);
  try {
    const { original: a, clone: b } = splitGeometry(doc, args.id, args.direction, args.at);
    // Horizontal: the top part's bottom edge (its vertices 3→2) and the bottom part's top edge (0→1); vertical:
    // the left part's right edge (1→2) and the right part's left edge (0→3).
    const edges: SplitPreview['edges'] =
      args.direction === 'horizontal'
        ? [
            [a[3]!, a[2]!],
            [b[0]!, b[1]!],
          ]
        : [
            [a[1]!, a[2]!],
            [b[0]!, b[3]!],
          ];
    return { panelId: panel.id, direction: args.direction, edges };
  } catch {
    return null;
  }
}

/**
 * The preview the Panel tool shows now: the cut a drag will make when it lifts, else the cut a click at the
 * pointer would make; null with another tool, during another gesture, or where nothing would be cut.
 */
export function currentSplitPreview(
  doc: DocState,
  rootId: string,
  ui: Pick<UiState, 'tool' | 'interaction' | 'splitCut' | 'pointer' | 'shiftHeld'>,
  zoom: number,
): SplitPreview | null {
  if (ui.tool !== 'PANEL' || ui.interaction !== 'NONE') return null;
  const at = ui.splitCut?.at ?? ui.pointer;
  if (!at) return null;
  return splitPreviewAt(doc, rootId, at, ui.splitCut ? ui.splitCut.vertical : ui.shiftHeld, zoom);
}
