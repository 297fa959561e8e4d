import type { ReadingOrder } from '../document/workspace.ts';
import type { PanelShape } from './shape.ts';
import { boundsOf } from './shape.ts';

const ROW_TOLERANCE = 1;

/**
 * Orders panels for reading. A panel is read after the panels above it and after the panels before it in the
 * reading direction (left neighbours, or right neighbours when right-to-left); among the panels ready to read, the
 * highest comes first, then the one nearest the starting side. Returns ids, first to last.
 */
export function readingOrder(panels: readonly PanelShape[], order: ReadingOrder): string[] {
  const rtl = order === 'RIGHT_TO_LEFT';
  const byId = new Map(panels.map((p) => [p.id, p]));
  const box = new Map(panels.map((p) => [p.id, boundsOf(p.vertices)]));
  const before = new Map<string, Set<string>>();
  for (const p of panels) {
    const reqs = [...p.neighborPanels.top, ...(rtl ? p.neighborPanels.right : p.neighborPanels.left)];
    before.set(p.id, new Set(reqs.filter((id) => byId.has(id))));
  }
  const rank = (id: string): [number, number] => {
    const r = box.get(id)!;
    return [r.y, rtl ? -(r.x + r.width) : r.x];
  };
  const compare = (a: string, b: string): number => {
    const [ay, ax] = rank(a);
    const [by, bx] = rank(b);
    if (Math.abs(ay - by) > ROW_TOLERANCE) return ay - by;
    return ax - bx || (a < b ? -1 : a > b ? 1 : 0);
  };

  const done = new Set<string>();
  const result: string[] = [];
  while (result.length < panels.length) {
    const ready = panels.filter((p) => !done.has(p.id) && [...before.get(p.id)!].every((id) => done.has(id)));
    // A cycle cannot come from geometry, but a hand-edited document could hold one: fall back to position.
    const pool = ready.length > 0 ? ready : panels.filter((p) => !done.has(p.id));
    const next = pool.map((p) => p.id).sort(compare)[0]!;
    done.add(next);
    result.push(next);
  }
  return result;
}

/** Reading-order numbers, starting at 1, keyed by panel id. */
export function readingPositions(panels: readonly PanelShape[], order: ReadingOrder): Map<string, number> {
  return new Map(readingOrder(panels, order).map((id, i) => [id, i + 1]));
}
