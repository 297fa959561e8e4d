// The free tier's watermark on a PDF page (docs/decisions/export.md): drawn last, over the page image, the pictures
// at their own resolution and the vector lettering, as the PNG and the PSD carry it over everything. It is one or two
// 1-bit stencil masks (ISO 32000-1 §8.9.6.2) the page's size, painted in one colour: a few hundred kilobytes that
// compress to a few dozen, and one XObject shared by every page of that size.
import { GREY_OF_WATERMARK, WATERMARK_STRENGTH, watermarkMask } from './watermark.ts';
import { screenInk, type ScreenOptions } from './halftone.ts';

/** A 1-bit mask (rows padded to whole bytes, 1 = paint) and how it is painted. */
export interface PdfStencil {
  width: number;
  height: number;
  bits: Uint8Array;
  /** The grey it paints, 0 (black) to 1 (white). */
  grey: number;
  /** Alpha of the paint (ExtGState ca). */
  opacity: number;
}

/**
 * The watermark of a `width`×`height` page as stencils. On a page of colours or greys: the mark painted mid grey at
 * WATERMARK_STRENGTH, the same pull towards grey that `markRaster` gives a pixel (c·0.7 + 128·0.3). On a one-ink
 * screentone page, where a translucent grey would not print: the marked pixels take the screen's dots of the grey a
 * mark gives white paper (black dots) and of the grey it gives black ink (white dots), each painted opaque, so the
 * mark reads on paper and on ink alike and the page stays pure black and white.
 */
export function watermarkStencils(width: number, height: number, screen?: ScreenOptions): PdfStencil[] {
  const mask = watermarkMask(width, height);
  if (!screen) {
    return [
      {
        width,
        height,
        bits: pack(width, height, (i) => mask[i] === 1),
        grey: GREY_OF_WATERMARK / 255,
        opacity: WATERMARK_STRENGTH,
      },
    ];
  }
  const ink = screenInk(screen);
  const marked = (paper: number) => paper * (1 - WATERMARK_STRENGTH) + GREY_OF_WATERMARK * WATERMARK_STRENGTH;
  const onPaper = 1 - marked(255) / 255;
  const onInk = 1 - marked(0) / 255;
  return [
    { width, height, bits: pack(width, height, (i, x, y) => mask[i] === 1 && ink(x, y, onPaper)), grey: 0, opacity: 1 },
    { width, height, bits: pack(width, height, (i, x, y) => mask[i] === 1 && !ink(x, y, onInk)), grey: 1, opacity: 1 },
  ];
}

/** Packs a predicate over the pixels into rows of bits, most significant bit first (the PDF's sample order). */
function pack(width: number, height: number, on: (index: number, x: number, y: number) => boolean): Uint8Array {
  const stride = Math.ceil(width / 8);
  const bits = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (on(y * width + x, x, y)) bits[y * stride + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return bits;
}
