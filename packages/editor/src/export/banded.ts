import type { Raster } from './raster.ts';

/**
 * Pixels made a band of rows at a time when they are read, never whole: the PDF's page image, composed while it is
 * compressed (pdf-layers.ts, pdf.ts), so a page being written holds a band of itself instead of a page-sized raster
 * (docs/how-it-works/chapter-memory.md).
 */
export interface BandedRaster {
  readonly width: number;
  readonly height: number;
  /** Every pixel is opaque (known without drawing: the white page lies under everything). */
  readonly opaque: boolean;
  /** Draws rows y0 to y0 + band.height - 1 into `band` (as wide as this), whatever it held before. */
  drawRows(y0: number, band: Raster): void;
}

export type PagePixels = Raster | BandedRaster;

export const isBanded = (pixels: PagePixels): pixels is BandedRaster => 'drawRows' in pixels;
