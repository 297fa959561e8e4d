/** Spec §9: upscale factor 2. */
export const UPSCALE_FACTOR = 2;

/** Upscaling doubles each side: inputs are held to 4096 px and 16 MP so the output stays within 64 MP. */
export const UPSCALE_MAX_SIDE = 4096;
export const UPSCALE_MAX_PIXELS = 16_000_000;
