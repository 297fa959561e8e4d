import { BRUSH_SIZE_MAX, BRUSH_SIZE_MIN, zColor } from '@koma/domain';
import { CommandError, defineCommand } from './command.ts';
import { getLayerOf } from './helpers.ts';

export interface StrokeArgs {
  id: string;
  color: string;
  radius: number;
  /** Flat x, y pairs in the sketch layer's own units. */
  points: number[];
  erase?: boolean;
}

/** Adds one stroke to a sketch; strokes of the same colour and radius share a brush entry. */
export const addSketchStroke = defineCommand('Sketch stroke', (doc, args: StrokeArgs) => {
  const node = getLayerOf(doc, args.id, 'SKETCH');
  if (node.locked) throw new CommandError('Layer is locked');
  if (!zColor.safeParse(args.color).success) throw new CommandError(`Not a colour: ${args.color}`);
  if (args.radius < BRUSH_SIZE_MIN || args.radius > BRUSH_SIZE_MAX) {
    throw new CommandError(`Brush size must be within ${BRUSH_SIZE_MIN} to ${BRUSH_SIZE_MAX}`);
  }
  if (args.points.length < 2 || args.points.length % 2 !== 0 || !args.points.every(Number.isFinite)) {
    throw new CommandError('A stroke needs at least one point');
  }
  let brush = node.data.brushes.find((b) => b.color === args.color && b.radius === args.radius);
  if (!brush) {
    brush = { color: args.color, radius: args.radius, strokes: [] };
    node.data.brushes.push(brush);
  }
  brush.strokes.push({ points: [...args.points], radius: args.radius, erase: args.erase ?? false });
});
