import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createWorkspaceData } from '@koma/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpUser } from './support/http-user.ts';
import { startNode, type NodeProcess } from './support/processes.ts';
import { productionTree, type ProductionTree } from './support/production.ts';

const fixture = path.resolve(import.meta.dirname, 'fixtures', 'vision', 'photo-full-body.jpg');

// The "npm ci --omit=dev plus the built files starts and serves": the server, built to JavaScript,
// run by plain node over a production-only install, on SQLite and the local image folder (the defaults).
describe('the built server on a production install', { timeout: 300_000 }, () => {
  let tree: ProductionTree;
  let dataDir: string;
  let api: NodeProcess;

  beforeAll(async () => {
    tree = await productionTree();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-prod-data-'));
    api = await startNode({
      cwd: tree.serverDir,
      entry: 'main',
      name: 'api',
      logDir: path.join(tree.root, 'logs'),
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      readyTimeoutMs: 120_000,
    });
  }, 600_000);

  afterAll(async () => {
    await api?.stop();
    tree?.remove();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('has no development package within reach', () => {
    const modules = path.join(tree.root, 'node_modules');
    for (const name of ['tsx', 'typescript', 'vitest', 'esbuild', 'vite', 'eslint', 's3rver']) {
      expect(fs.existsSync(path.join(modules, name)), name).toBe(false);
    }
    expect(fs.readdirSync(path.join(tree.serverDir, 'dist')).filter((f) => f.endsWith('.ts'))).toEqual([]);
  });

  it('serves accounts, workspaces, images and the API contract', async () => {
    const user = new HttpUser(api.url);
    expect((await user.signUp('prod@example.com')).status).toBe(201);
    let n = 0;
    const data = createWorkspaceData('COMIC', () => `p-${++n}`);
    const created = await user.call<{ id: string }>('POST', '/api/workspace', { name: 'Built', data });
    expect(created.status).toBe(201);
    const saved = await user.call('PUT', `/api/workspace/${created.body.id}`, { data, revision: 1 });
    expect(saved).toMatchObject({ status: 200, body: { revision: 2 } });
    const read = await user.call<{ name: string; revision: number }>('GET', `/api/workspace/${created.body.id}`);
    expect(read.body).toMatchObject({ name: 'Built', revision: 2 });
    const image = fs.readFileSync(fixture).toString('base64');
    const uploaded = await user.call<{ id: string }>('POST', '/api/image', { encoded: image, fileType: 'jpeg' });
    expect(uploaded.status).toBe(201);
    const bytes = await fetch(`${api.url}/api/images/${uploaded.body.id}`, { headers: { cookie: user.cookie } });
    expect(bytes.headers.get('content-type')).toMatch(/^image\//);
    const contract = await user.call<{ openapi: string }>('GET', '/api/docs/json');
    expect(contract.body.openapi).toBe('3.1.0');
  });

  it('runs a vision model in its worker thread from the built bundle', async () => {
    const user = new HttpUser(api.url);
    await user.signUp('pose@example.com');
    const image = `data:image/jpeg;base64,${fs.readFileSync(fixture).toString('base64')}`;
    const { status, events } = await user.stream('POST', '/api/pose', { image });
    expect(status).toBe(200);
    const end = events[events.length - 1];
    expect(end?.status, JSON.stringify(end)).toBe('COMPLETED');
    expect(JSON.stringify(end?.output)).toContain('candidate');
  });

  it('runs the admin tool from the build', () => {
    const out = execFileSync(process.execPath, ['dist/admin.js', 'show', '--email', 'prod@example.com'], {
      cwd: tree.serverDir,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(out).toContain('prod@example.com');
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await api.stop()).toBe(0);
  });
});
