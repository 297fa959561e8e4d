import sharp from 'sharp';

/** A real PNG of the given size with a gradient-ish fill, for uploads. */
export async function makePng(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();
}

/** A WebP of the given size, as the editor sends thumbnails. */
export async function makeWebp(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .webp({ quality: 80 })
    .toBuffer();
}
