import { z } from 'zod';
import { zSize, zTransform, type Size, type Transform } from './geometry.ts';
import { zImageData, type ImageData } from './layers/image.ts';
import { zTextData, type TextData } from './layers/text.ts';
import { zPanelData, type PanelData } from './layers/panel.ts';
import { zPoseData, type PoseData } from './layers/pose.ts';
import { zSketchData, type SketchData } from './layers/sketch.ts';
import { zFillData, zGroupData, type FillData, type GroupData } from './layers/fill.ts';

/** Layer types that exist today. */
export const LAYER_TYPES = ['GROUP', 'IMAGE', 'TEXT', 'PANEL', 'POSE', 'SKETCH', 'FILL'] as const;
export type LayerType = (typeof LAYER_TYPES)[number];
/** Older layer types that are dropped when a document is loaded. */
export const DROPPED_LAYER_TYPES = ['REGIONAL', 'REGIONAL_PROMPT'] as const;

export interface LayerDataByType {
  GROUP: GroupData;
  IMAGE: ImageData;
  TEXT: TextData;
  PANEL: PanelData;
  POSE: PoseData;
  SKETCH: SketchData;
  FILL: FillData;
}

/** How a layer's pixels mix with what is under it (the PSD modes of the same names). */
export const BLEND_MODES = ['normal', 'multiply', 'screen', 'overlay', 'darken', 'lighten'] as const;
export type BlendMode = (typeof BLEND_MODES)[number];

/**
 * How a layer looks apart from its own data (document version 2): opacity and blend mode for every drawable layer,
 * rotation (degrees, clockwise, about the box centre) and flips for images, text and poses. Optional in the type so
 * that code building layers by hand stays valid; the schema fills the defaults on every load.
 */
export interface LayerAppearance {
  /** 0..1. */
  opacity?: number;
  blendMode?: BlendMode;
  rotation?: number;
  flipX?: boolean;
  flipY?: boolean;
}

interface LayerCommon extends LayerAppearance {
  id: string;
  name: string;
  transform: Transform;
  originalSize: Size;
  visible: boolean;
  locked: boolean;
  /** Ids of the sibling layers clipped to this one. */
  clippedLayers: string[];
  /** Only GROUP layers have children; every other type saves an empty list. */
  children: Layer[];
}

export type LayerOf<T extends LayerType> = LayerCommon & { type: T; data: LayerDataByType[T] };
/** A layer in the saved form of editor.md §3. */
export type Layer = { [T in LayerType]: LayerOf<T> }[LayerType];
export type GroupLayer = LayerOf<'GROUP'>;

const common = {
  id: z.string().min(1),
  name: z.string().default(''),
  transform: zTransform,
  originalSize: zSize,
  visible: z.boolean().default(true),
  locked: z.boolean().default(false),
  clippedLayers: z.array(z.string()).default([]),
  opacity: z.number().min(0).max(1).default(1),
  blendMode: z.enum(BLEND_MODES).default('normal'),
  rotation: z.number().finite().default(0),
  flipX: z.boolean().default(false),
  flipY: z.boolean().default(false),
};

const leafChildren = z.array(z.never()).max(0, 'only GROUP layers have children').default([]);

/** The layer union with a GROUP's children checked by `children` (the tree below, or nothing). */
function layerUnion<C extends z.ZodTypeAny>(children: C) {
  return z.discriminatedUnion('type', [
    z.object({
      ...common,
      type: z.literal('GROUP'),
      children: z.array(children).default([]),
      data: zGroupData.default({}),
    }),
    z.object({ ...common, type: z.literal('IMAGE'), children: leafChildren, data: zImageData }),
    z.object({ ...common, type: z.literal('TEXT'), children: leafChildren, data: zTextData }),
    z.object({ ...common, type: z.literal('PANEL'), children: leafChildren, data: zPanelData }),
    z.object({ ...common, type: z.literal('POSE'), children: leafChildren, data: zPoseData }),
    z.object({ ...common, type: z.literal('SKETCH'), children: leafChildren, data: zSketchData }),
    z.object({ ...common, type: z.literal('FILL'), children: leafChildren, data: zFillData }),
  ]);
}

export const zLayer: z.ZodType<Layer> = z.lazy(() => layerUnion(zLayer));

/**
 * One layer's own fields, validated exactly as `zLayer` does, with a GROUP's children taken as they are (not
 * checked). The server's incremental save validation (document/incremental.ts) checks each changed layer with it
 * and its changed children one by one, instead of the whole tree below.
 */
export const zLayerShallow = layerUnion(z.unknown());

export const zGroupLayer = zLayer.refine(
  (l) => l.type === 'GROUP',
  'the root layer must be a GROUP',
) as z.ZodType<GroupLayer>;

/** Every layer below (and including) `root`, depth first, parents before children. */
export function* walkLayers(root: Layer): Generator<Layer> {
  yield root;
  for (const child of root.children) yield* walkLayers(child);
}
