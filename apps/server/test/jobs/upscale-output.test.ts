import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { realVision, type VisionOps } from '../../src/jobs/index.ts';
import { last, LiveServer, User } from './helpers.ts';

// An upscale whose PNG is larger than the store takes (MAX_IMAGE_BYTES) is kept as WebP, not failed after the
// work: the upscaler here stands in with noise (the worst case for PNG) at twice the size, reporting its tiles.
const LIMIT = 400_000;

async function noisePng(width: number, height: number): Promise<Buffer> {
  const raw = randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const vision: VisionOps = {
  ...realVision,
  async upscale(image, onProgress) {
    const meta = await sharp(image).metadata();
    onProgress?.(1, 1);
    return noisePng((meta.width ?? 1) * 2, (meta.height ?? 1) * 2);
  },
};

const server = new LiveServer(undefined, { MAX_IMAGE_BYTES: String(LIMIT) });
let user: User;

beforeAll(async () => {
  await server.start({ jobs: { vision } });
  user = await User.signUp(server);
});

afterAll(async () => {
  await server.close();
  server.destroy();
});

describe('upscale output within the store limit', () => {
  test('a result whose PNG is too large is stored as WebP and answered as such', async () => {
    const input = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#7a9' } })
      .png()
      .toBuffer();
    expect((await noisePng(600, 600)).length).toBeGreaterThan(LIMIT); // the PNG alone would be refused
    const res = await user.run('/api/upscale', { image: `data:image/png;base64,${input.toString('base64')}` });
    const end = last(res.events)!;
    expect(end.status, JSON.stringify(end)).toBe('COMPLETED');
    const output = end.output as { image: string; id: string };
    expect(output.image.startsWith('data:image/webp;base64,')).toBe(true);
    const stored = await server.koma.images.getImage(user.id, output.id);
    expect(stored?.mime).toBe('image/webp');
    expect(stored!.bytes.length).toBeLessThanOrEqual(LIMIT);
    const meta = await sharp(stored!.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([600, 600]);
  });
});
