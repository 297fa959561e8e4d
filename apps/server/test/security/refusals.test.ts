// Nothing stored on refusal, a storage quota and an upload rate limit (issue #20 item 5), on both databases: a
// request refused after its inline image was written leaves the image count as it was; uploads past the quota or the
// rate are refused with a 4xx that names the limit.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackend, type BackendName, type TestBackend } from '../support/backends.ts';
import { TestClient } from '../support/client.ts';
import { makePng } from '../support/images.ts';

const backends: BackendName[] = ['sqlite', 'postgres'];

describe.each(backends)('refusals, quota and upload rate on %s', (backendName) => {
  let backend: TestBackend;
  let app: FastifyInstance;
  let c: TestClient;
  let png: Buffer;

  beforeAll(async () => {
    png = await makePng(64, 48);
    // No credits, room for about three of the test's PNGs, five uploads a minute.
    backend = await createBackend(backendName, {
      STARTING_CREDITS: '0',
      STORAGE_QUOTA_BYTES: String(png.length * 3 + 10),
      UPLOAD_RATE_LIMIT: '5',
    });
    app = await backend.start();
    c = new TestClient(app);
    await c.signUp('refused@example.com');
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await backend?.destroy();
  });

  const images = async (): Promise<number> =>
    Number(
      (
        await app.koma.database.db
          .selectFrom('images')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const inline = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

  it('leaves the image count unchanged after upscales refused for want of credits', async () => {
    const before = await images();
    for (let i = 0; i < 4; i++) {
      const res = await c.post('/api/upscale', { image: inline(png) });
      expect(res.statusCode).toBe(400);
      expect((res.json() as { error: string }).error).toBe('not_enough_credits');
    }
    expect(await images()).toBe(before);
  });

  it('leaves the image count unchanged after a request refused once its image was read', async () => {
    const wide = await makePng(2100, 8);
    const before = await images();
    const res = await c.post('/api/upscale', { image: inline(wide) });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { error: string }).error).toBe('input_too_large');
    expect(await images()).toBe(before);
  });

  it('refuses uploads past the storage quota with 403 naming it, storing nothing', async () => {
    const upload = () => c.post('/api/image', { encoded: png.toString('base64'), fileType: 'png' });
    const answers = [await upload(), await upload(), await upload()];
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    const before = await images();
    const full = await upload();
    expect(full.statusCode).toBe(403);
    const body = full.json() as { error: string; message: string; quota: number; field: string };
    expect(body.error).toBe('storage_quota_exceeded');
    expect(body.field).toBe('encoded');
    expect(body.quota).toBe(png.length * 3 + 10);
    expect(body.message).toMatch(/^encoded: your images use .* of your .* of storage .*STORAGE_QUOTA_BYTES/);
    // An inline image of a generation request counts against the same quota.
    const viaRequest = await c.post('/api/upscale', { image: inline(png) });
    expect(viaRequest.statusCode).toBe(403);
    expect((viaRequest.json() as { message: string }).message).toMatch(/^image: your images use/);
    expect(await images()).toBe(before);
  });

  it('limits image uploads per user with 429 naming the limit', async () => {
    // Four uploads so far in this minute (three stored, one over quota); the fifth is allowed, the sixth is not.
    const fifth = await c.post('/api/image', { encoded: png.toString('base64'), fileType: 'png' });
    expect(fifth.statusCode).toBe(403);
    const sixth = await c.post('/api/image', { encoded: png.toString('base64'), fileType: 'png' });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ error: 'rate_limited' });
    expect((sixth.json() as { message: string }).message).toMatch(
      /^Too many image uploads: at most 5 every 60 s \(UPLOAD_RATE_LIMIT\); try again in \d+ s\.$/,
    );
    // Another user has uploads of their own.
    const other = new TestClient(app);
    await other.signUp('other-uploader@example.com');
    const theirs = await other.post('/api/image', { encoded: png.toString('base64'), fileType: 'png' });
    expect(theirs.statusCode).toBe(201);
  });
});
