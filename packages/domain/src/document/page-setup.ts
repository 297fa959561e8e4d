// Page setups (issue 23): the physical page a comic is drawn for — trim size, bleed, safe area and print
// resolution — and the pixel arithmetic that turns them into the page canvas and its trim, bleed and safe boxes.
// The page canvas (comicConfiguration.width × height) is the whole bleed area at the setup's resolution, so one
// canvas pixel is one printed pixel and exports need no resampling.
import { z } from 'zod';
import { COMIC_PAGE_HEIGHT, COMIC_PAGE_WIDTH, DEFAULT_PANEL_INSET } from '../constants.ts';

export const PAGE_SETUP_PRESETS = [
  'DEFAULT',
  'MANGA_B5',
  'TANKOBON_B6',
  'TANKOBON_A5',
  'US_COMIC',
  'A4',
  'WEBTOON',
] as const;
export type PageSetupPreset = (typeof PAGE_SETUP_PRESETS)[number];

export const PAGE_UNITS = ['px', 'mm', 'in'] as const;
export type PageUnit = (typeof PAGE_UNITS)[number];

export const PAGE_INKS = ['COLOR', 'MONO'] as const;
export type PageInk = (typeof PAGE_INKS)[number];

/** Print resolutions of this industry: colour pages at 350 dpi, one-ink (monochrome) line art at 600 dpi. */
export const COLOR_DPI = 350;
export const MONO_DPI = 600;
/** The usual bleed of a print setup, and the safe inset inside the trim (where text must stay), in millimetres. */
export const DEFAULT_BLEED_MM = 3;
export const DEFAULT_SAFE_MM = 5;
/** Webtoon column width (the WEBTOON/LINE Webtoon upload width) and the long page's height, in pixels. */
export const WEBTOON_PAGE_WIDTH = 800;
export const WEBTOON_PAGE_HEIGHT = 6400;
/** The largest page canvas side a setup may produce (a 600 dpi A4 with bleed is about 5,100 × 7,100). */
export const MAX_PAGE_SIDE_PX = 20000;

export const zPageSetup = z.object({
  preset: z.enum(PAGE_SETUP_PRESETS),
  unit: z.enum(PAGE_UNITS),
  /** Trim size (the cut page) in `unit`. */
  trimWidth: z.number().positive(),
  trimHeight: z.number().positive(),
  /** Bleed beyond the trim on every side, in `unit`. */
  bleed: z.number().min(0),
  /** Safe-area inset inside the trim on every side, in `unit`. */
  safe: z.number().min(0),
  /** Pixels per inch of the page canvas (and of the PDF's page images). */
  dpi: z.number().int().min(72).max(1200),
  ink: z.enum(PAGE_INKS),
});
export type PageSetup = z.infer<typeof zPageSetup>;

/** The spec's page (editor.md §9): 1700 × 2400 px, no bleed, the 110 px panel margin as its safe area. */
export function defaultPageSetup(width = COMIC_PAGE_WIDTH, height = COMIC_PAGE_HEIGHT): PageSetup {
  return {
    preset: 'DEFAULT',
    unit: 'px',
    trimWidth: width,
    trimHeight: height,
    bleed: 0,
    safe: DEFAULT_PANEL_INSET,
    dpi: COLOR_DPI,
    ink: 'COLOR',
  };
}

const print = (preset: PageSetupPreset, unit: PageUnit, trimWidth: number, trimHeight: number, ink: PageInk) => ({
  preset,
  unit,
  trimWidth,
  trimHeight,
  bleed: unit === 'mm' ? DEFAULT_BLEED_MM : 0.125,
  safe: unit === 'mm' ? DEFAULT_SAFE_MM : 0.25,
  dpi: ink === 'MONO' ? MONO_DPI : COLOR_DPI,
  ink,
});

/** A preset's setup; print presets take the ink (colour 350 dpi, monochrome 600 dpi). */
export function presetPageSetup(preset: PageSetupPreset, ink: PageInk = 'COLOR'): PageSetup {
  switch (preset) {
    case 'DEFAULT':
      return defaultPageSetup();
    case 'MANGA_B5':
      return print(preset, 'mm', 182, 257, ink);
    case 'TANKOBON_B6':
      return print(preset, 'mm', 128, 182, ink);
    case 'TANKOBON_A5':
      return print(preset, 'mm', 148, 210, ink);
    case 'US_COMIC':
      // 1/8 in bleed and 1/4 in safe: the figures US comic printers publish for 6.625 × 10.25 in.
      return print(preset, 'in', 6.625, 10.25, ink);
    case 'A4':
      return print(preset, 'mm', 210, 297, ink);
    case 'WEBTOON':
      return {
        preset,
        unit: 'px',
        trimWidth: WEBTOON_PAGE_WIDTH,
        trimHeight: WEBTOON_PAGE_HEIGHT,
        bleed: 0,
        safe: 40,
        dpi: 72,
        ink: 'COLOR',
      };
  }
}

const MM_PER_INCH = 25.4;

/** A length in the setup's unit as canvas pixels at `dpi`, rounded to whole pixels. */
export function toPixels(value: number, unit: PageUnit, dpi: number): number {
  if (unit === 'px') return Math.round(value);
  const inches = unit === 'mm' ? value / MM_PER_INCH : value;
  return Math.round(inches * dpi);
}

export interface PxRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the page's boxes lie on the page canvas, in whole pixels (origin top-left). */
export interface PageSetupBoxes {
  /** The whole canvas: trim plus bleed on every side. */
  media: PxRect;
  /** Equal to media: the canvas is the bleed area. */
  bleed: PxRect;
  trim: PxRect;
  safe: PxRect;
  bleedPx: number;
  safePx: number;
}

/**
 * The canvas and its boxes. Trim, bleed and safe are each rounded to whole pixels before they are combined, so the
 * canvas is exactly trim + 2 × bleed and every box edge falls on a pixel edge.
 */
export function pageSetupBoxes(setup: PageSetup): PageSetupBoxes {
  const trimW = toPixels(setup.trimWidth, setup.unit, setup.dpi);
  const trimH = toPixels(setup.trimHeight, setup.unit, setup.dpi);
  const bleedPx = toPixels(setup.bleed, setup.unit, setup.dpi);
  const safePx = Math.min(toPixels(setup.safe, setup.unit, setup.dpi), Math.floor(Math.min(trimW, trimH) / 2));
  const media = { x: 0, y: 0, width: trimW + 2 * bleedPx, height: trimH + 2 * bleedPx };
  return {
    media,
    bleed: { ...media },
    trim: { x: bleedPx, y: bleedPx, width: trimW, height: trimH },
    safe: { x: bleedPx + safePx, y: bleedPx + safePx, width: trimW - 2 * safePx, height: trimH - 2 * safePx },
    bleedPx,
    safePx,
  };
}

/** The page canvas size a setup gives. */
export function pageCanvasSize(setup: PageSetup): { width: number; height: number } {
  const { media } = pageSetupBoxes(setup);
  return { width: media.width, height: media.height };
}

/** Checks a setup a user chose; returns a sentence naming the field, or null when it is usable. */
export function pageSetupProblem(setup: PageSetup): string | null {
  const parsed = zPageSetup.safeParse(setup);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `Page setup ${issue?.path.join('.') || 'value'} is not valid: ${issue?.message ?? 'unknown problem'}`;
  }
  const { media, safe } = pageSetupBoxes(setup);
  if (media.width > MAX_PAGE_SIDE_PX || media.height > MAX_PAGE_SIDE_PX) {
    return `Page setup is too large: ${media.width} × ${media.height} px (at most ${MAX_PAGE_SIDE_PX} px a side)`;
  }
  if (safe.width <= 0 || safe.height <= 0) return 'Page setup safe inset leaves no safe area inside the trim';
  return null;
}
