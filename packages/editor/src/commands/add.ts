import {
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
import type { LayerNode } from '../store/state.ts';
import { CommandError, defineCommand } from './command.ts';
import { insertChild, pageBoundsFor } from './helpers.ts';
import { renumberPanels } from './panel-helpers.ts';
import { clipInto } from './clip.ts';

/** The editor's node for a new saved-form layer (not yet linked into the tree). */
export function toNode(layer: Layer): LayerNode {
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
