import { z } from 'zod';
import { zColor, zStroke } from '../geometry.ts';
import { SKETCH_BRUSH_COLOR, SKETCH_BRUSH_RADIUS } from '../../constants.ts';

export const zSketchBrush = z.object({
  color: zColor.default(SKETCH_BRUSH_COLOR),
  radius: z.number().positive().default(SKETCH_BRUSH_RADIUS),
  strokes: z.array(zStroke).default([]),
});
export type SketchBrush = z.infer<typeof zSketchBrush>;

export const zSketchData = z.object({
  brushes: z.array(zSketchBrush).default([]),
  imgLayerId: z.string().nullable().default(null),
});
export type SketchData = z.infer<typeof zSketchData>;
