import { DOCUMENT_VERSION } from './workspace.ts';
import { DROPPED_LAYER_TYPES, LAYER_TYPES } from './layer.ts';
import { formatPath, type DocumentError } from './errors.ts';
import { defaultPageSetup } from './page-setup.ts';

type Raw = Record<string, unknown>;
type Path = (string | number)[];

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One step of the chain: upgrades a raw document from `from` to `from + 1`. */
interface Migration {
  from: number;
  migrate(doc: Raw): Raw;
}

/**
 * Version 0 is every document written before the format carried a version. It becomes version 1 unchanged
 * apart from the stamp: the legacy clean-up below runs on every load.
 */
const MIGRATIONS: readonly Migration[] = [
  { from: 0, migrate: (doc) => ({ ...doc, version: 1 }) },
  // Version 2 (issue 17): every layer states its appearance; version 1 layers looked as these defaults say.
  { from: 1, migrate: (doc) => ({ ...eachLayer(doc, withAppearance), version: 2 }) },
  // Version 3 (issue 23): the comic names its page setup; every earlier comic was the spec's page at its own
  // configured size, with no bleed.
  { from: 2, migrate: (doc) => ({ ...withSetup(doc), version: 3 }) },
];

/** Gives a comic configuration without a setup the default setup at its own width and height (the doc is a copy). */
function withSetup(doc: Raw): Raw {
  const config = doc.comicConfiguration;
  if (!isObject(config) || 'setup' in config) return doc;
  const size = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : undefined);
  const width = size(config.width);
  const height = size(config.height);
  config.setup = defaultPageSetup(width, height);
  if (width !== undefined) config.width = width;
  if (height !== undefined) config.height = height;
  return doc;
}

const APPEARANCE_DEFAULTS = { opacity: 1, blendMode: 'normal', rotation: 0, flipX: false, flipY: false };

function withAppearance(layer: Raw): void {
  for (const [key, value] of Object.entries(APPEARANCE_DEFAULTS)) if (!(key in layer)) layer[key] = value;
}

/** Applies `change` to every layer object of the document in place (the document is the caller's private copy). */
function eachLayer(doc: Raw, change: (layer: Raw) => void): Raw {
  const visit = (layer: unknown) => {
    if (!isObject(layer)) return;
    change(layer);
    if (Array.isArray(layer.children)) layer.children.forEach(visit);
  };
  visit(doc.rootLayer);
  if (Array.isArray(doc.pages)) for (const page of doc.pages) if (isObject(page)) visit(page.rootLayer);
  return doc;
}

const READING_ORDER_SPELLINGS: Record<string, string> = {
  'left-to-right': 'LEFT_TO_RIGHT',
  'right-to-left': 'RIGHT_TO_LEFT',
  LEFT_TO_RIGHT: 'LEFT_TO_RIGHT',
  RIGHT_TO_LEFT: 'RIGHT_TO_LEFT',
};

/** Maps either spelling of a reading order onto the saved one; anything else is returned unchanged for the schema to refuse. */
export function normalizeReadingOrder(value: unknown): unknown {
  return typeof value === 'string' ? (READING_ORDER_SPELLINGS[value] ?? value) : value;
}

const dropped = new Set<string>(DROPPED_LAYER_TYPES);
const known = new Set<string>(LAYER_TYPES);

/**
 * Drops REGIONAL and REGIONAL_PROMPT layers (and references to them) and fails on any other unknown type.
 * Works on a private copy: the caller's object is never changed.
 */
function cleanLayer(layer: unknown, path: Path, droppedIds: Set<string>, origins: ChildOrigins): DocumentError | null {
  if (!isObject(layer)) return null; // the schema names the path of a malformed layer
  if (isObject(layer.data) && 'readingOrder' in layer.data) {
    layer.data.readingOrder = normalizeReadingOrder(layer.data.readingOrder);
  }
  if (!Array.isArray(layer.children)) return null;
  const kept: unknown[] = [];
  const keptFrom: number[] = [];
  for (let i = 0; i < layer.children.length; i++) {
    const child: unknown = layer.children[i];
    const childPath = [...path, 'children', i];
    if (isObject(child) && typeof child.type === 'string') {
      if (dropped.has(child.type)) {
        if (typeof child.id === 'string') droppedIds.add(child.id);
        continue;
      }
      if (!known.has(child.type)) {
        return {
          code: 'UNKNOWN_LAYER_TYPE',
          message: `Unknown layer type "${child.type}" at ${formatPath([...childPath, 'type'])}`,
          path: formatPath([...childPath, 'type']),
        };
      }
    }
    const error = cleanLayer(child, childPath, droppedIds, origins);
    if (error) return error;
    kept.push(child);
    keptFrom.push(i);
  }
  const droppedHere = kept.length !== layer.children.length;
  layer.children = kept;
  if (droppedHere) origins.set(kept, keptFrom);
  return null;
}

function forgetDropped(layer: unknown, droppedIds: Set<string>): void {
  if (!isObject(layer)) return;
  if (Array.isArray(layer.clippedLayers)) {
    layer.clippedLayers = layer.clippedLayers.filter((id) => !(typeof id === 'string' && droppedIds.has(id)));
  }
  if (Array.isArray(layer.children)) for (const child of layer.children) forgetDropped(child, droppedIds);
}

/** For each children list that lost dropped layers, the original index of every child kept. */
export type ChildOrigins = WeakMap<unknown[], number[]>;

/** Maps a path in the cleaned document back to the same place in the document as it was given. */
export function originalPath(doc: unknown, path: readonly PropertyKey[], origins: ChildOrigins): PropertyKey[] {
  const out: PropertyKey[] = [];
  let node: unknown = doc;
  for (const key of path) {
    let shown = key;
    if (Array.isArray(node) && typeof key === 'number') shown = origins.get(node)?.[key] ?? key;
    out.push(shown);
    node = isObject(node) || Array.isArray(node) ? (node as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return out;
}

/**
 * Copies the objects the clean-up may change (the document, its comic configuration, pages and every layer with its
 * children and clip lists) and shares everything else: layer payloads can be megabytes of strokes and parameters,
 * and deep-copying them cost more than validating them.
 */
function copyContainers(raw: Raw): Raw {
  const copyLayer = (layer: unknown): unknown => {
    if (!isObject(layer)) return layer;
    const copy: Raw = { ...layer };
    if (isObject(copy.data) && 'readingOrder' in copy.data) copy.data = { ...copy.data };
    if (Array.isArray(copy.children)) copy.children = copy.children.map(copyLayer);
    if (Array.isArray(copy.clippedLayers)) copy.clippedLayers = [...(copy.clippedLayers as unknown[])];
    return copy;
  };
  const doc: Raw = { ...raw, rootLayer: copyLayer(raw.rootLayer) };
  if (isObject(raw.comicConfiguration)) doc.comicConfiguration = { ...raw.comicConfiguration };
  if (Array.isArray(raw.pages)) {
    doc.pages = raw.pages.map((page: unknown) =>
      isObject(page) ? { ...page, rootLayer: copyLayer(page.rootLayer) } : page,
    );
  }
  return doc;
}

/** Brings a raw saved document to the current version; returns a new object or an error naming the path. */
export function upgrade(
  raw: unknown,
  origins: ChildOrigins = new WeakMap(),
): { ok: true; value: Raw } | { ok: false; error: DocumentError } {
  if (!isObject(raw)) {
    return { ok: false, error: { code: 'NOT_AN_OBJECT', message: 'A workspace document must be an object', path: '' } };
  }
  let doc = copyContainers(raw);
  const version = doc.version ?? 0;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    return { ok: false, error: { code: 'INVALID_FIELD', message: 'version must be a whole number', path: 'version' } };
  }
  if (version > DOCUMENT_VERSION) {
    return {
      ok: false,
      error: {
        code: 'UNSUPPORTED_VERSION',
        message: `Document version ${version} is newer than this app understands (${DOCUMENT_VERSION})`,
        path: 'version',
      },
    };
  }
  for (const step of MIGRATIONS) if (step.from >= version && step.from < DOCUMENT_VERSION) doc = step.migrate(doc);

  // A version 3 document written without its setup gets the default one at its size, like an older document.
  doc = withSetup(doc);
  if (isObject(doc.comicConfiguration)) {
    doc.comicConfiguration.readingOrder = normalizeReadingOrder(doc.comicConfiguration.readingOrder);
  }
  const roots: [unknown, Path][] = [[doc.rootLayer, ['rootLayer']]];
  if (Array.isArray(doc.pages)) {
    doc.pages.forEach((page: unknown, i) => {
      if (isObject(page)) roots.push([page.rootLayer, ['pages', i, 'rootLayer']]);
    });
  }
  const droppedIds = new Set<string>();
  for (const [root, path] of roots) {
    if (isObject(root) && typeof root.type === 'string' && !known.has(root.type)) {
      const at = formatPath([...path, 'type']);
      return {
        ok: false,
        error: { code: 'UNKNOWN_LAYER_TYPE', message: `Unknown layer type "${root.type}" at ${at}`, path: at },
      };
    }
    const error = cleanLayer(root, path, droppedIds, origins);
    if (error) return { ok: false, error };
  }
  if (droppedIds.size > 0) for (const [root] of roots) forgetDropped(root, droppedIds);
  return { ok: true, value: doc };
}
