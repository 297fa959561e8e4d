// Errors users can read (issue #20 item 9): every 400 is a sentence that names the field, with the field's path in
// `field`; brush-based generation without brushes is refused before anything is charged or queued.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackend, type BackendName, type TestBackend } from '../support/backends.ts';
import { TestClient } from '../support/client.ts';

const backends: BackendName[] = ['sqlite', 'postgres'];

describe.each(backends)('400 answers on %s', (backendName) => {
  let backend: TestBackend;
  let app: FastifyInstance;
  let c: TestClient;

  beforeAll(async () => {
    backend = await createBackend(backendName, { BUILTIN_CHARGES: 'true' });
    app = await backend.start();
    c = new TestClient(app);
    await c.signUp('errors@example.com');
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await backend?.destroy();
  });

  it.each([
    [
      'POST',
      '/api/auth/signup',
      { email: 'x', password: 'a-long-passphrase' },
      'email',
      'email must be an email address',
    ],
    ['POST', '/api/auth/signup', { password: 'a-long-passphrase' }, 'email', 'email is required'],
    ['POST', '/api/image', { encoded: 5, fileType: 'png' }, 'encoded', 'encoded must be a string, not a number'],
    ['POST', '/api/image', { encoded: 'aGk=', fileType: 'gif' }, 'fileType', 'fileType must be one of png, jpeg, webp'],
    ['POST', '/api/workspace', { name: 5, data: {} }, 'name', 'name must be a string, not a number'],
    ['PUT', '/api/preferences', { preferences: 5 }, 'preferences', 'preferences must be an object, not a number'],
    [
      'POST',
      '/api/diffusion/txt2img',
      { model: 'aamxl', prompt: 'x', width: 99999, height: 512 },
      'width',
      'width must be at most 1536',
    ],
    ['GET', '/api/jobs?status=zzz', undefined, undefined, 'status: must be active or recent'],
  ])('%s %s answers a sentence naming the field', async (method, url, body, field, message) => {
    const res = await c.request(method as 'GET', url, body);
    expect(res.statusCode).toBe(400);
    const json = res.json() as { error: string; message: string; field?: string };
    expect(json.error).toBe('invalid_request');
    expect(json.message).toBe(message);
    if (field) expect(json.field).toBe(field);
    // No raw validator words.
    expect(json.message).not.toMatch(/^Invalid input|Too (small|big):|expected \w+, received/);
  });

  it('answers a body that is not JSON with a sentence', async () => {
    const res = await c.request('POST', '/api/workspace', '{"name": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'invalid_request',
      message: 'The request body is not valid JSON.',
      field: 'body',
    });
  });

  it('lists every failing field of a generation request', async () => {
    const res = await c.post('/api/diffusion/txt2img', { model: 'aamxl', prompt: '', width: 99999, height: 512 });
    expect(res.statusCode).toBe(400);
    const json = res.json() as { field: string; fields: { field: string; message: string }[] };
    expect(json.fields.map((f) => f.field)).toEqual(['prompt', 'width']);
    expect(json.field).toBe('prompt');
  });

  it('refuses brush-based generation without brushes before charging or queueing anything', async () => {
    const balance = async () => {
      const b = (await c.get('/api/credits')).json() as { credits: number; purchasedCredits: number };
      return b.credits + b.purchasedCredits;
    };
    const jobs = async () =>
      Number(
        (
          await app.koma.database.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = { credits: await balance(), jobs: await jobs() };
    const res = await c.post('/api/diffusion/smd', {
      backgroundPrompt: 'a meadow',
      backgroundNegativePrompt: 'blurry',
      brushes: [],
      width: 512,
      height: 512,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'invalid_request',
      field: 'brushes',
      message: 'brushes must have at least 1 item',
    });
    expect(await balance()).toBe(before.credits);
    expect(await jobs()).toBe(before.jobs);
  });
});
