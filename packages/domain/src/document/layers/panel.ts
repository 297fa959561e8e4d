import { z } from 'zod';
import { zPoint } from '../geometry.ts';

export const zNeighborPanels = z.object({
  left: z.array(z.string()).default([]),
  right: z.array(z.string()).default([]),
  top: z.array(z.string()).default([]),
  bottom: z.array(z.string()).default([]),
});
export type NeighborPanels = z.infer<typeof zNeighborPanels>;
export type NeighborSide = keyof NeighborPanels;

/**
 * PANEL data. Vertices are in page coordinates, in the order top-left, top-right, bottom-right, bottom-left;
 * the layer transform is kept equal to their bounding box.
 */
export const zPanelData = z.object({
  vertices: z.array(zPoint).min(3, 'a panel needs at least 3 vertices'),
  border: z.boolean().default(true),
  /** Frame line width in page units (the spec's 5 px black frame is the default); drawn centred on the edges. */
  borderWidth: z
    .number()
    .finite()
    .min(0.5, 'borderWidth must be at least 0.5 px')
    .max(100, 'borderWidth must be at most 100 px')
    .default(5),
  /** Frame line colour as #rrggbb. */
  borderColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'borderColor must be a colour like #000000')
    .default('#000000'),
  position: z.number().int().min(0).default(0),
  neighborPanels: zNeighborPanels.default(() => ({ left: [], right: [], top: [], bottom: [] })),
  ignoreNeighbors: z.boolean().default(false),
  description: z.string().default(''),
});
export type PanelData = z.infer<typeof zPanelData>;
