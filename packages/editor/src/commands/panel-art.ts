// Art into panels (issue 17): where a picture brought in over a panel lands, which panel "Clip to panel" means, and
// where the result of `v` from a pose or sketch goes. Pure: the web app only passes points and sizes in.
import type { Point, Size, Transform } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { CommandError, defineCommand } from './command.ts';
import { getLayer } from './helpers.ts';
import { clipInto } from './clip.ts';
import type { Box } from '../kinds/geometry.ts';
import { boxOf, hitLayer } from '../interaction/hit.ts';

/** The part of a polygon inside a box (Sutherland–Hodgman against each side of the box). */
function clipPolygonToBox(polygon: readonly Point[], box: Box): Point[] {
  const sides: [(p: Point) => number][] = [
    [(p) => p.x - box.x],
    [(p) => box.x + box.width - p.x],
    [(p) => p.y - box.y],
    [(p) => box.y + box.height - p.y],
  ];
  let out: Point[] = [...polygon];
  for (const [inside] of sides) {
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const a = input[i]!;
      const b = input[(i + 1) % input.length]!;
      const da = inside(a);
      const db = inside(b);
      if (da >= 0) out.push(a);
      if (da >= 0 !== db >= 0) {
        const t = da / (da - db);
        out.push({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
      }
    }
    if (out.length === 0) break;
  }
  return out;
}

function polygonArea(points: readonly Point[]): number {
  let twice = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    twice += a.x * b.y - b.x * a.y;
  }
  return Math.abs(twice) / 2;
}

/** The area of a panel's shape (not its bounding box: slanted panels) that lies inside a box. */
export function panelOverlap(panel: LayerNode<'PANEL'>, box: Box): number {
  return polygonArea(clipPolygonToBox(panel.data.vertices, box));
}

/** Visible panels of a root (groups searched), in drawing order. */
function panelsOf(doc: DocState, rootId: string): LayerNode<'PANEL'>[] {
  const out: LayerNode<'PANEL'>[] = [];
  const visit = (id: string) => {
    const node = doc.layers[id];
    if (!node?.visible) return;
    if (node.type === 'PANEL') out.push(node);
    node.children.forEach(visit);
  };
  doc.layers[rootId]?.children.forEach(visit);
  return out;
}

/** The panels a box overlaps, most overlapped first (the topmost first on a tie); none that it only touches. */
export function panelsByOverlap(doc: DocState, rootId: string, box: Box): { id: string; area: number }[] {
  return panelsOf(doc, rootId)
    .map((panel, z) => ({ id: panel.id, area: panelOverlap(panel, box), z }))
    .filter((p) => p.area > 1e-6)
    .sort((a, b) => b.area - a.area || b.z - a.z)
    .map(({ id, area }) => ({ id, area }));
}

/** The box a picture of `size` takes to cover a box, centred (its aspect kept). */
export function coverBox(box: Box, size: Size): Transform {
  const scale = Math.max(box.width / size.width, box.height / size.height);
  const cover = { width: size.width * scale, height: size.height * scale };
  return { x: box.x + (box.width - cover.width) / 2, y: box.y + (box.height - cover.height) / 2, size: cover };
}

/** Where a brought-in picture goes in a panel: in the panel's group, covering it, clipped to it. */
export interface PanelPlacement {
  parentId: string;
  transform: Transform;
  clipTo: string;
}

/**
 * A picture of `size` dropped, uploaded or pasted at `at`: over a panel it covers that panel and is clipped to it;
 * null when no panel is under the point (the caller places it as a free layer).
 */
export function placeInPanelAt(doc: DocState, rootId: string, at: Point, size: Size): PanelPlacement | null {
  const panelId = hitLayer(doc, rootId, at, (n) => n.type === 'PANEL');
  return panelId ? placeInPanel(doc, panelId, size) : null;
}

export function placeInPanel(doc: DocState, panelId: string, size: Size): PanelPlacement {
  const panel = getLayer(doc, panelId);
  if (panel.type !== 'PANEL' || panel.parent === null) throw new CommandError('Not a panel');
  return { parentId: panel.parent, transform: coverBox(boxOf(panel), size), clipTo: panel.id };
}

/** The panels "Clip to panel" offers for a layer: the one it overlaps most first. Empty for panels and groups. */
export function clipPanelChoices(doc: DocState, rootId: string, id: string): string[] {
  const node = getLayer(doc, id);
  if (node.type === 'PANEL' || node.type === 'GROUP') return [];
  return panelsByOverlap(doc, rootId, boxOf(node)).map((p) => p.id);
}

/**
 * Clips a layer to a panel. The layer moves into the panel's group, just above the panel and the art already
 * clipped to it when it was below the panel (a panel paints its own background, which would hide it), and keeps its
 * place otherwise. One undo step.
 */
export const clipToPanel = defineCommand('Clip to panel', (doc, args: { id: string; panelId: string }) => {
  const node = getLayer(doc, args.id);
  const panel = getLayer(doc, args.panelId);
  if (panel.type !== 'PANEL' || panel.parent === null) throw new CommandError('Layers can only be clipped to a panel');
  if (node.type === 'PANEL') throw new CommandError('A panel cannot be clipped');
  if (node.parent === null) throw new CommandError('The root layer cannot be clipped');
  const group = getLayer(doc, panel.parent);
  const above = () => {
    const clipped = new Set(panel.clippedLayers);
    let at = group.children.indexOf(panel.id) + 1;
    while (at < group.children.length && clipped.has(group.children[at]!)) at++;
    return at;
  };
  const mustMove = node.parent !== panel.parent || group.children.indexOf(node.id) < group.children.indexOf(panel.id);
  if (node.clipTarget !== null) {
    const old = getLayer(doc, node.clipTarget);
    old.clippedLayers = old.clippedLayers.filter((x) => x !== node.id);
    node.clipTarget = null;
  }
  if (mustMove) {
    const from = getLayer(doc, node.parent);
    from.children = from.children.filter((x) => x !== node.id);
    group.children.splice(above(), 0, node.id);
    node.parent = group.id;
  }
  clipInto(doc, node.id, panel.id);
});

/** Where the result of `v` from a pose or sketch goes, and the part of the canvas its control image shows. */
export interface ControlPlacement {
  parentId: string;
  /** The canvas box the control image covers and the result layer takes. */
  region: Box;
  /** The panel the source is in; the result is clipped to it. */
  panelId: string | null;
}

/** The canvas box of a sketch's strokes (their width included); null for an empty sketch. */
export function inkBounds(node: LayerNode<'SKETCH'>): Box | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const brush of node.data.brushes) {
    for (const stroke of brush.strokes) {
      if (stroke.erase) continue;
      for (let i = 0; i + 1 < stroke.points.length; i += 2) {
        const x = stroke.points[i]!;
        const y = stroke.points[i + 1]!;
        minX = Math.min(minX, x - stroke.radius);
        maxX = Math.max(maxX, x + stroke.radius);
        minY = Math.min(minY, y - stroke.radius);
        maxY = Math.max(maxY, y + stroke.radius);
      }
    }
  }
  if (!Number.isFinite(minX)) return null;
  const t = node.transform;
  return { x: t.x + minX, y: t.y + minY, width: maxX - minX, height: maxY - minY };
}

/**
 * `v` from a pose or sketch: a source inside a panel (clipped to it, or with at least half of what it draws over
 * it) gives a result clipped to that panel — a pose's over the pose's box, a sketch's (often as large as the page)
 * covering the panel, the strokes there being what it shows; any other source gives a result at its own box.
 */
export function controlPlacement(doc: DocState, rootId: string, id: string): ControlPlacement {
  const node = getLayer(doc, id);
  if (node.type !== 'POSE' && node.type !== 'SKETCH') throw new CommandError('Select a pose or sketch layer');
  const own = boxOf(node);
  const drawn = node.type === 'SKETCH' ? (inkBounds(node) ?? own) : own;
  const clippedTo = node.clipTarget ? doc.layers[node.clipTarget] : undefined;
  let panelId = clippedTo?.type === 'PANEL' ? clippedTo.id : null;
  if (!panelId) {
    const best = panelsByOverlap(doc, rootId, drawn)[0];
    if (best && best.area >= (drawn.width * drawn.height) / 2) panelId = best.id;
  }
  const panel = panelId ? (doc.layers[panelId] as LayerNode<'PANEL'>) : undefined;
  if (!panel || panel.parent === null) return { parentId: node.parent ?? rootId, region: own, panelId: null };
  return { parentId: panel.parent, region: node.type === 'SKETCH' ? boxOf(panel) : own, panelId: panel.id };
}
