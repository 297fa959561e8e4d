// A brush mask (one byte per pixel, 255 = painted) as the black-and-white PNG data URL the smd request sends.
import type { PixelSize } from '@koma/domain';

export function maskToPng(mask: Uint8Array, size: PixelSize): string {
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('Unable to get canvas context');
  const image = ctx.createImageData(size.width, size.height);
  for (let i = 0; i < mask.length; i++) {
    const v = mask[i]!;
    image.data[i * 4] = v;
    image.data[i * 4 + 1] = v;
    image.data[i * 4 + 2] = v;
    image.data[i * 4 + 3] = 255;
  }
  ctx.putImageData(image, 0, 0);
  return canvas.toDataURL('image/png');
}
