// Effective resolution of placed pictures in print (issue 23): a picture of W source pixels printed over a box of
// B export pixels at D dpi prints at D × W / B pixels per inch. The PDF never upsamples beyond the source (a picture
// shown larger than its pixels is embedded at its own resolution, pdf-layers.ts), so such a picture prints softer
// than print needs, and the export says which pictures fall below it.

/** What print shops ask of placed pictures. */
export const MIN_PRINT_DPI = 300;

/** Pixels per inch a picture prints at: the lower of its two axes. */
export function effectiveDpi(
  source: { width: number; height: number },
  printed: { width: number; height: number },
  dpi: number,
): number {
  const along = (src: number, box: number) => (box > 0 ? (dpi * src) / box : Infinity);
  return Math.min(along(source.width, printed.width), along(source.height, printed.height));
}

export interface LowResolutionImage {
  page: number;
  name: string;
  dpi: number;
}

/** The pictures below `min` effective dpi, lowest first, their dpi rounded down. */
export function lowResolutionImages(
  placed: readonly (LowResolutionImage & { dpi: number })[],
  min = MIN_PRINT_DPI,
): LowResolutionImage[] {
  return placed
    .filter((p) => p.dpi < min)
    .map((p) => ({ ...p, dpi: Math.floor(p.dpi) }))
    .sort((a, b) => a.dpi - b.dpi || a.page - b.page);
}
