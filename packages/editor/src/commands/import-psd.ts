import { createImageLayer, zTransform, type BlendMode, type Layer } from '@koma/domain';
import { findInvariantViolations } from '../store/invariants.ts';
import { registeredKinds } from '../kinds/lookup.ts';
import { CommandError, defineCommand } from './command.ts';
import { toNode } from './add.ts';
import { addPage } from './pages.ts';
import { deleteLayer, getLayer, insertChild, rootOf } from './helpers.ts';
import { clipInto } from './clip.ts';

/** One layer of an imported PSD, bottom first, in document units; `key` names it for clipTo and references. */
export type ImportedEntry =
  | {
      kind: 'image';
      key: string;
      clipTo: string | null;
      imageId: string;
      name: string;
      visible: boolean;
      rect: { x: number; y: number; width: number; height: number };
      opacity: number;
      blendMode: BlendMode;
      /** Degrees clockwise and mirroring of the image about its box centre; `rect` is the box before the turn. */
      turn?: { rotation: number; flipX: boolean; flipY: boolean };
    }
  | { kind: 'layer'; key: string; clipTo: string | null; layer: Layer };

export interface ImportPsdArgs {
  /** A new page after the current one (the default), or into this group (the open page or canvas). */
  into: { newPage: true; after: number } | { newPage: false; parentId: string };
  entries: ImportedEntry[];
  /** Ids the file's layers referred to that did not come back: references to them are dropped. */
  missing?: string[];
}

export interface ImportPsdResult {
  /** The new page's uuid, when the import made one. */
  pageUuid: string | null;
  ids: string[];
}

/**
 * Adds an imported PSD in one undo step: on a new page (without its default panel) or into a group. Every layer
 * gets a fresh id and the references between them (a panel's neighbours, a tail's target) follow; clipping is
 * rebuilt; panel numbers are recomputed. A result that would break the document's invariants (a panel off the
 * page) is refused with the reason, and nothing changes.
 */
export const importPsdLayers = defineCommand('Import PSD', (doc, args: ImportPsdArgs, ctx): ImportPsdResult => {
  let parentId: string;
  let pageUuid: string | null = null;
  if (args.into.newPage) {
    pageUuid = addPage.run(doc, { index: args.into.after + 1 }, ctx);
    const page = doc.pages.find((p) => p.uuid === pageUuid)!;
    parentId = page.rootId;
    for (const child of [...getLayer(doc, parentId).children]) deleteLayer(doc, child);
  } else {
    parentId = args.into.parentId;
    getLayer(doc, parentId);
  }
  const fresh = new Map<string, string>();
  for (const entry of args.entries) {
    if (fresh.has(entry.key)) throw new CommandError(`The imported layer ${entry.key} appears twice`);
    fresh.set(entry.key, ctx.ids());
  }
  const missing = new Set(args.missing ?? []);
  const ids: string[] = [];
  for (const entry of args.entries) {
    const id = fresh.get(entry.key)!;
    const layer = entry.kind === 'image' ? imageLayer(id, entry) : relinked(entry.layer, id, fresh, missing);
    insertChild(doc, parentId, toNode(layer));
    ids.push(id);
  }
  for (const entry of args.entries) {
    if (!entry.clipTo) continue;
    const target = fresh.get(entry.clipTo);
    if (target) clipInto(doc, fresh.get(entry.key)!, target);
  }
  const rootId = rootOf(doc, parentId);
  for (const kind of registeredKinds()) kind.afterRootChange?.(doc, rootId);
  const added = new Set(ids);
  const problems = findInvariantViolations(doc).filter((p) => [...added].some((id) => p.includes(id)));
  if (problems.length > 0) throw new CommandError(`The imported layers do not fit this document: ${problems[0]}`);
  return { pageUuid, ids };
});

function imageLayer(id: string, entry: Extract<ImportedEntry, { kind: 'image' }>): Layer {
  const { x, y, width, height } = entry.rect;
  const transform = zTransform.safeParse({ x, y, size: { width, height } });
  if (!transform.success || !(width > 0 && height > 0)) {
    throw new CommandError(`The imported layer “${entry.name}” has no valid position and size`);
  }
  const layer = createImageLayer(id, transform.data, { variations: [{ id: entry.imageId }] });
  layer.name = entry.name.slice(0, 255);
  layer.visible = entry.visible;
  layer.opacity = Math.min(1, Math.max(0, entry.opacity));
  layer.blendMode = entry.blendMode;
  if (entry.turn) {
    if (!Number.isFinite(entry.turn.rotation)) {
      throw new CommandError(`The imported layer “${entry.name}” has no valid rotation`);
    }
    layer.rotation = entry.turn.rotation;
    layer.flipX = entry.turn.flipX;
    layer.flipY = entry.turn.flipY;
  }
  return layer;
}

/**
 * A saved layer under its new id, with every reference to another imported layer renamed and every reference to
 * one that did not come back dropped (the file may have lost layers in another tool).
 */
function relinked(layer: Layer, id: string, fresh: Map<string, string>, missing: Set<string>): Layer {
  const swap = (value: unknown): unknown => {
    if (typeof value === 'string') return fresh.get(value) ?? (missing.has(value) ? null : value);
    if (Array.isArray(value)) return value.map(swap).filter((v) => v !== null);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]));
    }
    return value;
  };
  return { ...structuredClone(layer), id, clippedLayers: [], children: [], data: swap(layer.data) } as Layer;
}
