import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageConfig } from '../src/config.ts';
import { createBlobStore, type BlobStore } from '../src/storage/blob-store.ts';
import { createBackend, type TestBackend } from './support/backends.ts';
import { TestClient } from './support/client.ts';
import { makePng } from './support/images.ts';

const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-s3rver-'));
const localDir = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-blobs-'));
let server: S3rver;
let s3Config: StorageConfig;

beforeAll(async () => {
  // s3rver: a local S3-compatible server (npm), standing in for AWS S3 / MinIO / R2.
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'koma' }],
  });
  const { port } = await server.run();
  s3Config = {
    kind: 's3',
    bucket: 'koma',
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    prefix: 'test/',
  };
});

afterAll(async () => {
  await server.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
  fs.rmSync(localDir, { recursive: true, force: true });
});

describe.each(['local', 's3'] as const)('%s blob store', (kind) => {
  let store: BlobStore;
  beforeAll(() => {
    store = createBlobStore(kind === 's3' ? s3Config : { kind: 'local', dir: localDir });
  });
  afterAll(() => store.close());

  it('puts, gets and deletes bytes', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    await store.put('abcDEF123_-', bytes, 'application/octet-stream');
    expect(await store.get('abcDEF123_-')).toEqual(bytes);
    await store.delete('abcDEF123_-');
    expect(await store.get('abcDEF123_-')).toBeNull();
    await store.delete('abcDEF123_-');
  });

  it('answers null for a key never stored', async () => {
    expect(await store.get('neverStored')).toBeNull();
  });

  it('refuses keys that could name a path', async () => {
    for (const key of ['../etc/passwd', 'a/b', '', '.hidden', 'x'.repeat(80)]) {
      await expect(store.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow('Invalid blob key');
      await expect(store.get(key), key).rejects.toThrow('Invalid blob key');
    }
  });
});

describe('server with S3 storage', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createBackend('sqlite');
  });
  afterAll(() => backend.destroy());

  it('stores uploads in the bucket and serves them back after a restart', async () => {
    let app = await backend.start({ storage: s3Config });
    const client = new TestClient(app);
    await client.signUp('s3@example.com');
    const png = await makePng(40, 30);
    const uploaded = await client.post('/api/image', { encoded: png.toString('base64'), fileType: 'png' });
    expect(uploaded.statusCode).toBe(201);
    const { id } = uploaded.json() as { id: string };
    expect(fs.existsSync(path.join(backend.config.dataDir, 'images', id.slice(0, 2), id))).toBe(false);
    await app.close();

    app = await backend.start({ storage: s3Config });
    client.app = app;
    const served = await client.get(`/api/images/${id}`);
    expect(served.statusCode).toBe(200);
    expect(Buffer.compare(served.rawPayload, png)).toBe(0);
    expect((await client.get(`/api/images/${id}/thumbnail`)).headers['content-type']).toBe('image/jpeg');
    await app.close();
  });
});

describe('layer thumbnails', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createBackend('sqlite');
  });
  afterAll(() => backend.destroy());

  it('are made when an image is uploaded, before the layer list asks for them', async () => {
    const app = await backend.start();
    const client = new TestClient(app);
    await client.signUp('thumbs@example.com');
    const uploaded = await client.post('/api/image', {
      encoded: (await makePng(600, 300)).toString('base64'),
      fileType: 'png',
    });
    const { id } = uploaded.json() as { id: string };
    const kept = path.join(backend.config.dataDir, 'images', id.slice(0, 2), `${id}.thumb`);
    expect(fs.existsSync(kept)).toBe(true);
    const served = await client.get(`/api/images/${id}/thumbnail`);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(served.rawPayload, fs.readFileSync(kept))).toBe(0);
    await app.close();
  });
});
