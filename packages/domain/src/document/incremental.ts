// Validating a patched document in proportion to the change (issue 14). A patch save applies a few operations to a
// document the server already holds decoded; decoding the whole result again (~10 ms for 500 layers) would cost
// the same for a one-layer change as for a new document. Here only the objects the patch made are checked, with
// the codec's own schemas, plus the document-wide rules a change can break. It only ever says "yes, and this is
// exactly what decodeWorkspaceData would give back" or "not sure": then the caller decodes the whole document, so
// what is accepted, repaired or refused (and the words of a refusal) are the full decode's. See
// docs/how-it-works/document-sync.md.
import { z } from 'zod';
import type { JsonPatchOperation } from '../json/patch.ts';
import { badTextReason, inspectJson, MAX_JSON_DEPTH } from '../json/inspect.ts';
import { checkDocumentFields, checkLayerTree } from './integrity.ts';
import { zLayerShallow, type Layer } from './layer.ts';
import { zPage, zWorkspaceData, type WorkspaceData } from './workspace.ts';

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What is known about the objects of documents in their saved form. Objects are never changed once known (patches
 * copy the path they change), so what holds for one holds in every later version that still shares it.
 */
export interface KnownObjects {
  /** Layers and pages exactly as a full decode gives them back (key order included), with everything below. */
  valid: WeakSet<object>;
  /** Root layers whose tree passed the tree checks (ids, clips, neighbours, bubble links), with its ids. */
  trees: WeakMap<object, ReadonlySet<string>>;
  /** Length of the JSON text of objects and arrays. */
  lengths: WeakMap<object, number>;
}

/** Notes every layer, page and tree of `doc`, which must be the value of a successful `decodeWorkspaceData`. */
export function knowDocument(doc: WorkspaceData, known?: KnownObjects): KnownObjects {
  const into = known ?? { valid: new WeakSet(), trees: new WeakMap(), lengths: new WeakMap() };
  const tree = (root: Layer) => {
    const ids = new Set<string>();
    const visit = (layer: Layer) => {
      into.valid.add(layer);
      ids.add(layer.id);
      for (const child of layer.children) visit(child);
    };
    visit(root);
    into.trees.set(root, ids);
  };
  tree(doc.rootLayer);
  for (const page of doc.pages) {
    tree(page.rootLayer);
    into.valid.add(page);
  }
  return into;
}

export type IncrementalResult =
  /** `inSavedForm`: `value` is the patched document itself (so the client's patch rebuilds it byte for byte). */
  | { ok: true; value: WorkspaceData; inSavedForm: boolean }
  /** Not decided here (a refusal, a repair, or a change this check does not cover): decode the whole document. */
  | { ok: false; reason: string };

const SAME = 0;
const REORDERED = 1;
const DIFFERENT = 2;
type Match = typeof SAME | typeof REORDERED | typeof DIFFERENT;

/** Whether two JSON values are equal, and if so whether their objects also list their keys in the same order. */
function compare(a: unknown, b: unknown): Match {
  if (a === b) return SAME;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return DIFFERENT;
  const arrays = Array.isArray(a);
  if (arrays !== Array.isArray(b)) return DIFFERENT;
  let worst: Match = SAME;
  if (arrays) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return DIFFERENT;
    for (let i = 0; i < x.length; i++) {
      const m = compare(x[i], y[i]);
      if (m === DIFFERENT) return DIFFERENT;
      if (m > worst) worst = m;
    }
    return worst;
  }
  const x = a as Raw;
  const y = b as Raw;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  if (kx.length !== ky.length) return DIFFERENT;
  for (let i = 0; i < kx.length; i++) {
    const key = kx[i]!;
    if (!Object.hasOwn(y, key)) return DIFFERENT;
    if (ky[i] !== key) worst = REORDERED;
    const m = compare(x[key], y[key]);
    if (m === DIFFERENT) return DIFFERENT;
    if (m > worst) worst = m;
  }
  return worst;
}

// A page's own fields, its root layer taken as it is (checked by `layer`, one changed layer at a time).
const zPageShallow = zPage.extend({ rootLayer: z.unknown() });
const documentFields: Record<string, z.ZodType> = zWorkspaceData.shape;

/** Each layer type's fields and their schemas (the shallow ones: a GROUP's children are checked one by one). */
const layerFields = new Map<string, Record<string, z.ZodType>>(
  zLayerShallow.options.map((option) => [option.shape.type.value, option.shape as Record<string, z.ZodType>]),
);
const pageFields: Record<string, z.ZodType> = zPage.shape;

/** The same keys in the same order. */
function sameKeys(a: Raw, b: Raw): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => kb[i] === k);
}

/** Fields that the tree rules read (ids, clips, panel neighbours, bubble links) are the same in both layers. */
function treeFieldsSame(a: Layer, b: Layer): boolean {
  if (a.id !== b.id || a.type !== b.type) return false;
  if (a.clippedLayers !== b.clippedLayers && compare(a.clippedLayers, b.clippedLayers) !== SAME) return false;
  if (a.children !== b.children) {
    if (a.children.length !== b.children.length) return false;
    if (a.children.some((child, i) => child.id !== b.children[i]!.id)) return false;
  }
  if (a.data === b.data) return true;
  if (a.type === 'TEXT' && b.type === 'TEXT') return a.data.linkedBubbleId === b.data.linkedBubbleId;
  if (a.type === 'PANEL' && b.type === 'PANEL') {
    return compare(a.data.neighborPanels, b.data.neighborPanels) === SAME;
  }
  return true;
}

class Check {
  /** False once some object had to be replaced by its saved form (keys put in the schema's order). */
  inSavedForm = true;
  /** True while every changed layer of the tree being checked kept what the tree rules read (see treeFieldsSame). */
  treeKept = true;

  constructor(private readonly known: KnownObjects) {}

  /**
   * The layer in saved form, or null when it is not exactly what a full decode would give. `was` is the layer
   * at the same place in the base document, if any: then only the fields that differ from it are validated.
   */
  layer(value: unknown, was?: Layer): Layer | null {
    if (typeof value === 'object' && value !== null && this.known.valid.has(value)) return value as Layer;
    if (was && isObject(value) && value.type === was.type && sameKeys(value, was as unknown as Raw)) {
      const out = this.layerLike(value, was);
      if (out !== undefined) return out;
    }
    this.treeKept = false;
    const parsed = zLayerShallow.safeParse(value);
    if (!parsed.success) return null;
    const match = compare(parsed.data, value);
    if (match === DIFFERENT) return null;
    const given = (match === SAME ? value : parsed.data) as Layer;
    let children: Layer[] | null = null;
    const kids = given.children as unknown[];
    for (let i = 0; i < kids.length; i++) {
      const child = this.layer(kids[i]);
      if (!child) return null;
      if (child !== kids[i]) (children ??= kids.slice() as Layer[])[i] = child;
    }
    let out = given;
    if (children) out = { ...given, children };
    if (out !== value) this.inSavedForm = false;
    this.known.valid.add(out);
    return out;
  }

  /**
   * A layer with the keys (in order) and type of a valid one, `was`: each field that differs is validated with
   * its own schema. Undefined when that cannot decide (a field not as the schema would give it back).
   */
  private layerLike(value: Raw, was: Layer): Layer | null | undefined {
    const fields = layerFields.get(was.type)!;
    const old = was as unknown as Raw;
    let children: Layer[] | null = null;
    for (const key of Object.keys(value)) {
      const field = value[key];
      if (field === old[key]) continue;
      // Only a GROUP's children are layers to check one by one; other types' must be empty, as their schema says.
      if (key !== 'children' || was.type !== 'GROUP') {
        const schema = fields[key];
        const parsed = schema?.safeParse(field);
        if (!parsed?.success || compare(parsed.data, field) !== SAME) return undefined;
        continue;
      }
      if (!Array.isArray(field)) return undefined;
      const before = was.children;
      for (let i = 0; i < field.length; i++) {
        const kid: unknown = field[i];
        const counterpart = before[i];
        // Unchanged in place: a child of a valid layer, valid with everything below, and its tree fields the same.
        if (kid === counterpart) continue;
        const same = counterpart && isObject(kid) && kid.id === counterpart.id ? counterpart : undefined;
        const child = this.layer(kid, same);
        if (!child) return null;
        if (child !== kid) (children ??= field.slice() as Layer[])[i] = child;
      }
    }
    let out = value as unknown as Layer;
    if (children) {
      out = { ...out, children };
      this.inSavedForm = false;
    }
    if (!treeFieldsSame(out, was)) this.treeKept = false;
    this.known.valid.add(out);
    return out;
  }

  /** The page in saved form, or null; `was` as for `layer`. */
  page(value: unknown, was?: Raw): unknown {
    if (typeof value === 'object' && value !== null && this.known.valid.has(value)) return value;
    if (was && isObject(value) && sameKeys(value, was)) {
      let fieldsOk = true;
      for (const key of Object.keys(value)) {
        if (key === 'rootLayer' || value[key] === was[key]) continue;
        const parsed = pageFields[key]?.safeParse(value[key]);
        if (!parsed?.success || compare(parsed.data, value[key]) !== SAME) fieldsOk = false;
      }
      if (fieldsOk) {
        const root = this.layer(value.rootLayer, was.rootLayer as Layer);
        if (!root || root.type !== 'GROUP') return null;
        const out = root === value.rootLayer ? value : { ...value, rootLayer: root };
        if (out !== value) this.inSavedForm = false;
        this.known.valid.add(out);
        return out;
      }
    }
    this.treeKept = false;
    const parsed = zPageShallow.safeParse(value);
    if (!parsed.success) return null;
    const match = compare(parsed.data, value);
    if (match === DIFFERENT) return null;
    const raw = value as Raw;
    const root = this.layer(raw.rootLayer);
    if (!root || root.type !== 'GROUP') return null;
    let out: Raw = match === SAME ? raw : parsed.data;
    if (root !== out.rootLayer) out = { ...out, rootLayer: root };
    if (out !== value) this.inSavedForm = false;
    this.known.valid.add(out);
    return out;
  }
}

/** Depth and text of what the operations bring in; the rest of the document was checked before. */
function operationsAreClean(patch: readonly JsonPatchOperation[]): string | null {
  for (const [i, operation] of patch.entries()) {
    // A path names existing containers, plus at most one new key: its text is checked like any key.
    if (badTextReason(operation.path) !== null) return `operation ${i}: text in the path`;
    const level = operation.path === '' ? 0 : operation.path.split('/').length - 1;
    if (level >= MAX_JSON_DEPTH - 2) return `operation ${i}: deep path`;
    if (operation.op === 'remove') continue;
    const value = operation.value;
    if (typeof value === 'string' && badTextReason(value) !== null) return `operation ${i}: text`;
    if (typeof value === 'object' && value !== null) {
      if (inspectJson(value, { maxDepth: MAX_JSON_DEPTH - level, text: true }).length > 0) {
        return `operation ${i}: depth or text`;
      }
    }
  }
  return null;
}

/** True when every linked speech bubble of the tree names a bubble of the same tree that names it back. */
function bubbleLinksHold(root: Layer): boolean {
  const texts = new Map<string, Layer>();
  const visit = (layer: Layer) => {
    if (layer.type === 'TEXT') texts.set(layer.id, layer);
    for (const child of layer.children) visit(child);
  };
  visit(root);
  for (const layer of texts.values()) {
    if (layer.type !== 'TEXT') continue;
    const link = layer.data.linkedBubbleId;
    if (link === null) continue;
    const partner = texts.get(link);
    if (!partner || partner === layer || partner.type !== 'TEXT' || partner.data.linkedBubbleId !== layer.id) {
      return false;
    }
  }
  return true;
}

/**
 * Checks `next` (the result of applying `patch` to `base` with applyJsonPatch, sharing what the patch did not
 * touch) and gives back what `decodeWorkspaceData(next)` would, when that is a success without repairs. `base`
 * must be a decoded document whose objects `known` holds (see knowDocument).
 */
export function validatePatched(
  known: KnownObjects,
  base: WorkspaceData,
  next: unknown,
  patch: readonly JsonPatchOperation[],
): IncrementalResult {
  const unclean = operationsAreClean(patch);
  if (unclean) return { ok: false, reason: unclean };
  if (!isObject(next)) return { ok: false, reason: 'not an object' };
  const baseRaw = base as unknown as Raw;
  const keys = Object.keys(next);
  const baseKeys = Object.keys(baseRaw);
  if (keys.length !== baseKeys.length || keys.some((k, i) => baseKeys[i] !== k)) {
    return { ok: false, reason: 'document fields added, removed or moved' };
  }
  const check = new Check(known);
  const changes: Raw = {};
  // Changed trees whose every change kept what the tree rules read: they have the ids of the tree they replace.
  const keptTrees = new Map<object, object>();
  for (const key of keys) {
    const value = next[key];
    if (value === baseRaw[key]) continue;
    if (key === 'rootLayer') {
      check.treeKept = true;
      const root = check.layer(value, base.rootLayer);
      if (!root || root.type !== 'GROUP') return { ok: false, reason: 'rootLayer' };
      if (root !== value) changes[key] = root;
      if (check.treeKept) keptTrees.set(root, base.rootLayer);
    } else if (key === 'pages') {
      if (!Array.isArray(value)) return { ok: false, reason: 'pages' };
      let pages: unknown[] | null = null;
      for (let i = 0; i < value.length; i++) {
        const before = base.pages[i];
        const item: unknown = value[i];
        const was = before && isObject(item) && item.uuid === before.uuid ? before : undefined;
        check.treeKept = true;
        const page = check.page(item, was) as WorkspaceData['pages'][number] | null;
        if (!page) return { ok: false, reason: `pages.${i}` };
        if (page !== item) (pages ??= value.slice())[i] = page;
        if (was && check.treeKept) keptTrees.set(page.rootLayer, was.rootLayer);
      }
      if (pages) changes[key] = pages;
    } else {
      // version, viewTransform, comicConfiguration, lastPage, regionalPrompts, sketchMap: small, checked whole.
      const schema = documentFields[key];
      if (!schema) return { ok: false, reason: key };
      const parsed = schema.safeParse(value);
      if (!parsed.success) return { ok: false, reason: key };
      const match = compare(parsed.data, value);
      if (match === DIFFERENT) return { ok: false, reason: key };
      if (match === REORDERED) {
        changes[key] = parsed.data;
        check.inSavedForm = false;
      }
    }
  }
  const doc = (Object.keys(changes).length > 0 ? { ...next, ...changes } : next) as WorkspaceData;

  // Document-wide rules: each changed tree is checked whole (a page is small next to the document), and its ids
  // against every other tree's.
  const roots = [doc.rootLayer, ...doc.pages.map((page) => page.rootLayer)];
  const idSets: ReadonlySet<string>[] = [];
  const changed: number[] = [];
  for (const root of roots) {
    let ids = known.trees.get(root);
    const was = keptTrees.get(root);
    if (!ids && was) {
      ids = known.trees.get(was);
      if (ids) known.trees.set(root, ids);
    }
    if (!ids) {
      const seen = new Set<string>();
      if (checkLayerTree(root, [], seen) || !bubbleLinksHold(root)) return { ok: false, reason: 'layer tree' };
      ids = seen;
      changed.push(idSets.length);
    }
    idSets.push(ids);
  }
  for (const t of changed) {
    for (const id of idSets[t]!) {
      for (let u = 0; u < idSets.length; u++) if (u !== t && idSets[u]!.has(id)) return { ok: false, reason: 'id' };
    }
  }
  const uuids = new Set(doc.pages.map((page) => page.uuid));
  if (uuids.size !== doc.pages.length) return { ok: false, reason: 'page uuid' };
  if (checkDocumentFields(doc)) return { ok: false, reason: 'document fields' };
  changed.forEach((t) => known.trees.set(roots[t]!, idSets[t]!));
  return { ok: true, value: doc, inSavedForm: check.inSavedForm };
}

/** Length of `JSON.stringify(value)`, remembering it for objects and arrays (a patched document shares most). */
export function jsonLength(known: KnownObjects, value: unknown): number {
  if (typeof value !== 'object' || value === null) {
    return value === undefined || typeof value === 'function' ? 0 : JSON.stringify(value).length;
  }
  const memo = known.lengths.get(value);
  if (memo !== undefined) return memo;
  let length = 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // undefined and functions are written as null inside arrays.
      length += (i > 0 ? 1 : 0) + (item === undefined || typeof item === 'function' ? 4 : jsonLength(known, item));
    }
  } else {
    let first = true;
    for (const key of Object.keys(value)) {
      const item = (value as Raw)[key];
      if (item === undefined || typeof item === 'function') continue;
      length += (first ? 0 : 1) + JSON.stringify(key).length + 1 + jsonLength(known, item);
      first = false;
    }
  }
  known.lengths.set(value, length);
  return length;
}

/**
 * `jsonLength(known, value)` for a value made from `was` (whose length is `wasLength`) by a patch, which copies only
 * the containers on its paths: containers of the same shape as their counterpart in `was` (same array length, same
 * keys in the same order) are measured as that length plus what their changed members add, so a one-layer change
 * compares the unchanged siblings by identity instead of measuring or looking each one up.
 */
export function jsonLengthAfter(known: KnownObjects, was: unknown, wasLength: number, value: unknown): number {
  if (value === was) return wasLength;
  if (typeof value !== 'object' || value === null || typeof was !== 'object' || was === null) {
    return jsonLength(known, value);
  }
  const memo = known.lengths.get(value);
  if (memo !== undefined) return memo;
  let length = wasLength;
  if (Array.isArray(value)) {
    if (!Array.isArray(was) || was.length !== value.length) return jsonLength(known, value);
    for (let i = 0; i < value.length; i++) {
      const before: unknown = was[i];
      const after: unknown = value[i];
      if (before === after) continue;
      if (!measurable(before) || !measurable(after)) return jsonLength(known, value);
      const beforeLength = jsonLength(known, before);
      length += jsonLengthAfter(known, before, beforeLength, after) - beforeLength;
    }
  } else {
    if (Array.isArray(was)) return jsonLength(known, value);
    const keys = Object.keys(value);
    const wasKeys = Object.keys(was);
    if (keys.length !== wasKeys.length) return jsonLength(known, value);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      if (wasKeys[k] !== key) return jsonLength(known, value);
      const before = (was as Raw)[key];
      const after = (value as Raw)[key];
      if (before === after) continue;
      if (!measurable(before) || !measurable(after)) return jsonLength(known, value);
      const beforeLength = jsonLength(known, before);
      length += jsonLengthAfter(known, before, beforeLength, after) - beforeLength;
    }
  }
  known.lengths.set(value, length);
  return length;
}

/** Written as itself by JSON.stringify (undefined and functions are left out of objects and nulled in arrays). */
function measurable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function';
}
