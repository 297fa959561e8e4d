import type { DocState, LayerNode, PageState } from '../store/state.ts';
import { findInvariantViolations } from '../store/invariants.ts';

// Issue 14 item 3: a save from another tab or device arrives while this tab holds unsaved edits. Both sides
// changed the same base revision; the three-way merge below keeps both when they touched different layers and
// names what both touched otherwise. See docs/how-it-works/document-sync.md ("Live updates and local copies").

export type RebaseResult =
  /** `doc` is theirs with our edits on top; `pending` is true when it differs from theirs (so it must be saved). */
  | { ok: true; doc: DocState; pending: boolean }
  /** What both sides changed: layer ids, `page <uuid>`, or a document field such as `comicConfiguration`. */
  | { ok: false; conflicts: string[] };

/** Structural equality of JSON-like values (the store holds nothing else). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao).filter((k) => ao[k] !== undefined);
  if (keys.length !== Object.keys(bo).filter((k) => bo[k] !== undefined).length) return false;
  return keys.every((k) => sameValue(ao[k], bo[k]));
}

const CONFLICT = Symbol('conflict');
type Merged<T> = T | typeof CONFLICT;

/** The classic three-way rule: a side that did not change the value yields to the one that did. */
function merge3<T>(base: T, ours: T, theirs: T): Merged<T> {
  if (sameValue(ours, base)) return theirs;
  if (sameValue(theirs, base) || sameValue(ours, theirs)) return ours;
  return CONFLICT;
}

/**
 * Merges two edits of an ordered list of ids: their list, minus what we removed, plus what we added (each placed
 * after the element it followed in ours). Our reordering cannot be combined with their changes: a conflict.
 */
export function mergeIdList(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
): Merged<string[]> {
  if (sameValue(ours, base)) return [...theirs];
  if (sameValue(theirs, base) || sameValue(ours, theirs)) return [...ours];
  const inBase = new Set(base);
  const inOurs = new Set(ours);
  const keptInOurs = ours.filter((id) => inBase.has(id));
  const keptInBase = base.filter((id) => inOurs.has(id));
  if (!sameValue(keptInOurs, keptInBase)) return CONFLICT;
  const result = theirs.filter((id) => !(inBase.has(id) && !inOurs.has(id)));
  for (const [i, id] of ours.entries()) {
    if (inBase.has(id) || result.includes(id)) continue;
    let at = 0;
    for (let j = i - 1; j >= 0; j--) {
      const before = result.indexOf(ours[j]!);
      if (before >= 0) {
        at = before + 1;
        break;
      }
    }
    result.splice(at, 0, id);
  }
  return result;
}

/**
 * A layer both sides kept, merged field by field. The lists of children and clipped layers merge as lists (adding
 * a layer to a page in each tab is no conflict); any other property both changed differently is.
 */
function mergeLayer(base: LayerNode, ours: LayerNode, theirs: LayerNode): Merged<LayerNode> {
  const out: Record<string, unknown> = {};
  const b = base as unknown as Record<string, unknown>;
  const o = ours as unknown as Record<string, unknown>;
  const t = theirs as unknown as Record<string, unknown>;
  const keys = new Set([...Object.keys(b), ...Object.keys(o), ...Object.keys(t)]);
  const ownChanges = { ours: false, theirs: false };
  for (const key of keys) {
    if (key === 'children' || key === 'clippedLayers') {
      const merged = mergeIdList(base[key], ours[key], theirs[key]);
      if (merged === CONFLICT) return CONFLICT;
      out[key] = merged;
      continue;
    }
    if (!sameValue(o[key], b[key])) ownChanges.ours = true;
    if (!sameValue(t[key], b[key])) ownChanges.theirs = true;
    const merged = merge3(b[key], o[key], t[key]);
    if (merged === CONFLICT) return CONFLICT;
    if (merged !== undefined) out[key] = merged;
  }
  // The same layer changed on both sides (its own properties, not just which layers it holds): the user decides.
  if (ownChanges.ours && ownChanges.theirs && !sameValue(o, t)) return CONFLICT;
  return out as unknown as LayerNode;
}

function mergeLayers(base: DocState, ours: DocState, theirs: DocState, conflicts: string[]): Record<string, LayerNode> {
  const out: Record<string, LayerNode> = {};
  const ids = new Set([...Object.keys(base.layers), ...Object.keys(ours.layers), ...Object.keys(theirs.layers)]);
  for (const id of ids) {
    const b = base.layers[id];
    const o = ours.layers[id];
    const t = theirs.layers[id];
    let merged: Merged<LayerNode | undefined>;
    if (sameValue(o, b)) merged = t;
    else if (sameValue(t, b) || sameValue(o, t)) merged = o;
    // Removed on one side and changed on the other, or created twice: nothing to combine.
    else if (!b || !o || !t) merged = CONFLICT;
    else merged = mergeLayer(b, o, t);
    if (merged === CONFLICT) conflicts.push(id);
    else if (merged) out[id] = merged;
  }
  return out;
}

/** Pages merge by uuid; each page's view stays this tab's (it is where the user is looking, not an edit). */
function mergePages(base: DocState, ours: DocState, theirs: DocState, conflicts: string[]): PageState[] {
  const byUuid = (doc: DocState) => new Map(doc.pages.map((p) => [p.uuid, p]));
  const [b, o, t] = [byUuid(base), byUuid(ours), byUuid(theirs)];
  const order = mergeIdList(
    base.pages.map((p) => p.uuid),
    ours.pages.map((p) => p.uuid),
    theirs.pages.map((p) => p.uuid),
  );
  if (order === CONFLICT) {
    conflicts.push('pages');
    return theirs.pages;
  }
  const pages: PageState[] = [];
  for (const uuid of order) {
    const [bp, op, tp] = [b.get(uuid), o.get(uuid), t.get(uuid)];
    const page = op && tp && bp ? mergePage(bp, op, tp) : (tp ?? op);
    if (page === CONFLICT) conflicts.push(`page ${uuid}`);
    else if (page) pages.push(op && page !== op ? { ...page, viewTransform: op.viewTransform } : page);
  }
  return pages;
}

function mergePage(base: PageState, ours: PageState, theirs: PageState): Merged<PageState> {
  const rootId = merge3(base.rootId, ours.rootId, theirs.rootId);
  const story = merge3(base.generatedStory, ours.generatedStory, theirs.generatedStory);
  if (rootId === CONFLICT || story === CONFLICT) return CONFLICT;
  // Thumbnails are the server's: the newest known wins.
  return {
    ...theirs,
    rootId,
    generatedStory: story,
    viewTransform: ours.viewTransform,
    thumbnailUrl: theirs.thumbnailUrl ?? ours.thumbnailUrl,
  };
}

/**
 * Rebases our edits (`base` → `ours`) onto their version (`base` → `theirs`). With no edits of ours it answers
 * their version with our view kept. Never changes its inputs. The merged document must also keep every store
 * invariant (a layer we added inside a group they removed does not): otherwise it is a conflict.
 */
export function rebase(base: DocState, ours: DocState, theirs: DocState): RebaseResult {
  const conflicts: string[] = [];
  const layers = mergeLayers(base, ours, theirs, conflicts);
  const pages = mergePages(base, ours, theirs, conflicts);
  const field = <K extends 'type' | 'rootId' | 'comicConfiguration' | 'regionalPrompts' | 'sketchMap'>(key: K) => {
    const merged = merge3(base[key], ours[key], theirs[key]);
    if (merged !== CONFLICT) return merged;
    conflicts.push(key);
    return theirs[key];
  };
  const doc: DocState = {
    type: field('type'),
    comicConfiguration: field('comicConfiguration'),
    rootId: field('rootId'),
    regionalPrompts: field('regionalPrompts'),
    sketchMap: field('sketchMap'),
    pages,
    // The open page is followed by uuid; view and open page are this tab's own.
    lastPage: followPage(ours, pages),
    viewTransform: ours.viewTransform,
    layers,
  };
  if (conflicts.length > 0) return { ok: false, conflicts };
  const broken = findInvariantViolations(doc);
  if (broken.length > 0) return { ok: false, conflicts: broken };
  return { ok: true, doc, pending: !sameEdits(doc, theirs) };
}

function followPage(ours: DocState, pages: readonly PageState[]): number {
  const uuid = ours.pages[ours.lastPage]?.uuid;
  const index = pages.findIndex((p) => p.uuid === uuid);
  if (index >= 0) return index;
  return Math.max(0, Math.min(ours.lastPage, pages.length - 1));
}

/**
 * Equal apart from where each tab is looking and what it was told of thumbnails: views and the open page are saved
 * but are nobody's edit, and a page's thumbnail address is the server's, learned from a save's reply and kept by the
 * server beside the document (a save from elsewhere carries none).
 */
function sameEdits(a: DocState, b: DocState): boolean {
  const strip = (doc: DocState) => ({
    ...doc,
    lastPage: 0,
    viewTransform: null,
    pages: doc.pages.map((p) => ({ ...p, viewTransform: null, thumbnailUrl: null })),
  });
  return sameValue(strip(a), strip(b));
}
