// Images are images (issue #20 item 6): every upload is decoded under the pixel limit and encoded again before it is
// stored, so polyglots and trailing data do not survive and pixel bombs are refused naming the limit.
import { deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackend, type BackendName, type TestBackend } from '../support/backends.ts';
import { TestClient } from '../support/client.ts';
import { makePng } from '../support/images.ts';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A PNG whose header claims width × height, with one row of real data: a bomb as its header announces it. */
function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const row = Buffer.alloc(1 + width); // filter byte + one row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(row)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const backends: BackendName[] = ['sqlite', 'postgres'];

describe.each(backends)('image ingest on %s', (backendName) => {
  let backend: TestBackend;
  let app: FastifyInstance;
  let c: TestClient;

  beforeAll(async () => {
    // Default limits (MAX_IMAGE_PIXELS 100 Mpx): the test is about the shipped configuration.
    backend = await createBackend(backendName);
    app = await backend.start();
    c = new TestClient(app);
    await c.signUp('pixels@example.com');
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await backend?.destroy();
  });

  it('stores a PNG with an HTML page and a script appended as a clean PNG of the same pixels', async () => {
    const png = await makePng(32, 24);
    const page = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');
    const polyglot = Buffer.concat([png, page]);
    const uploaded = await c.post('/api/image', { encoded: polyglot.toString('base64'), fileType: 'png' });
    expect(uploaded.statusCode).toBe(201);
    const { id } = uploaded.json() as { id: string };
    const served = await c.get(`/api/images/${id}`);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.includes('<script')).toBe(false);
    expect(served.rawPayload.includes('<html')).toBe(false);
    // The stored file ends where the PNG ends: its last chunk is IEND.
    expect(served.rawPayload.subarray(-8, -4).toString('ascii')).toBe('IEND');
    const pixels = await sharp(served.rawPayload).raw().toBuffer();
    expect(Buffer.compare(pixels, await sharp(png).raw().toBuffer())).toBe(0);
  });

  it('drops megabytes of data after a 1 × 1 image', async () => {
    const tiny = await makePng(1, 1);
    const padded = Buffer.concat([tiny, Buffer.alloc(4 * 1024 * 1024, 0x41)]);
    const uploaded = await c.post('/api/image', { encoded: padded.toString('base64'), fileType: 'png' });
    expect(uploaded.statusCode).toBe(201);
    const served = await c.get(`/api/images/${(uploaded.json() as { id: string }).id}`);
    expect(served.rawPayload.length).toBeLessThan(1024);
  });

  it('refuses a pixel bomb with 413 naming the limit, before decoding it', async () => {
    const bomb = pngClaiming(20_000, 20_000);
    expect(bomb.length).toBeLessThan(1000);
    const before = await imageCount();
    const refused = await c.post('/api/image', { encoded: bomb.toString('base64'), fileType: 'png' });
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({
      error: 'payload_too_large',
      limit: 100_000_000,
      message: 'encoded: image is 20000 × 20000 = 400000000 pixels; the limit is 100000000 pixels (MAX_IMAGE_PIXELS).',
    });
    expect(await imageCount()).toBe(before);
  });

  it('refuses a file that claims a size and does not hold it, with a 400 naming the field', async () => {
    const refused = await c.post('/api/image', { encoded: pngClaiming(64, 64).toString('base64'), fileType: 'png' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'invalid_request', message: 'encoded: image data is corrupt' });
  });

  it('re-encodes an inline image of a generation request too, naming its field when it is refused', async () => {
    const bomb = pngClaiming(12_000, 10_000);
    const refused = await c.post('/api/upscale', { image: `data:image/png;base64,${bomb.toString('base64')}` });
    expect(refused.statusCode).toBe(413);
    expect((refused.json() as { message: string }).message).toMatch(/^image: image is 12000 × 10000/);
  });

  async function imageCount(): Promise<number> {
    const { database } = app.koma;
    const row = await database.db
      .selectFrom('images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
});
