import { z } from 'zod';
import { zColor } from '../geometry.ts';

/** A solid colour fill over the layer's rectangle. */
export const zFillData = z.object({ color: zColor.default('#ffffff') });
export type FillData = z.infer<typeof zFillData>;

export const zGroupData = z.object({});
export type GroupData = z.infer<typeof zGroupData>;
