import type { DocState } from '../store/state.ts';

/**
 * The part of the document a patch path names: one layer (`layers/<id>`), or a whole top-level field (pages,
 * settings, …: their patches address list positions, which another version may have shifted).
 */
export function partOfPath(path: readonly (string | number)[]): string {
  const [top, id] = path;
  return top === 'layers' && id !== undefined ? `layers/${String(id)}` : String(top);
}

/** Equal as JSON values, whatever the order of their keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x).filter((k) => x[k] !== undefined);
  if (keys.length !== Object.keys(y).filter((k) => y[k] !== undefined).length) return false;
  return keys.every((k) => Object.hasOwn(y, k) && sameJson(x[k], y[k]));
}

/** The parts (see partOfPath) in which `after` differs from `before`. */
export function changedParts(before: DocState, after: DocState): Set<string> {
  const changed = new Set<string>();
  for (const key of Object.keys(after) as (keyof DocState)[]) {
    if (key === 'layers') continue;
    if (!sameJson(before[key], after[key])) changed.add(key);
  }
  for (const id of new Set([...Object.keys(before.layers), ...Object.keys(after.layers)])) {
    if (!sameJson(before.layers[id], after.layers[id])) changed.add(`layers/${id}`);
  }
  return changed;
}
