// Dropping versions while keeping every kept one rebuildable: a kept patch whose predecessor goes is rewritten as
// the patch from the previous kept version (the dropped patches merged), or as a keyframe when that is smaller.
import { applyJsonPatch, diffJson, type JsonPatchOperation } from '../json/patch.ts';
import type { StoredVersion } from './chain.ts';

export type PrunePlan = { ok: true; rewrite: StoredVersion[]; drop: number[] } | { ok: false; error: string };

/**
 * What to rewrite and what to delete so that only `keep` remains. `stored` is every stored version of one
 * document, ascending, starting with a keyframe. Never throws; an unreadable chain changes nothing.
 */
export function planPrune(stored: readonly StoredVersion[], keep: ReadonlySet<number>): PrunePlan {
  const rewrite: StoredVersion[] = [];
  const drop: number[] = [];
  let doc: unknown;
  let previousKept: unknown = undefined;
  let droppedSinceKept = false;
  try {
    for (const [i, version] of stored.entries()) {
      if (version.kind === 'full') doc = JSON.parse(version.data);
      else if (i === 0) return { ok: false, error: `version ${version.revision} has no keyframe before it` };
      else {
        const applied = applyJsonPatch(doc, JSON.parse(version.data) as JsonPatchOperation[]);
        if (!applied.ok) return { ok: false, error: `version ${version.revision}: ${applied.error}` };
        doc = applied.value;
      }
      if (!keep.has(version.revision)) {
        drop.push(version.revision);
        droppedSinceKept = true;
        continue;
      }
      if (droppedSinceKept && version.kind === 'patch') {
        if (previousKept === undefined) {
          rewrite.push({ revision: version.revision, kind: 'full', data: JSON.stringify(doc) });
        } else {
          const patch = JSON.stringify(diffJson(previousKept, doc));
          const full = JSON.stringify(doc);
          rewrite.push(
            patch.length < full.length
              ? { revision: version.revision, kind: 'patch', data: patch }
              : { revision: version.revision, kind: 'full', data: full },
          );
        }
      }
      previousKept = doc;
      droppedSinceKept = false;
    }
  } catch (error) {
    return { ok: false, error: `stored version is not JSON: ${String(error)}` };
  }
  return { ok: true, rewrite, drop };
}
