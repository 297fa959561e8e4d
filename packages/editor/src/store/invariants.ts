import { PANEL_SPLIT_GAP } from '@koma/domain';
import type { DocState } from './state.ts';
import { kindOf } from '../kinds/lookup.ts';
import { isPanel } from '../kinds/panel-geometry.ts';

/**
 * Lists every broken invariant of the store (empty when sound): tree links agree, clip links agree in both
 * directions and stay between siblings, and each kind's own invariants hold (panels: symmetric neighbour lists,
 * inside their page, transform equal to their bounding box).
 */
export function findInvariantViolations(doc: DocState): string[] {
  const problems: string[] = [];
  const roots = new Set([doc.rootId, ...doc.pages.map((p) => p.rootId)]);
  for (const [id, node] of Object.entries(doc.layers)) {
    if (node.id !== id) problems.push(`${id}: stored under another id`);
    if (node.parent === null) {
      if (!roots.has(id)) problems.push(`${id}: has no parent and is not a root`);
    } else {
      const parent = doc.layers[node.parent];
      if (!parent?.children.includes(id)) problems.push(`${id}: parent does not list it`);
    }
    for (const child of node.children) {
      if (doc.layers[child]?.parent !== id) problems.push(`${id}: child ${child} does not point back`);
    }
    for (const clipped of node.clippedLayers) {
      const c = doc.layers[clipped];
      if (!c) problems.push(`${id}: clipped layer ${clipped} does not exist`);
      else {
        if (c.clipTarget !== id) problems.push(`${clipped}: clipTarget is not ${id}`);
        if (c.parent !== node.parent) problems.push(`${clipped}: clipped across groups`);
      }
    }
    if (node.clipTarget !== null && !doc.layers[node.clipTarget]?.clippedLayers.includes(id)) {
      problems.push(`${id}: clip target ${node.clipTarget} does not list it`);
    }
    problems.push(...(kindOf(node).invariants?.(doc, node) ?? []));
  }
  for (const page of doc.pages) if (!doc.layers[page.rootId]) problems.push(`page ${page.uuid}: root missing`);
  return problems;
}

/** The gap between the facing edges of two panels cut apart by a split, or null when they do not face each other. */
export function splitGap(doc: DocState, a: string, b: string): number | null {
  const pa = doc.layers[a];
  const pb = doc.layers[b];
  if (!isPanel(pa) || !isPanel(pb)) return null;
  const [aTL, aTR, aBR, aBL] = pa.data.vertices;
  const [bTL, bTR, , bBL] = pb.data.vertices;
  if (!aTL || !aTR || !aBR || !aBL || !bTL || !bTR || !bBL) return null;
  if (pa.data.neighborPanels.bottom.includes(b)) {
    const left = bTL.y - aBL.y;
    const right = bTR.y - aBR.y;
    return Math.abs(left - right) < 1e-6 ? left : null;
  }
  if (pa.data.neighborPanels.right.includes(b)) {
    const top = bTL.x - aTR.x;
    const bottom = bBL.x - aBR.x;
    return Math.abs(top - bottom) < 1e-6 ? top : null;
  }
  return null;
}

export { PANEL_SPLIT_GAP };
