// Regional and brush-based (sketch-map) requests built from what the generation tabs keep, checked the way the
// server checks them (generation.md §5: every prompt there needs at least one character) so an empty field is named
// before anything is sent or charged.
import type { RegionalPrompt, SketchMapBrush } from '../../document/settings.ts';
import { MAX_BRUSHES, MAX_REGIONS } from '../requests/fields.ts';
import { paintedCount, rasteriseStrokes } from './brush-mask.ts';
import type { PixelSize } from './frame.ts';
import { regionCorners } from './regions.ts';

export type CompositeIssueCode =
  | 'prompt_empty'
  | 'no_regions'
  | 'too_many_regions'
  | 'region_not_drawn'
  | 'region_prompt_empty'
  | 'region_negative_empty'
  | 'background_prompt_empty'
  | 'background_negative_empty'
  | 'no_brush_painted'
  | 'too_many_brushes'
  | 'brush_prompt_empty';

/** A field that stops the request: `field` is the request's dotted path, `index` the region or brush (from 0). */
export interface CompositeIssue {
  code: CompositeIssueCode;
  field: string;
  index?: number;
}

export type Built<T> = { ok: true; request: T } | { ok: false; issues: CompositeIssue[] };

const blank = (s: string) => s.trim() === '';

// Type aliases, not interfaces: a payload must fit `Record<string, unknown>` where requests are sent.
export type RegionalRequestBody = {
  prompt: string;
  width: number;
  height: number;
  regions: { x0: number; x1: number; y0: number; y1: number; prompt: string; negative_prompt: string }[];
  seed: number;
};

/** POST /api/regional from the prompt of the prompt tab and the regions, drawn in a frame of `pixels`. */
export function buildRegionalRequest(input: {
  prompt: string;
  regions: readonly RegionalPrompt[];
  pixels: PixelSize;
  seed: number;
}): Built<RegionalRequestBody> {
  const issues: CompositeIssue[] = [];
  if (blank(input.prompt)) issues.push({ code: 'prompt_empty', field: 'prompt' });
  if (input.regions.length === 0) issues.push({ code: 'no_regions', field: 'regions' });
  if (input.regions.length > MAX_REGIONS) issues.push({ code: 'too_many_regions', field: 'regions' });
  const regions: RegionalRequestBody['regions'] = [];
  input.regions.forEach((region, index) => {
    const corners = region.rect ? regionCorners(region.rect, input.pixels) : null;
    if (!corners) issues.push({ code: 'region_not_drawn', field: `regions.${index}`, index });
    if (blank(region.prompt)) issues.push({ code: 'region_prompt_empty', field: `regions.${index}.prompt`, index });
    if (blank(region.negativePrompt)) {
      issues.push({ code: 'region_negative_empty', field: `regions.${index}.negative_prompt`, index });
    }
    if (corners) {
      regions.push({ ...corners, prompt: region.prompt.trim(), negative_prompt: region.negativePrompt.trim() });
    }
  });
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    request: {
      prompt: input.prompt.trim(),
      width: input.pixels.width,
      height: input.pixels.height,
      regions,
      seed: input.seed,
    },
  };
}

export type SmdRequestBody = {
  backgroundPrompt: string;
  backgroundNegativePrompt: string;
  brushes: { prompt: string; negativePrompt: string; mask: string }[];
  seed: number;
  width: number;
  height: number;
};

/**
 * POST /api/diffusion/smd from the sketch map. Each brush that painted something goes with its mask (rasterised at
 * the frame's pixel size and turned into an image by `encodeMask`); a brush with nothing painted is left out.
 */
export function buildSmdRequest(
  input: {
    backgroundPrompt: string;
    backgroundNegativePrompt: string;
    brushes: readonly SketchMapBrush[];
    pixels: PixelSize;
    seed: number;
  },
  encodeMask: (mask: Uint8Array, size: PixelSize) => string,
): Built<SmdRequestBody> {
  const issues: CompositeIssue[] = [];
  if (blank(input.backgroundPrompt)) issues.push({ code: 'background_prompt_empty', field: 'backgroundPrompt' });
  if (blank(input.backgroundNegativePrompt)) {
    issues.push({ code: 'background_negative_empty', field: 'backgroundNegativePrompt' });
  }
  const painted: { index: number; brush: SketchMapBrush; mask: Uint8Array }[] = [];
  input.brushes.forEach((brush, index) => {
    if (brush.strokes.length === 0) return;
    const mask = rasteriseStrokes(brush.strokes, input.pixels);
    if (paintedCount(mask) === 0) return;
    if (blank(brush.prompt)) issues.push({ code: 'brush_prompt_empty', field: `brushes.${index}.prompt`, index });
    painted.push({ index, brush, mask });
  });
  if (painted.length === 0) issues.push({ code: 'no_brush_painted', field: 'brushes' });
  if (painted.length > MAX_BRUSHES) issues.push({ code: 'too_many_brushes', field: 'brushes' });
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    request: {
      backgroundPrompt: input.backgroundPrompt.trim(),
      backgroundNegativePrompt: input.backgroundNegativePrompt.trim(),
      brushes: painted.map(({ brush, mask }) => ({
        prompt: brush.prompt.trim(),
        negativePrompt: brush.negativePrompt.trim(),
        mask: encodeMask(mask, input.pixels),
      })),
      seed: input.seed,
      width: input.pixels.width,
      height: input.pixels.height,
    },
  };
}

/** Distinct colours for new regions and brushes, in the order they are handed out. */
export const COMPOSITE_PALETTE = [
  '#e8590c',
  '#1c7ed6',
  '#2f9e44',
  '#ae3ec9',
  '#f59f00',
  '#0ca678',
  '#e64980',
  '#5c7cfa',
] as const;

/** The first palette colour nobody uses yet (the palette again from the start once all are taken). */
export function nextCompositeColor(used: readonly string[]): string {
  const taken = new Set(used.map((c) => c.toLowerCase()));
  return COMPOSITE_PALETTE.find((c) => !taken.has(c)) ?? COMPOSITE_PALETTE[used.length % COMPOSITE_PALETTE.length]!;
}
