// Generating into a panel: the picture is asked for at the panel's shape, so that it covers the panel with
// little cut away (a 1024×512 panel showed only 34 % of an 832×1216 result before).
import type { ModelType } from './model-types.ts';

/** txt2img sizes (generation.md §5): 512 to 1536 a side. */
export const GENERATION_MIN_SIDE = 512;
export const GENERATION_MAX_SIDE = 1536;

/** GPT Image takes three sizes only. */
const GPT_SIZES = [
  { width: 1024, height: 1024 },
  { width: 1536, height: 1024 },
  { width: 1024, height: 1536 },
] as const;

/** The side multiple an engine needs: latent diffusion works in 8-px latents, SDXL and FLUX best in 64-px steps. */
export function sizeMultipleFor(modelType: ModelType): number {
  return modelType === 'gpt' ? 512 : 64;
}

/**
 * The width and height to ask for so that the picture has the panel's aspect: about the pixel count of the
 * chosen size, in the model's multiple, within 512–1536 a side (a very long panel gets the longest side allowed).
 */
export function panelImageSize(
  panel: { width: number; height: number },
  chosen: { width: number; height: number },
  modelType: ModelType,
): { width: number; height: number } {
  const aspect = panel.width > 0 && panel.height > 0 ? panel.width / panel.height : 1;
  if (modelType === 'gpt') {
    // The size whose aspect is nearest the panel's (compared on a log scale, so 2:1 and 1:2 are as far from 1:1).
    let best: { width: number; height: number } = GPT_SIZES[0];
    for (const s of GPT_SIZES) {
      if (Math.abs(Math.log(s.width / s.height / aspect)) < Math.abs(Math.log(best.width / best.height / aspect)))
        best = s;
    }
    return { ...best };
  }
  const step = sizeMultipleFor(modelType);
  const area = Math.max(1, chosen.width * chosen.height);
  const snap = (v: number) => Math.min(GENERATION_MAX_SIDE, Math.max(GENERATION_MIN_SIDE, Math.round(v / step) * step));
  // Every allowed width with the height nearest its aspect; the shape counts four times as much as the size.
  let best = { width: snap(Math.sqrt(area)), height: snap(Math.sqrt(area)), score: Number.POSITIVE_INFINITY };
  for (let width = GENERATION_MIN_SIDE; width <= GENERATION_MAX_SIDE; width += step) {
    const height = snap(width / aspect);
    const score = 4 * Math.abs(Math.log(width / height / aspect)) + Math.abs(Math.log((width * height) / area));
    if (score < best.score) best = { width, height, score };
  }
  const { width, height } = best;
  return { width, height };
}
