import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readImageInput, VisionInputError } from '../../src/vision/index.ts';
import { fixture, pngHeaderOnly } from './images.ts';

async function refusal(bytes: Uint8Array): Promise<VisionInputError> {
  const err = await readImageInput(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof VisionInputError)) throw new Error(`expected VisionInputError, got ${String(err)}`);
  return err;
}

describe('readImageInput', () => {
  it('accepts a JPEG and reports its size', async () => {
    const input = await readImageInput(fixture('photo-three-faces.jpg'));
    expect(input).toMatchObject({ width: 960, height: 640, format: 'jpeg' });
  });

  it('refuses an empty file', async () => {
    const err = await refusal(Buffer.alloc(0));
    expect(err.code).toBe('EMPTY');
    expect(err.message).toBe('The image is empty (0 bytes).');
  });

  it('refuses bytes that are not an image', async () => {
    const err = await refusal(Buffer.from('{"hello": "this is JSON, not a picture"}'));
    expect(err.code).toBe('NOT_AN_IMAGE');
    expect(err.message).toMatch(/not an image/);
  });

  it('refuses an SVG document (vector input is not a raster image for the models)', async () => {
    const err = await refusal(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'));
    expect(err.code).toBe('NOT_AN_IMAGE');
  });

  it('refuses 20000×20000 from the header alone, naming the size and the limit', async () => {
    const err = await refusal(pngHeaderOnly(20000, 20000));
    expect(err.code).toBe('TOO_LARGE');
    expect(err.message).toBe('The image is 20000×20000 px; the limit is 8192 px per side and 40 megapixels.');
  });

  it('refuses a truncated image', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    const err = await refusal(png.subarray(0, png.length - 30));
    expect(err.code).toBe('NOT_AN_IMAGE');
  });

  it('applies caller limits', async () => {
    const err = await readImageInput(fixture('photo-three-faces.jpg'), { maxSide: 512 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VisionInputError);
    expect((err as VisionInputError).code).toBe('TOO_LARGE');
  });
});
