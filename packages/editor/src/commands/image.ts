import {
  PANEL_GENERATE_KEEP_VARIATIONS,
  zFaceDetection,
  zFilterParams,
  type FaceDetection,
  type FilterParams,
  type GenerationParams,
} from '@koma/domain';
import { CommandError, defineCommand } from './command.ts';
import { getLayerOf } from './helpers.ts';

export const changeVariation = defineCommand('Change variation', (doc, args: { id: string; index: number }) => {
  const node = getLayerOf(doc, args.id, 'IMAGE');
  const count = node.data.variations.length;
  if (count === 0) throw new CommandError('The image has no variations');
  if (!Number.isInteger(args.index) || args.index < 0 || args.index >= count) {
    throw new CommandError(`Variation ${args.index} does not exist`);
  }
  node.data.variationsIdx = args.index;
});

/** The variation index one step left (-1) or right (+1) of the current one, wrapping around. */
export function cycledIndex(current: number, count: number, step: 1 | -1): number {
  return (((current + step) % count) + count) % count;
}

export interface AddVariationsArgs {
  id: string;
  imageIds: string[];
  params?: GenerationParams;
  /** Keep only the newest N variations (panel generation keeps 4). */
  keepLast?: number;
  /**
   * A new box for the layer, for pictures of another shape than the ones it had (a panel's image is fitted to
   * cover its panel at the new pictures' aspect); applied even to a locked layer, as placing a result is.
   */
  transform?: { x: number; y: number; size: { width: number; height: number } };
}

/** Appends generated variations and shows the first new one. */
export const addVariations = defineCommand('Add variations', (doc, args: AddVariationsArgs) => {
  const node = getLayerOf(doc, args.id, 'IMAGE');
  if (args.imageIds.length === 0) throw new CommandError('No images to add');
  const firstNew = node.data.variations.length;
  node.data.variations.push(...args.imageIds.map((id) => ({ id })));
  let show = firstNew;
  const keep = args.keepLast ?? Infinity;
  if (node.data.variations.length > keep) {
    const drop = node.data.variations.length - keep;
    const dropped = node.data.variations.splice(0, drop);
    for (const v of dropped) delete node.data.faceStore[v.id];
    show = Math.max(0, firstNew - drop);
  }
  node.data.variationsIdx = show;
  if (args.params) node.data.params = args.params;
  if (args.transform) {
    const { x, y, size } = args.transform;
    if (![x, y, size.width, size.height].every(Number.isFinite) || size.width <= 0 || size.height <= 0) {
      throw new CommandError('The new box must be finite and not empty');
    }
    node.transform = { x, y, size: { width: size.width, height: size.height } };
  }
});

/**
 * Settles a set of results (the results tray): drops the variations listed, keeps the others, and shows `show`
 * (or the nearest kept one). One undo step; at least one variation stays.
 */
export const keepVariations = defineCommand(
  'Keep results',
  (doc, args: { id: string; drop: readonly string[]; show?: string }) => {
    const node = getLayerOf(doc, args.id, 'IMAGE');
    const drop = new Set(args.drop);
    const kept = node.data.variations.filter((v) => !drop.has(v.id));
    if (kept.length === 0) throw new CommandError('At least one result must stay');
    const shown = node.data.variations[node.data.variationsIdx]?.id;
    for (const v of node.data.variations) if (drop.has(v.id)) delete node.data.faceStore[v.id];
    node.data.variations = kept;
    const target = args.show ?? shown;
    const at = kept.findIndex((v) => v.id === target);
    node.data.variationsIdx = at >= 0 ? at : Math.min(node.data.variationsIdx, kept.length - 1);
  },
);

export { PANEL_GENERATE_KEEP_VARIATIONS };

/** Replaces the shown variation's image (background removal); undo brings the original back. */
export const swapVariationImage = defineCommand('Remove background', (doc, args: { id: string; imageId: string }) => {
  const node = getLayerOf(doc, args.id, 'IMAGE');
  const current = node.data.variations[node.data.variationsIdx];
  if (!current) throw new CommandError('The image has no variations');
  node.data.variations[node.data.variationsIdx] = { id: args.imageId };
});

/** Drops a variation that failed to load and keeps the index inside the list. */
export const dropVariation = defineCommand('Drop variation', (doc, args: { id: string; index: number }) => {
  const node = getLayerOf(doc, args.id, 'IMAGE');
  const [dropped] = node.data.variations.splice(args.index, 1);
  if (!dropped) throw new CommandError(`Variation ${args.index} does not exist`);
  delete node.data.faceStore[dropped.id];
  node.data.variationsIdx = Math.min(node.data.variationsIdx, Math.max(0, node.data.variations.length - 1));
});

export const setFaces = defineCommand(
  'Detect faces',
  (doc, args: { id: string; variationId: string; faces: FaceDetection[] }) => {
    const node = getLayerOf(doc, args.id, 'IMAGE');
    if (!node.data.variations.some((v) => v.id === args.variationId)) {
      throw new CommandError('The variation does not belong to this image');
    }
    node.data.faceStore[args.variationId] = args.faces.map((f) => zFaceDetection.parse(f));
  },
);

export const setImageParams = defineCommand(
  'Change generation settings',
  (doc, args: { id: string; params: GenerationParams | null }) => {
    getLayerOf(doc, args.id, 'IMAGE').data.params = args.params;
  },
);

/** Adds an inpaint-mask stroke (points in the image's own pixel space) to an image layer. */
export const addMaskStroke = defineCommand(
  'Paint mask',
  (doc, args: { id: string; points: number[]; radius: number; erase?: boolean }) => {
    const node = getLayerOf(doc, args.id, 'IMAGE');
    if (args.points.length < 2 || args.points.length % 2 !== 0 || !args.points.every(Number.isFinite)) {
      throw new CommandError('A stroke needs at least one point');
    }
    if (!(args.radius > 0)) throw new CommandError('The brush needs a size');
    node.data.maskParams.mask.push({ points: [...args.points], radius: args.radius, erase: args.erase ?? false });
  },
);

export const clearMask = defineCommand('Clear mask', (doc, args: { id: string }) => {
  const node = getLayerOf(doc, args.id, 'IMAGE');
  if (node.data.maskParams.mask.length === 0) return;
  node.data.maskParams.mask = [];
});

/** Changes image adjustments (exposure, contrast, …); a slider drag runs it as one gesture. */
export const setFilterParams = defineCommand(
  'Adjust image',
  (doc, args: { id: string; patch: Partial<FilterParams> }) => {
    const node = getLayerOf(doc, args.id, 'IMAGE');
    const parsed = zFilterParams.safeParse({ ...node.data.filterParams, ...args.patch });
    if (!parsed.success) throw new CommandError(`Image adjustments: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    node.data.filterParams = parsed.data;
  },
);
