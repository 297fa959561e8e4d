import { z } from 'zod';

const finite = z.number().finite();

export const zPoint = z.object({ x: finite, y: finite });
export type Point = z.infer<typeof zPoint>;

export const zSize = z.object({ width: finite.min(0), height: finite.min(0) });
export type Size = z.infer<typeof zSize>;

/** A layer's placement: its top-left corner and its drawn size, in canvas units. */
export const zTransform = z.object({ x: finite, y: finite, size: zSize });
export type Transform = z.infer<typeof zTransform>;

export const zViewTransform = z.object({ x: finite, y: finite, zoom: finite.positive() });
export type ViewTransform = z.infer<typeof zViewTransform>;

export const DEFAULT_VIEW_TRANSFORM: ViewTransform = { x: 0, y: 0, zoom: 1 };

/** A vector stroke: flat [x0, y0, x1, y1, …] points in the owning layer's own units. */
export const zStroke = z.object({
  points: z.array(finite).refine((p) => p.length % 2 === 0, 'points must hold x,y pairs'),
  radius: finite.positive(),
  erase: z.boolean().default(false),
});
export type Stroke = z.infer<typeof zStroke>;

export const zColor = z
  .string()
  .regex(
    /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/,
    'a #rgb, #rgba, #rrggbb or #rrggbbaa colour',
  );
