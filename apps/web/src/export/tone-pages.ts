import type { ScreenOptions } from '@koma/editor';

/** How the PDF's pages are inked: as drawn, in greys, or in pure black and white dots for a one-ink press. */
export type PageTone = { kind: 'colour' } | { kind: 'grey' } | { kind: 'screentone'; lpi: number; angle: number };

/**
 * The one-ink screen of a screentone PDF, for its page rasters and the watermark's dots alike: lines per inch are
 * only a dot size once the pixels' own resolution is known, the page setup's (600 dpi for monochrome print setups).
 */
export function pageScreen(tone: PageTone, dpi: number): ScreenOptions | undefined {
  return tone.kind === 'screentone' ? { lpi: tone.lpi, angle: tone.angle, dpi } : undefined;
}
