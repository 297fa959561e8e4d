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
  position: z.number().int().min(0).default(0),
  neighborPanels: zNeighborPanels.default(() => ({ left: [], right: [], top: [], bottom: [] })),
  ignoreNeighbors: z.boolean().default(false),
  description: z.string().default(''),
});
export type PanelData = z.infer<typeof zPanelData>;
