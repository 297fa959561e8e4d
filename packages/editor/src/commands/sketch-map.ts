import { COMPOSITE_MAX_SIDE, MAX_BRUSHES, SKETCH_MAP_BRUSH_RADIUS, zColor } from '@koma/domain';
import { CommandError, defineCommand } from './command.ts';

export interface SketchMapBrushPatch {
  color?: string;
  radius?: number;
  prompt?: string;
  negativePrompt?: string;
}

function checkRadius(radius: number): void {
  if (!Number.isFinite(radius) || radius <= 0 || radius > COMPOSITE_MAX_SIDE) {
    throw new CommandError(`Brush radius must be above 0 and at most ${COMPOSITE_MAX_SIDE}`);
  }
}

function checkPatch(patch: SketchMapBrushPatch): void {
  if (patch.color !== undefined && !zColor.safeParse(patch.color).success) {
    throw new CommandError(`Not a colour: ${patch.color}`);
  }
  if (patch.radius !== undefined) checkRadius(patch.radius);
}

function checkIndex(count: number, index: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= count) throw new CommandError(`No brush ${index + 1}`);
}

/** Adds a sketch-map brush (radius 80 unless given); returns its index. */
export const addSketchMapBrush = defineCommand('Add brush', (doc, args: SketchMapBrushPatch & { color: string }) => {
  if (doc.sketchMap.brushes.length >= MAX_BRUSHES) throw new CommandError(`At most ${MAX_BRUSHES} brushes`);
  checkPatch(args);
  doc.sketchMap.brushes.push({
    color: args.color,
    radius: args.radius ?? SKETCH_MAP_BRUSH_RADIUS,
    prompt: args.prompt ?? '',
    negativePrompt: args.negativePrompt ?? '',
    strokes: [],
  });
  return doc.sketchMap.brushes.length - 1;
});

export const updateSketchMapBrush = defineCommand(
  'Edit brush',
  (doc, args: { index: number; patch: SketchMapBrushPatch }) => {
    checkIndex(doc.sketchMap.brushes.length, args.index);
    checkPatch(args.patch);
    Object.assign(doc.sketchMap.brushes[args.index]!, args.patch);
  },
);

export const removeSketchMapBrush = defineCommand('Remove brush', (doc, args: { index: number }) => {
  checkIndex(doc.sketchMap.brushes.length, args.index);
  doc.sketchMap.brushes.splice(args.index, 1);
});

/** Wipes a brush's strokes, keeping the brush and its prompts. */
export const clearSketchMapBrush = defineCommand('Clear brush', (doc, args: { index: number }) => {
  checkIndex(doc.sketchMap.brushes.length, args.index);
  doc.sketchMap.brushes[args.index]!.strokes = [];
});

export const setSketchMapBackground = defineCommand('Background prompt', (doc, args: { prompt: string }) => {
  doc.sketchMap.backgroundPrompt = args.prompt;
});

export interface SketchMapStrokeArgs {
  index: number;
  /** Flat x, y pairs as fractions of the generation frame. */
  points: number[];
  /** In pixels of the generated image. */
  radius: number;
  erase?: boolean;
  /** The colour of the brush this stroke creates when `index` is one past the last brush. */
  color?: string;
}

/**
 * One stroke of a sketch-map brush (an erasing one clears that brush only). An index one past the last adds the
 * brush in the same step. Made for gestures: the args carry the whole stroke so far.
 */
export const addSketchMapStroke = defineCommand('Sketch-map stroke', (doc, args: SketchMapStrokeArgs, ctx) => {
  if (args.points.length < 2 || args.points.length % 2 !== 0 || !args.points.every(Number.isFinite)) {
    throw new CommandError('A stroke needs at least one point');
  }
  checkRadius(args.radius);
  if (args.index === doc.sketchMap.brushes.length) {
    if (!args.color) throw new CommandError('A new brush needs a colour');
    addSketchMapBrush.run(doc, { color: args.color, radius: args.radius }, ctx);
  }
  checkIndex(doc.sketchMap.brushes.length, args.index);
  doc.sketchMap.brushes[args.index]!.strokes.push({
    points: [...args.points],
    radius: args.radius,
    erase: args.erase ?? false,
  });
});
