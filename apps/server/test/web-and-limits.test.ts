import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LORA_CATALOGUE } from '@koma/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackend, type TestBackend } from './support/backends.ts';
import { TestClient } from './support/client.ts';

describe('serving the built web app', () => {
  let backend: TestBackend;
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-dist-'));

  beforeAll(async () => {
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Koma</title>');
    fs.writeFileSync(path.join(webDist, 'assets', 'app-1234.js'), 'console.log(1)');
    backend = await createBackend('sqlite', { WEB_DIST: webDist });
  });
  afterAll(async () => {
    await backend.destroy();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('serves files, falls back to index.html for app routes, and keeps /api 404s as JSON', async () => {
    const app = await backend.start();
    try {
      const client = new TestClient(app);
      const asset = await client.get('/assets/app-1234.js');
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      for (const url of ['/', '/editor/abc123', '/dashboard?x=1']) {
        const page = await client.get(url);
        expect(page.statusCode, url).toBe(200);
        expect(page.body, url).toContain('<title>Koma</title>');
      }
      const api = await client.get('/api/no-such-call');
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ error: 'not_found' });
      expect((await client.get('/api/health')).json()).toEqual({ status: 'ok', database: 'sqlite' });
    } finally {
      await app.close();
    }
  });
});

describe('LoRA catalogue', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createBackend('sqlite');
  });
  afterAll(() => backend.destroy());

  it('answers one catalogue entry by id and 404 for an unknown id', async () => {
    const app = await backend.start();
    try {
      const client = new TestClient(app);
      const id = LORA_CATALOGUE[0]!.id;
      const found = await client.get(`/api/lora/models?id=${id}`);
      expect(found.statusCode).toBe(200);
      expect(found.json()).toEqual({ model: JSON.parse(JSON.stringify(LORA_CATALOGUE[0])) as unknown });
      const missing = await client.get('/api/lora/models?id=no-such-lora');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ error: 'not_found' });
      expect((await client.get('/api/lora/models')).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});

describe('sign-in rate limit', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createBackend('sqlite', { SIGNIN_RATE_LIMIT: '3', SIGNIN_RATE_WINDOW_MS: '60000' });
  });
  afterAll(() => backend.destroy());

  it('answers 429 rate_limited after too many attempts from one address', async () => {
    const app = await backend.start();
    try {
      const client = new TestClient(app);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push(
          (await client.post('/api/auth/signin', { email: 'x@example.com', password: 'wrong-pass' })).statusCode,
        );
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const limited = await client.post('/api/auth/signin', { email: 'x@example.com', password: 'wrong-pass' });
      expect(limited.json()).toMatchObject({ error: 'rate_limited' });
    } finally {
      await app.close();
    }
  });
});
