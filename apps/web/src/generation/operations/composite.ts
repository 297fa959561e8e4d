// Regional prompting and brush-based (sketch-map) generation: built from the Regions and Sketch map sections of
// the Prompt tab (regional/), each into a new layer over the generation frame.
import type { WebOperation } from './types.ts';

export const regionalOperation: WebOperation = { id: 'regional', kinds: ['regional'] };
export const sketchMapOperation: WebOperation = { id: 'sketch_map', kinds: ['smd'] };
