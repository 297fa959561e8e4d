/// <reference lib="webworker" />
import { PRINT_DPI, halftone, toGrey, type Raster } from '@koma/editor';

/** How the PDF's pages are inked: as drawn, in greys, or in pure black and white dots for a one-ink press. */
export type PageTone = { kind: 'colour' } | { kind: 'grey' } | { kind: 'screentone'; lpi: number; angle: number };

async function decode(bytes: Uint8Array): Promise<Raster> {
  const bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d')!;
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  const image = context.getImageData(0, 0, canvas.width, canvas.height);
  return { width: image.width, height: image.height, data: image.data };
}

async function encode(raster: Raster): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(raster.width, raster.height);
  canvas
    .getContext('2d')!
    .putImageData(new ImageData(new Uint8ClampedArray(raster.data), raster.width, raster.height), 0, 0);
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  return new Uint8Array(await blob.arrayBuffer());
}

/** One encoded page image re-inked as `tone` asks (the colour page is returned as it is). */
export async function tonePage(bytes: Uint8Array, tone: PageTone): Promise<Uint8Array> {
  if (tone.kind === 'colour') return bytes;
  const raster = await decode(bytes);
  return encode(
    tone.kind === 'grey' ? toGrey(raster) : halftone(raster, { lpi: tone.lpi, angle: tone.angle, dpi: PRINT_DPI }),
  );
}
