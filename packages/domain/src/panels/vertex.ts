import type { Point, Size } from '../document/geometry.ts';
import type { NeighborSide } from '../document/layers/panel.ts';
import { BL, BR, TL, TR, isConvexClockwise, type PanelShape } from './shape.ts';

/** A neighbour's vertex follows a moved vertex when it sits within this gutter width of it, across the shared edge. */
export const NEIGHBOR_SNAP_ACROSS = 50;
/** …and within this distance along the shared edge. */
export const NEIGHBOR_SNAP_ALONG = 2;

/** The vertices of a neighbour on `side` that face the moved panel. */
const FACING: Record<NeighborSide, readonly number[]> = {
  right: [TL, BL],
  left: [TR, BR],
  bottom: [TL, TR],
  top: [BL, BR],
};

export interface VertexMove {
  panelId: string;
  index: number;
}

/**
 * Moves panel vertices by `delta`, dragging along the neighbours' vertices that face them across a gutter (so
 * gutters keep their width), unless the panel ignores its neighbours or a neighbour is locked or ignores them.
 * The move is clamped to the page. Returns the new vertex lists of every panel that changed; throws when the
 * panel is locked or a panel would fold over itself.
 */
export function moveVertices(
  moves: readonly VertexMove[],
  delta: Point,
  panels: ReadonlyMap<string, PanelShape>,
  page: Size,
): Map<string, Point[]> {
  const targets: { panelId: string; index: number }[] = [];
  const key = (m: VertexMove) => `${m.panelId}:${m.index}`;
  const seen = new Set<string>();
  const add = (m: VertexMove) => {
    if (!seen.has(key(m))) {
      seen.add(key(m));
      targets.push(m);
    }
  };
  for (const move of moves) {
    const panel = panels.get(move.panelId);
    if (!panel) throw new Error(`Panel ${move.panelId} does not exist`);
    if (panel.locked) throw new Error('The panel is locked');
    const origin = panel.vertices[move.index];
    if (!origin) throw new Error(`Panel ${move.panelId} has no vertex ${move.index}`);
    add(move);
    if (panel.ignoreNeighbors || panel.vertices.length !== 4) continue;
    for (const side of ['left', 'right', 'top', 'bottom'] as const) {
      for (const id of panel.neighborPanels[side]) {
        const other = panels.get(id);
        if (!other || other.locked || other.ignoreNeighbors || other.vertices.length !== 4) continue;
        for (const index of FACING[side]) {
          if (faces(origin, other.vertices[index]!, side)) add({ panelId: id, index });
        }
      }
    }
  }
  const clamped = clampDelta(
    delta,
    targets.map((t) => panels.get(t.panelId)!.vertices[t.index]!),
    page,
  );
  const out = new Map<string, Point[]>();
  for (const t of targets) {
    const list = out.get(t.panelId) ?? panels.get(t.panelId)!.vertices.map((p) => ({ ...p }));
    const p = list[t.index]!;
    list[t.index] = { x: p.x + clamped.x, y: p.y + clamped.y };
    out.set(t.panelId, list);
  }
  for (const [id, vertices] of out) {
    if (!isConvexClockwise(vertices)) throw new Error(`Panel ${id} would fold over itself`);
  }
  return out;
}

function faces(origin: Point, candidate: Point, side: NeighborSide): boolean {
  const across = side === 'left' || side === 'right' ? candidate.x - origin.x : candidate.y - origin.y;
  const along = side === 'left' || side === 'right' ? candidate.y - origin.y : candidate.x - origin.x;
  const direction = side === 'right' || side === 'bottom' ? 1 : -1;
  return across * direction >= 0 && Math.abs(across) <= NEIGHBOR_SNAP_ACROSS && Math.abs(along) <= NEIGHBOR_SNAP_ALONG;
}

function clampDelta(delta: Point, points: readonly Point[], page: Size): Point {
  let { x, y } = delta;
  for (const p of points) {
    x = Math.min(Math.max(x, -p.x), page.width - p.x);
    y = Math.min(Math.max(y, -p.y), page.height - p.y);
  }
  return { x, y };
}
