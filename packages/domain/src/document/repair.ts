import { SKETCH_BRUSH_RADIUS, SKETCH_MAP_BRUSH_RADIUS } from '../constants.ts';
import { inspectJson, repairText, type JsonPath } from '../json/inspect.ts';

/**
 * Repairs of shapes the spec's saved form allows, or that earlier apps wrote, applied to a private copy of a raw
 * document before it is validated. Each repair is reported, so the editor can tell the user once what changed.
 */
export type RepairCode =
  | 'STROKE_POINT_LIST'
  | 'MIRRORED_ROOT'
  | 'DUPLICATE_ID'
  | 'DUPLICATE_PAGE'
  | 'TEXT_CHARACTERS'
  | 'LAST_PAGE'
  | 'BUBBLE_LINK';

export interface DocumentRepair {
  code: RepairCode;
  /** How many places this repair changed. */
  count: number;
  /** The first place, as a path in the document as given. */
  path: string;
  message: string;
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

class Report {
  private readonly byCode = new Map<RepairCode, { count: number; path: JsonPath; message: string }>();
  add(code: RepairCode, path: JsonPath, message: string): void {
    const entry = this.byCode.get(code);
    if (entry) entry.count++;
    else this.byCode.set(code, { count: 1, path, message });
  }
  list(fmt: (path: JsonPath) => string): DocumentRepair[] {
    return [...this.byCode].map(([code, e]) => ({ code, count: e.count, path: fmt(e.path), message: e.message }));
  }
}

/** Repairs `doc` in place; `checkText: false` when the caller knows no string holds NUL or a lone surrogate. Its containers (document, pages, layers, children and clip lists) must already be private
 * copies (see migrations' copyContainers); anything else that is changed is copied first. */
export function repairDocument(doc: Raw, fmt: (path: JsonPath) => string, checkText = true): DocumentRepair[] {
  const report = new Report();
  if (checkText) repairStrings(doc, report);
  repairStrokes(doc, report);
  repairMirroredRoot(doc, report);
  repairDuplicatePages(doc, report);
  repairDuplicateIds(doc, report);
  repairLastPage(doc, report);
  repairBubbleLinks(doc, report);
  return report.list(fmt);
}

// ---- Text: NUL and lone surrogates ---------------------------------------------------------------------------

/** Replaces `obj[key]` by a shallow copy and returns it, so shared input is never written to. */
function own(parent: Raw | unknown[], key: string | number): Raw | unknown[] | null {
  const value = (parent as Record<string | number, unknown>)[key];
  if (Array.isArray(value)) {
    const copy = [...(value as unknown[])];
    (parent as Record<string | number, unknown>)[key] = copy;
    return copy;
  }
  if (isObject(value)) {
    const copy = { ...value };
    (parent as Record<string | number, unknown>)[key] = copy;
    return copy;
  }
  return null;
}

function repairStrings(doc: Raw, report: Report): void {
  // The depth was checked before; this walk only lists the bad strings.
  const problems = inspectJson(doc, { maxDepth: Number.MAX_SAFE_INTEGER, text: true, maxProblems: Infinity });
  for (const problem of problems) {
    if (problem.kind !== 'bad_text') continue;
    const { path } = problem;
    const last = path.at(-1);
    if (last === undefined) continue;
    // Copy every container on the way down: the top one is the (private) document itself.
    let node: Raw | unknown[] = doc;
    for (const key of path.slice(0, -1)) {
      const next = own(node, key);
      if (!next) break;
      node = next;
    }
    const holder = node as Record<string | number, unknown>;
    if (problem.inKey && typeof last === 'string') {
      const value = holder[last];
      delete holder[last];
      holder[repairText(last)] = value;
    } else if (typeof holder[last] === 'string') {
      holder[last] = repairText(holder[last]);
    }
    report.add('TEXT_CHARACTERS', path, 'NUL characters were removed and broken characters replaced by �');
  }
}

// ---- Strokes stored as point lists -----------------------------------------------------------------------------

/** Flat [x0, y0, …] from a flat list, a list of {x, y} or a list of [x, y]; null when it is none of these. */
function flatPoints(list: unknown[]): number[] | null {
  if (list.every(isNumber)) return list;
  const out: number[] = [];
  for (const p of list) {
    if (isObject(p) && isNumber(p.x) && isNumber(p.y)) out.push(p.x, p.y);
    else if (Array.isArray(p) && p.length === 2 && isNumber(p[0]) && isNumber(p[1])) out.push(p[0], p[1]);
    else return null;
  }
  return out;
}

/** Normalises one strokes list in place (the list itself must be private); returns how many strokes changed. */
function repairStrokeList(strokes: unknown[], radius: number): number {
  let changed = 0;
  for (let i = 0; i < strokes.length; i++) {
    const stroke = strokes[i];
    if (Array.isArray(stroke)) {
      const points = flatPoints(stroke);
      if (!points) continue;
      strokes[i] = { points, radius, erase: false };
      changed++;
    } else if (isObject(stroke) && Array.isArray(stroke.points)) {
      const flat = stroke.points.every(isNumber);
      const hasRadius = isNumber(stroke.radius) && stroke.radius > 0;
      if (flat && hasRadius) continue;
      const points = flatPoints(stroke.points);
      if (!points) continue;
      strokes[i] = { ...stroke, points, radius: hasRadius ? stroke.radius : radius };
      changed++;
    }
  }
  return changed;
}

/** Repairs `holder[key]` when it is a list of strokes; returns the number changed. */
function repairStrokesAt(holder: Raw, key: string, radius: number): number {
  const list = holder[key];
  if (!Array.isArray(list) || list.every((s) => isObject(s) && Array.isArray(s.points) && s.points.every(isNumber)))
    return 0;
  const copy = [...(list as unknown[])];
  const changed = repairStrokeList(copy, radius);
  if (changed > 0) holder[key] = copy;
  return changed;
}

function repairBrushes(holder: Raw, path: JsonPath, defaultRadius: number, report: Report): void {
  if (!Array.isArray(holder.brushes)) return;
  const brushes = [...(holder.brushes as unknown[])];
  let touched = false;
  brushes.forEach((brush, b) => {
    if (!isObject(brush)) return;
    const copy = { ...brush };
    const radius = isNumber(brush.radius) && brush.radius > 0 ? brush.radius : defaultRadius;
    const changed = repairStrokesAt(copy, 'strokes', radius);
    if (changed === 0) return;
    brushes[b] = copy;
    touched = true;
    for (let k = 0; k < changed; k++) {
      report.add(
        'STROKE_POINT_LIST',
        [...path, 'brushes', b, 'strokes'],
        'strokes stored as point lists were converted',
      );
    }
  });
  if (touched) holder.brushes = brushes;
}

function repairLayerStrokes(layer: unknown, path: JsonPath, report: Report): void {
  if (!isObject(layer)) return;
  if (isObject(layer.data) && (layer.type === 'SKETCH' || layer.type === 'IMAGE')) {
    const data = { ...layer.data };
    if (layer.type === 'SKETCH') repairBrushes(data, [...path, 'data'], SKETCH_BRUSH_RADIUS, report);
    if (layer.type === 'IMAGE' && isObject(data.maskParams)) {
      const mask = { ...data.maskParams };
      const changed = repairStrokesAt(mask, 'mask', SKETCH_BRUSH_RADIUS);
      for (let k = 0; k < changed; k++) {
        report.add(
          'STROKE_POINT_LIST',
          [...path, 'data', 'maskParams', 'mask'],
          'strokes stored as point lists were converted',
        );
      }
      if (changed > 0) data.maskParams = mask;
    }
    layer.data = data;
  }
  if (Array.isArray(layer.children)) {
    layer.children.forEach((child, i) => repairLayerStrokes(child, [...path, 'children', i], report));
  }
}

function repairStrokes(doc: Raw, report: Report): void {
  for (const [root, path] of layerRoots(doc)) repairLayerStrokes(root, path, report);
  if (isObject(doc.sketchMap)) {
    const map = { ...doc.sketchMap };
    repairBrushes(map, ['sketchMap'], SKETCH_MAP_BRUSH_RADIUS, report);
    doc.sketchMap = map;
  }
}

// ---- Layer trees and ids -----------------------------------------------------------------------------------------

/** Page roots first, then the workspace root: a comic's pages hold its layers, so their ids win a clash. */
function layerRoots(doc: Raw): [Raw, JsonPath][] {
  const roots: [Raw, JsonPath][] = [];
  if (Array.isArray(doc.pages)) {
    doc.pages.forEach((page: unknown, i) => {
      if (isObject(page) && isObject(page.rootLayer)) roots.push([page.rootLayer, ['pages', i, 'rootLayer']]);
    });
  }
  if (isObject(doc.rootLayer)) roots.push([doc.rootLayer, ['rootLayer']]);
  return roots;
}

/** Every layer object of a tree, parents first. */
function layersOf(root: Raw, out: Raw[] = []): Raw[] {
  out.push(root);
  if (Array.isArray(root.children)) for (const child of root.children) if (isObject(child)) layersOf(child, out);
  return out;
}

/** The path of `target` below `root` (found again only for the rare layer that is reported). */
function pathTo(root: Raw, target: Raw, path: JsonPath): JsonPath | null {
  if (root === target) return path;
  if (!Array.isArray(root.children)) return null;
  for (let i = 0; i < root.children.length; i++) {
    const child: unknown = root.children[i];
    const found = isObject(child) ? pathTo(child, target, [...path, 'children', i]) : null;
    if (found) return found;
  }
  return null;
}

const idOf = (layer: Raw): string | null => (typeof layer.id === 'string' ? layer.id : null);

/**
 * An earlier app saved a comic's workspace `rootLayer` as a copy of the open page's tree, ids and all. The page
 * holds the real layers (a comic's workspace root is never shown), so the copy is emptied.
 */
function repairMirroredRoot(doc: Raw, report: Report): void {
  const root = doc.rootLayer;
  if (!isObject(root) || !Array.isArray(root.children) || root.children.length === 0) return;
  if (!Array.isArray(doc.pages) || doc.pages.length === 0) return;
  const below = layersOf(root).slice(1).map(idOf);
  if (below.some((id) => id === null)) return;
  const index = doc.pages.findIndex((page: unknown) => {
    if (!isObject(page) || !isObject(page.rootLayer)) return false;
    const ids = new Set(layersOf(page.rootLayer).map(idOf));
    return below.every((id) => ids.has(id));
  });
  if (index < 0) return;
  root.children = [];
  root.clippedLayers = [];
  report.add('MIRRORED_ROOT', ['rootLayer'], `the workspace root repeated page ${index + 1} and was emptied`);
}

function repairDuplicatePages(doc: Raw, report: Report): void {
  if (!Array.isArray(doc.pages)) return;
  const seen = new Set<string>();
  const all = new Set(doc.pages.map((p: unknown) => (isObject(p) ? p.uuid : undefined)));
  doc.pages.forEach((page: unknown, i) => {
    if (!isObject(page) || typeof page.uuid !== 'string') return;
    let uuid = page.uuid;
    if (seen.has(uuid)) {
      uuid = freshId(uuid, all);
      all.add(uuid);
      page.uuid = uuid;
      report.add('DUPLICATE_PAGE', ['pages', i, 'uuid'], 'pages sharing an id were given their own');
    }
    seen.add(uuid);
  });
}

function freshId(id: string, taken: Set<unknown>): string {
  for (let n = 2; ; n++) {
    const candidate = `${id}~${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Gives every layer whose id was already used a fresh one, and points the references inside its own tree
 * (clip lists, panel neighbours, sketch, pose and tail links, the source layer of a generation) at the new id.
 * References stay as they are when the first holder of the id is in the same tree: there they are ambiguous.
 */
function repairDuplicateIds(doc: Raw, report: Report): void {
  const roots = layerRoots(doc);
  const taken = new Set<unknown>();
  const trees = roots.map(([root]) => layersOf(root));
  for (const tree of trees) for (const layer of tree) taken.add(layer.id);
  const firstRoot = new Map<string, number>();
  roots.forEach(([root, rootPath], r) => {
    const renamed = new Map<string, string>();
    for (const layer of trees[r]!) {
      const id = idOf(layer);
      if (id === null) continue;
      const first = firstRoot.get(id);
      if (first === undefined) {
        firstRoot.set(id, r);
        continue;
      }
      const fresh = freshId(id, taken);
      taken.add(fresh);
      layer.id = fresh;
      if (first !== r && !renamed.has(id)) renamed.set(id, fresh);
      const path = pathTo(root, layer, rootPath) ?? rootPath;
      report.add('DUPLICATE_ID', [...path, 'id'], 'layers sharing an id were given their own');
    }
    if (renamed.size > 0) for (const layer of trees[r]!) remapReferences(layer, renamed);
  });
}

function remapReferences(layer: Raw, renamed: Map<string, string>): void {
  const map = (id: unknown) => (typeof id === 'string' ? (renamed.get(id) ?? id) : id);
  if (Array.isArray(layer.clippedLayers)) layer.clippedLayers = layer.clippedLayers.map(map);
  if (!isObject(layer.data)) return;
  const data = { ...layer.data };
  for (const key of ['imgLayerId', 'pairedLayerId', 'tailTargetLayerId', 'linkedBubbleId'] as const) {
    if (key in data) data[key] = map(data[key]);
  }
  if (isObject(data.neighborPanels)) {
    const sides: Raw = { ...data.neighborPanels };
    for (const side of ['left', 'right', 'top', 'bottom']) {
      const list = sides[side];
      if (Array.isArray(list)) sides[side] = list.map(map);
    }
    data.neighborPanels = sides;
  }
  if (isObject(data.params) && 'srcLayerId' in data.params) {
    data.params = { ...data.params, srcLayerId: map(data.params.srcLayerId) };
  }
  layer.data = data;
}

/** `lastPage` is where the editor opens; one past the pages (a removed page) opens the last one. */
function repairLastPage(doc: Raw, report: Report): void {
  if (!Array.isArray(doc.pages) || doc.pages.length === 0) return;
  const last = doc.lastPage;
  if (isNumber(last) && Number.isInteger(last) && last >= doc.pages.length) {
    doc.lastPage = doc.pages.length - 1;
    report.add(
      'LAST_PAGE',
      ['lastPage'],
      `lastPage named a page that does not exist and now names page ${doc.pages.length}`,
    );
  }
}

/**
 * Linked speech bubbles name each other and live in the same tree (a page, or the canvas). A link to a layer that
 * is missing, is not a text layer, is the bubble itself or does not link back is dropped, so no half-linked pair is
 * ever drawn; a value of the wrong type is left for validation to refuse with the field's name.
 */
function repairBubbleLinks(doc: Raw, report: Report): void {
  for (const [root, rootPath] of layerRoots(doc)) {
    const texts = new Map<string, Raw>();
    const tree = layersOf(root);
    for (const layer of tree) {
      const id = idOf(layer);
      if (id !== null && layer.type === 'TEXT' && isObject(layer.data)) texts.set(id, layer);
    }
    for (const layer of tree) {
      if (layer.type !== 'TEXT' || !isObject(layer.data)) continue;
      const link = layer.data.linkedBubbleId;
      if (typeof link !== 'string') continue;
      const partner = texts.get(link);
      const back = partner && isObject(partner.data) ? partner.data.linkedBubbleId : undefined;
      if (partner && partner !== layer && back === layer.id) continue;
      layer.data = { ...layer.data, linkedBubbleId: null };
      const path = pathTo(root, layer, rootPath) ?? rootPath;
      report.add('BUBBLE_LINK', [...path, 'data', 'linkedBubbleId'], 'links to bubbles that are gone were dropped');
    }
  }
}
