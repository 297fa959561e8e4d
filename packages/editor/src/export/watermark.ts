import { createRaster, drawOver, type Raster, type Rect } from './raster.ts';

/** The plan of `GET /api/auth/me` → `user.plan`; only the free tier is watermarked (editor.md §1, §6). */
export type Plan = 'free' | 'subscriber';

export const WATERMARK_TEXT = 'MADE WITH KOMA';

/** 5×7 glyphs, one string of five bits per row, for the letters the watermark uses. */
const GLYPHS: Record<string, readonly string[]> = {
  M: ['10001', '11011', '10101', '10101', '10001', '10001', '10001'],
  A: ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
  D: ['11110', '10001', '10001', '10001', '10001', '10001', '11110'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  W: ['10001', '10001', '10001', '10101', '10101', '11011', '10001'],
  I: ['11111', '00100', '00100', '00100', '00100', '00100', '11111'],
  T: ['11111', '00100', '00100', '00100', '00100', '00100', '00100'],
  H: ['10001', '10001', '10001', '11111', '10001', '10001', '10001'],
  K: ['10001', '10010', '10100', '11000', '10100', '10010', '10001'],
  O: ['01110', '10001', '10001', '10001', '10001', '10001', '01110'],
  ' ': ['00000', '00000', '00000', '00000', '00000', '00000', '00000'],
};

/** Whether an export for this plan carries the watermark. */
export function needsWatermark(plan: Plan): boolean {
  return plan !== 'subscriber';
}

/**
 * The watermark as its own raster and where it goes on a page of the given size: light text on a translucent
 * dark plate in the bottom-right corner, sized to about a quarter of the page width.
 */
export function watermarkRaster(pageWidth: number, pageHeight: number): { raster: Raster; rect: Rect } {
  const cell = Math.max(1, Math.floor(pageWidth / 4 / (WATERMARK_TEXT.length * 6)));
  const pad = cell * 3;
  const width = Math.min(pageWidth, WATERMARK_TEXT.length * 6 * cell - cell + pad * 2);
  const height = Math.min(pageHeight, 7 * cell + pad * 2);
  const raster = createRaster(width, height, [0, 0, 0, 110]);
  [...WATERMARK_TEXT].forEach((ch, index) => {
    const glyph = GLYPHS[ch] ?? GLYPHS[' ']!;
    glyph.forEach((row, gy) => {
      for (let gx = 0; gx < 5; gx++) {
        if (row[gx] !== '1') continue;
        for (let y = 0; y < cell; y++) {
          for (let x = 0; x < cell; x++) {
            const px = pad + (index * 6 + gx) * cell + x;
            const py = pad + gy * cell + y;
            if (px >= width || py >= height) continue;
            const o = (py * width + px) * 4;
            raster.data.set([255, 255, 255, 230], o);
          }
        }
      }
    });
  });
  const margin = Math.min(Math.floor(pageWidth / 50), pageWidth - width, pageHeight - height);
  return { raster, rect: { x: pageWidth - width - margin, y: pageHeight - height - margin, width, height } };
}

/** Composites the watermark onto a finished page in place when the plan asks for one; returns whether it did. */
export function applyWatermark(page: Raster, plan: Plan): boolean {
  if (!needsWatermark(plan)) return false;
  const { raster, rect } = watermarkRaster(page.width, page.height);
  drawOver(page, raster, rect.x, rect.y);
  return true;
}
