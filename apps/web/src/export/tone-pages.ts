import { PRINT_DPI, halftone, toGrey, type Raster } from '@koma/editor';

/** How the PDF's pages are inked: as drawn, in greys, or in pure black and white dots for a one-ink press. */
export type PageTone = { kind: 'colour' } | { kind: 'grey' } | { kind: 'screentone'; lpi: number; angle: number };

/** A composed page re-inked as `tone` asks (the colour page is returned as it is). */
export function toneRaster(raster: Raster, tone: PageTone): Raster {
  if (tone.kind === 'colour') return raster;
  return tone.kind === 'grey' ? toGrey(raster) : halftone(raster, { lpi: tone.lpi, angle: tone.angle, dpi: PRINT_DPI });
}
