import type { Point } from '../document/geometry.ts';
import type { NeighborPanels, NeighborSide } from '../document/layers/panel.ts';
import { PANEL_SPLIT_GAP } from '../constants.ts';
import { BL, BR, TL, TR, boundsOf, emptyNeighbors, overlap, type PanelShape } from './shape.ts';

export type SplitDirection = 'horizontal' | 'vertical';

/** The smallest side a panel may be left with by a split. */
export const MIN_SPLIT_PART = 20;

export interface SplitResult {
  /** The original panel's new vertices (the top part, or the left part). */
  original: Point[];
  /** The clone's vertices (the bottom part, or the right part). */
  clone: Point[];
  /** New neighbour lists for every panel whose lists changed, the two parts included. */
  neighbors: Map<string, NeighborPanels>;
}

const lerp = (a: Point, b: Point, t: number): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });

/**
 * Cuts a four-sided panel in two at `at` (0..1 along the cut axis) leaving exactly `gap` px between the parts,
 * measured along the panel's edges' axis. A horizontal split cuts across (top and bottom parts); a vertical one
 * cuts down (left and right parts). Throws when the panel is not four-sided or a part would be too small.
 */
export function splitPanel(
  panel: PanelShape,
  cloneId: string,
  direction: SplitDirection,
  at: number,
  allPanels: ReadonlyMap<string, PanelShape>,
  gap = PANEL_SPLIT_GAP,
): SplitResult {
  if (panel.vertices.length !== 4) throw new Error('Only four-sided panels can be split');
  if (!(at > 0 && at < 1)) throw new Error('The split position must lie inside the panel');
  const v = panel.vertices as [Point, Point, Point, Point];
  const half = gap / 2;
  let original: Point[];
  let clone: Point[];
  if (direction === 'horizontal') {
    const leftLen = v[BL].y - v[TL].y;
    const rightLen = v[BR].y - v[TR].y;
    checkRoom(leftLen, at, half);
    checkRoom(rightLen, at, half);
    const dl = half / leftLen;
    const dr = half / rightLen;
    original = [v[TL], v[TR], lerp(v[TR], v[BR], at - dr), lerp(v[TL], v[BL], at - dl)];
    clone = [lerp(v[TL], v[BL], at + dl), lerp(v[TR], v[BR], at + dr), v[BR], v[BL]];
  } else {
    const topLen = v[TR].x - v[TL].x;
    const bottomLen = v[BR].x - v[BL].x;
    checkRoom(topLen, at, half);
    checkRoom(bottomLen, at, half);
    const dt = half / topLen;
    const db = half / bottomLen;
    original = [v[TL], lerp(v[TL], v[TR], at - dt), lerp(v[BL], v[BR], at - db), v[BL]];
    clone = [lerp(v[TL], v[TR], at + dt), v[TR], v[BR], lerp(v[BL], v[BR], at + db)];
  }
  return { original, clone, neighbors: splitNeighbors(panel, cloneId, direction, original, clone, allPanels) };
}

function checkRoom(length: number, at: number, half: number): void {
  if (length * at - half < MIN_SPLIT_PART || length * (1 - at) - half < MIN_SPLIT_PART) {
    throw new Error(`Each part of a split panel must keep at least ${MIN_SPLIT_PART} px`);
  }
}

function splitNeighbors(
  panel: PanelShape,
  cloneId: string,
  direction: SplitDirection,
  original: Point[],
  clone: Point[],
  allPanels: ReadonlyMap<string, PanelShape>,
): Map<string, NeighborPanels> {
  const out = new Map<string, NeighborPanels>();
  const listsOf = (id: string): NeighborPanels => {
    let lists = out.get(id);
    if (!lists) {
      const source = allPanels.get(id)?.neighborPanels ?? emptyNeighbors();
      lists = { left: [...source.left], right: [...source.right], top: [...source.top], bottom: [...source.bottom] };
      out.set(id, lists);
    }
    return lists;
  };
  const old = panel.neighborPanels;
  const a = emptyNeighbors();
  const b = emptyNeighbors();
  out.set(panel.id, a);
  out.set(cloneId, b);
  // `far` is the side the clone takes over entirely; `near` stays with the original; `across` lists are shared out.
  const [near, far, across]: [NeighborSide, NeighborSide, NeighborSide[]] =
    direction === 'horizontal' ? ['top', 'bottom', ['left', 'right']] : ['left', 'right', ['top', 'bottom']];
  a[near] = [...old[near]];
  b[far] = [...old[far]];
  a[far] = [cloneId];
  b[near] = [panel.id];
  for (const id of old[far]) {
    const lists = listsOf(id);
    lists[near] = lists[near].map((x) => (x === panel.id ? cloneId : x));
  }
  const ra = boundsOf(original);
  const rb = boundsOf(clone);
  const span = (r: ReturnType<typeof boundsOf>): [number, number] =>
    direction === 'horizontal' ? [r.y, r.y + r.height] : [r.x, r.x + r.width];
  const [a0, a1] = span(ra);
  const [b0, b1] = span(rb);
  for (const side of across) {
    const back: NeighborSide =
      side === 'left' ? 'right' : side === 'right' ? 'left' : side === 'top' ? 'bottom' : 'top';
    for (const id of old[side]) {
      const other = allPanels.get(id);
      if (!other) continue;
      const [o0, o1] = span(boundsOf(other.vertices));
      const touchesA = overlap(a0, a1, o0, o1) > 0;
      const touchesB = overlap(b0, b1, o0, o1) > 0;
      const lists = listsOf(id);
      if (touchesA || !touchesB) a[side].push(id);
      else lists[back] = lists[back].filter((x) => x !== panel.id);
      if (touchesB) {
        b[side].push(id);
        lists[back] = [...lists[back], cloneId];
      }
    }
  }
  return out;
}
