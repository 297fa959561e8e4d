import type { Size, Transform } from '../document/geometry.ts';

/** How far outpaint extends each side when the user changes nothing (the editor's former fixed padding). */
export const OUTPAINT_DEFAULT_PADDING = 128;
/** Paddings are multiples of 8: latent diffusion works on 8-pixel blocks. */
export const OUTPAINT_PADDING_STEP = 8;
/** At most this many pixels per side: a 1024 image grows to at most 3072, past that the new area is mostly guess. */
export const OUTPAINT_MAX_PADDING = 1024;

export const OUTPAINT_SIDES = ['left', 'right', 'top', 'bottom'] as const;
export type OutpaintSide = (typeof OUTPAINT_SIDES)[number];
export type OutpaintPadding = Record<OutpaintSide, number>;

export const DEFAULT_OUTPAINT_PADDING: Readonly<OutpaintPadding> = {
  left: OUTPAINT_DEFAULT_PADDING,
  right: OUTPAINT_DEFAULT_PADDING,
  top: OUTPAINT_DEFAULT_PADDING,
  bottom: OUTPAINT_DEFAULT_PADDING,
};

/** A typed side length as the request takes it: the nearest multiple of 8 within 0..max; not a number gives 0. */
export function snapOutpaintPadding(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const snapped = Math.round(value / OUTPAINT_PADDING_STEP) * OUTPAINT_PADDING_STEP;
  return Math.min(OUTPAINT_MAX_PADDING, Math.max(0, snapped));
}

/** Every side snapped; sides left out keep the default. */
export function normalizeOutpaintPadding(padding: Partial<OutpaintPadding>): OutpaintPadding {
  const out = { ...DEFAULT_OUTPAINT_PADDING };
  for (const side of OUTPAINT_SIDES) {
    const value = padding[side];
    if (value !== undefined) out[side] = snapOutpaintPadding(value);
  }
  return out;
}

/** The server refuses an outpaint that extends nothing. */
export function extendsSomething(padding: OutpaintPadding): boolean {
  return OUTPAINT_SIDES.some((side) => padding[side] > 0);
}

/**
 * Where the outpainted image lands: the layer's box grown by the padding, the padding (image pixels) scaled
 * the way the layer scales its image, so the original part stays exactly over the source layer.
 */
export function outpaintedTransform(transform: Transform, originalSize: Size, padding: OutpaintPadding): Transform {
  const sx = originalSize.width > 0 ? transform.size.width / originalSize.width : 1;
  const sy = originalSize.height > 0 ? transform.size.height / originalSize.height : 1;
  return {
    x: transform.x - padding.left * sx,
    y: transform.y - padding.top * sy,
    size: {
      width: transform.size.width + (padding.left + padding.right) * sx,
      height: transform.size.height + (padding.top + padding.bottom) * sy,
    },
  };
}
