// Versions stored as what changed: each stored version is either a keyframe (the whole saved document) or a JSON
// Patch against the version stored just before it. Rebuilding one starts at the nearest keyframe at or before it
// and applies the patches after it in order; keyframes every so often bound that work. See
// docs/how-it-works/document-sync.md.
import { applyJsonPatch, diffJson, type JsonPatchOperation } from '../json/patch.ts';

export type StoredVersionKind = 'full' | 'patch';

export interface StoredVersion {
  revision: number;
  kind: StoredVersionKind;
  /** The document's JSON (full) or the patch's JSON (patch). */
  data: string;
}

export type RebuildResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The document of the last version in `chain`: `chain` is ascending, starts with a keyframe and holds every
 * stored version between it and the wanted one. Never throws.
 */
export function rebuildVersion(chain: readonly StoredVersion[]): RebuildResult {
  const first = chain[0];
  if (!first) return { ok: false, error: 'no stored versions' };
  if (first.kind !== 'full') return { ok: false, error: `version ${first.revision} has no keyframe before it` };
  let doc: unknown;
  try {
    doc = JSON.parse(first.data);
    for (const version of chain.slice(1)) {
      if (version.kind === 'full') {
        doc = JSON.parse(version.data);
        continue;
      }
      const applied = applyJsonPatch(doc, JSON.parse(version.data) as JsonPatchOperation[]);
      if (!applied.ok) return { ok: false, error: `version ${version.revision}: ${applied.error}` };
      doc = applied.value;
    }
  } catch (error) {
    return { ok: false, error: `stored version is not JSON: ${String(error)}` };
  }
  return { ok: true, value: doc };
}

export interface KeyframePolicy {
  /** At most this many patches follow a keyframe before the next keyframe. */
  every: number;
}

/** Keyframe every 100 versions: rebuilding any version applies at most 99 small patches. */
export const DEFAULT_KEYFRAMES: KeyframePolicy = { every: 100 };

/** A document's JSON text, written out only when needed (a keyframe): a patch save knows its length without it. */
export interface DocumentText {
  readonly length: number;
  text(): string;
}

/**
 * How to store a version after its predecessor: a patch, unless the chain since the last keyframe is long
 * enough or heavy enough (its patches together outweigh the document) that a keyframe is due, or the patch is
 * no smaller than the document.
 */
export function storedForm(
  since: { patches: number; patchBytes: number },
  documentJson: string | DocumentText,
  patchJson: string | null,
  policy: KeyframePolicy = DEFAULT_KEYFRAMES,
): { kind: StoredVersionKind; data: string } {
  if (
    patchJson === null ||
    since.patches + 1 >= policy.every ||
    since.patchBytes + patchJson.length > documentJson.length ||
    patchJson.length >= documentJson.length
  ) {
    return { kind: 'full', data: typeof documentJson === 'string' ? documentJson : documentJson.text() };
  }
  return { kind: 'patch', data: patchJson };
}

/** The patch from one stored document to the next, as stored JSON. */
export function patchBetween(before: unknown, after: unknown): string {
  return JSON.stringify(diffJson(before, after));
}
