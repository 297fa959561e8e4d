/** Spec §9: upscale factor 2. */
export const UPSCALE_FACTOR = 2;

/**
 * Upscaling doubles each side, and the result must be an image Koma keeps: inputs are held to 2048 px a side
 * (4.2 MP), so results stay within 4096 px a side (16.8 MP) — the largest image the editor and the store work
 * with comfortably. Anything larger is refused at submit, before any work or charge.
 */
export const UPSCALE_MAX_SIDE = 2048;
export const UPSCALE_MAX_PIXELS = UPSCALE_MAX_SIDE * UPSCALE_MAX_SIDE;

/** Tile edge in source pixels: each tile is one unit of work, of progress and of the time estimate. */
export const UPSCALE_TILE = 128;

/** How many tiles an image of this size is upscaled in. */
export function upscaleTiles(width: number, height: number): number {
  return Math.ceil(width / UPSCALE_TILE) * Math.ceil(height / UPSCALE_TILE);
}

/** Why an image of this size cannot be upscaled by `scale`, in words naming the sizes; null when it can. */
export function upscaleRefusal(width: number, height: number, scale: number): string | null {
  if (width <= UPSCALE_MAX_SIDE && height <= UPSCALE_MAX_SIDE && width * height <= UPSCALE_MAX_PIXELS) return null;
  const out = `${Math.round(width * scale)}×${Math.round(height * scale)}`;
  return (
    `image: ${width}×${height} px is too large to upscale: the result would be ${out} px; ` +
    `Koma upscales images up to ${UPSCALE_MAX_SIDE} px a side`
  );
}
