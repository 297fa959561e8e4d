import {
  DUPLICATE_OFFSET,
  boundsOf,
  createFillLayer,
  createImageLayer,
  createPanelLayer,
  createPoseLayer,
  createSketchLayer,
  createTextLayer,
  zTransform,
  type GenerationParams,
  type Layer,
  type TextData,
  type Transform,
} from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { CommandError, defineCommand } from './command.ts';
import { deleteLayer, getLayer, insertChild, pageBoundsFor, plainCopy, rootOf } from './helpers.ts';
import { renumberPanels, setVertices, unlinkNeighbors } from './panel-helpers.ts';
import { clipInto } from './clip.ts';

function toNode(layer: Layer): LayerNode {
  const { children: _children, ...rest } = layer;
  return { ...rest, parent: null, clipTarget: null, children: [] };
}

function checkTransform(transform: Transform): Transform {
  const parsed = zTransform.safeParse(transform);
  if (!parsed.success) throw new CommandError('The layer needs a position and a size of finite numbers');
  if (parsed.data.size.width <= 0 || parsed.data.size.height <= 0)
    throw new CommandError('A layer needs a size above zero');
  return parsed.data;
}

export interface AddImageArgs {
  parentId: string;
  transform: Transform;
  imageId?: string | null;
  params?: Partial<GenerationParams> | null;
  clipTo?: string;
  locked?: boolean;
  name?: string;
}

export const addImage = defineCommand('Add image', (doc, args: AddImageArgs, ctx) => {
  const id = ctx.ids();
  const layer = createImageLayer(id, checkTransform(args.transform), {
    variations: args.imageId ? [{ id: args.imageId }] : [],
    params: args.params ? (args.params as GenerationParams) : null,
  });
  if (args.name) layer.name = args.name;
  layer.locked = args.locked ?? false;
  insertChild(doc, args.parentId, toNode(layer));
  if (args.clipTo) clipInto(doc, id, args.clipTo);
  return id;
});

export const addPanel = defineCommand('Add panel', (doc, args: { parentId: string; transform: Transform }, ctx) => {
  const id = ctx.ids();
  const transform = checkTransform(args.transform);
  const page = pageBoundsFor(doc, args.parentId);
  const { x, y, size } = transform;
  if (page && (x < 0 || y < 0 || x + size.width > page.width || y + size.height > page.height)) {
    throw new CommandError('The panel must fit inside the page');
  }
  insertChild(doc, args.parentId, toNode(createPanelLayer(id, transform)));
  renumberPanels(doc, args.parentId);
  return id;
});

export const addPose = defineCommand(
  'Add pose',
  (doc, args: { parentId: string; transform: Transform; fullBody?: boolean }, ctx) => {
    const id = ctx.ids();
    insertChild(doc, args.parentId, toNode(createPoseLayer(id, checkTransform(args.transform), args.fullBody ?? true)));
    return id;
  },
);

export const addText = defineCommand(
  'Add text',
  (doc, args: { parentId: string; transform: Transform; data?: Partial<TextData> }, ctx) => {
    const id = ctx.ids();
    insertChild(doc, args.parentId, toNode(createTextLayer(id, checkTransform(args.transform), args.data)));
    return id;
  },
);

export const addSketch = defineCommand(
  'Add sketch',
  (doc, args: { parentId: string; transform: Transform; imgLayerId?: string | null }, ctx) => {
    const id = ctx.ids();
    insertChild(
      doc,
      args.parentId,
      toNode(createSketchLayer(id, checkTransform(args.transform), args.imgLayerId ?? null)),
    );
    return id;
  },
);

export const addFill = defineCommand(
  'Add fill',
  (doc, args: { parentId: string; transform: Transform; color?: string }, ctx) => {
    const id = ctx.ids();
    insertChild(doc, args.parentId, toNode(createFillLayer(id, checkTransform(args.transform), args.color)));
    return id;
  },
);

export const removeLayers = defineCommand('Remove layer', (doc, args: { ids: string[] }) => {
  if (args.ids.length === 0) throw new CommandError('No layer selected.');
  const roots = new Set<string>();
  for (const id of args.ids) {
    const node = doc.layers[id];
    if (!node) continue; // already removed with its group
    roots.add(rootOf(doc, id));
    if (node.type === 'PANEL') unlinkNeighbors(doc, node);
    deleteLayer(doc, id);
  }
  for (const root of roots) renumberPanels(doc, root);
});

export type RearrangeTarget = 'front' | 'back' | 'forward' | 'backward' | number;

/** Moves a layer within its parent; children run back to front, so the last child is drawn on top. */
export const rearrangeLayer = defineCommand('Rearrange layer', (doc, args: { id: string; to: RearrangeTarget }) => {
  const node = getLayer(doc, args.id);
  if (node.parent === null) throw new CommandError('The root layer cannot be moved');
  const parent = getLayer(doc, node.parent);
  const from = parent.children.indexOf(args.id);
  const last = parent.children.length - 1;
  const to =
    args.to === 'front'
      ? last
      : args.to === 'back'
        ? 0
        : args.to === 'forward'
          ? from + 1
          : args.to === 'backward'
            ? from - 1
            : args.to;
  if (!Number.isInteger(to)) throw new CommandError('The new index must be a whole number');
  const index = Math.min(Math.max(to, 0), last);
  if (index === from) return;
  parent.children.splice(from, 1);
  parent.children.splice(index, 0, args.id);
});

export const setVisibility = defineCommand('Change visibility', (doc, args: { ids: string[]; visible: boolean }) => {
  for (const id of args.ids) getLayer(doc, id).visible = args.visible;
});

export const setLocked = defineCommand('Lock layer', (doc, args: { ids: string[]; locked: boolean }) => {
  for (const id of args.ids) getLayer(doc, id).locked = args.locked;
});

export const renameLayer = defineCommand('Rename layer', (doc, args: { id: string; name: string }) => {
  const name = args.name.trim();
  if (name.length === 0 || name.length > 255) throw new CommandError('A layer name needs 1 to 255 characters');
  getLayer(doc, args.id).name = name;
});

/** Copies a layer (and, for a group, everything in it) 10 px down and right, just above the original. */
export const duplicateLayer = defineCommand('Duplicate layer', (doc: DocState, args: { id: string }, ctx) => {
  const source = getLayer(doc, args.id);
  if (source.parent === null) throw new CommandError('The root layer cannot be duplicated');
  const copy = (id: string, parent: string): string => {
    const node = getLayer(doc, id);
    const newId = ctx.ids();
    const clone: LayerNode = { ...plainCopy(node), children: [] };
    clone.id = newId;
    clone.parent = parent;
    clone.clippedLayers = [];
    clone.clipTarget = null;
    clone.transform.x += DUPLICATE_OFFSET;
    clone.transform.y += DUPLICATE_OFFSET;
    if (clone.type === 'PANEL') {
      clone.data.neighborPanels = { left: [], right: [], top: [], bottom: [] };
      const page = pageBoundsFor(doc, rootOf(doc, args.id));
      const box = boundsOf(clone.data.vertices);
      // Near the page edge the copy goes the other way, so that panels never leave their page.
      const shift = (start: number, size: number, limit: number | undefined) => {
        if (limit === undefined || start + size + DUPLICATE_OFFSET <= limit) return DUPLICATE_OFFSET;
        return start - DUPLICATE_OFFSET >= 0 ? -DUPLICATE_OFFSET : 0;
      };
      const dx = shift(box.x, box.width, page?.width);
      const dy = shift(box.y, box.height, page?.height);
      setVertices(
        clone,
        clone.data.vertices.map((p) => ({ x: p.x + dx, y: p.y + dy })),
      );
    }
    doc.layers[newId] = clone;
    clone.children = node.children.map((c) => copy(c, newId));
    return newId;
  };
  const parent = getLayer(doc, source.parent);
  const newId = copy(args.id, parent.id);
  parent.children.splice(parent.children.indexOf(args.id) + 1, 0, newId);
  if (source.clipTarget !== null) clipInto(doc, newId, source.clipTarget);
  if (source.type === 'PANEL') renumberPanels(doc, rootOf(doc, newId));
  return newId;
});
