// Issue 14 item 2: autosave sends what changed since the acknowledged revision; the server applies it in one
// transaction and validates the result exactly as a full save. Same behaviour on SQLite and PostgreSQL.
import { createWorkspaceData, diffJson, presetPageSetup, type WorkspaceData } from '@koma/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackend, type BackendName, type TestBackend } from './support/backends.ts';
import { TestClient } from './support/client.ts';

function comicData(): WorkspaceData {
  let n = 0;
  return createWorkspaceData('COMIC', () => `p-${++n}`);
}

/** The stored form of a document: what GET answers (the version stamp included). */
async function read(c: TestClient, id: string): Promise<{ revision: number; data: WorkspaceData }> {
  return (await c.get(`/api/workspace/${id}`)).json() as { revision: number; data: WorkspaceData };
}

const backends: BackendName[] = ['sqlite', 'postgres'];

describe.each(backends)('patch saves on %s', (backendName) => {
  let backend: TestBackend;
  let app: FastifyInstance;

  beforeAll(async () => {
    backend = await createBackend(backendName);
    app = await backend.start();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await backend?.destroy();
  });

  async function newWorkspace(email: string): Promise<{ c: TestClient; id: string }> {
    const c = new TestClient(app);
    await c.signUp(email);
    const { id } = (await c.post('/api/workspace', { name: 'p', data: comicData() })).json() as { id: string };
    return { c, id };
  }

  it('applies a patch to its base revision and stores the result as the next revision', async () => {
    const { c, id } = await newWorkspace(`apply-${backendName}@example.com`);
    const base = await read(c, id);
    const next = structuredClone(base.data);
    next.viewTransform = { x: 3, y: 4, zoom: 2 };
    next.pages[0]!.rootLayer.name = 'Renamed';
    const patch = diffJson(base.data, next);
    expect(patch.length).toBeGreaterThan(0);
    const saved = await c.post(`/api/workspace/${id}/patches`, { revision: base.revision, patch });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ revision: base.revision + 1 });
    const after = await read(c, id);
    expect(after).toEqual({ ...after, revision: base.revision + 1, data: next });
  });

  it('stores a B5 manga comic (document version 3) and refuses a patch that breaks its page size, naming the field', async () => {
    const c = new TestClient(app);
    await c.signUp(`setup-${backendName}@example.com`);
    let n = 0;
    const data = createWorkspaceData('COMIC', () => `b5-${++n}`, 'RIGHT_TO_LEFT', presetPageSetup('MANGA_B5'));
    const created = await c.post('/api/workspace', { name: 'b5', data });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: string }).id;
    const base = await read(c, id);
    expect(base.data.version).toBe(3);
    expect(base.data.comicConfiguration).toEqual(data.comicConfiguration);
    const bad = structuredClone(base.data);
    bad.comicConfiguration.width = 1700;
    const refused = await c.post(`/api/workspace/${id}/patches`, {
      revision: base.revision,
      patch: diffJson(base.data, bad),
    });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json())).toContain('comicConfiguration.width');
    expect((await read(c, id)).revision).toBe(base.revision);
  });

  it('refuses a patch against a revision that is no longer the head with 409, and writes nothing', async () => {
    const { c, id } = await newWorkspace(`stale-${backendName}@example.com`);
    const base = await read(c, id);
    const other = { ...base.data, viewTransform: { x: 1, y: 1, zoom: 1 } };
    expect((await c.put(`/api/workspace/${id}`, { data: other, revision: base.revision })).statusCode).toBe(200);
    const mine = { ...base.data, viewTransform: { x: 9, y: 9, zoom: 3 } };
    const stale = await c.post(`/api/workspace/${id}/patches`, {
      revision: base.revision,
      patch: diffJson(base.data, mine),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: 'revision_conflict', revision: base.revision + 1 });
    expect((await read(c, id)).data.viewTransform).toEqual({ x: 1, y: 1, zoom: 1 });
  });

  it('refuses, naming the operation or field, a patch that does not apply or makes an invalid document', async () => {
    const { c, id } = await newWorkspace(`bad-${backendName}@example.com`);
    const base = await read(c, id);
    const cases: [unknown, RegExp][] = [
      [[{ op: 'remove', path: '/pages/7' }], /^patch: operation 0 \(remove\): path "\/pages\/7" does not exist/],
      [[{ op: 'move', path: '/pages/0', from: '/x' }], /^patch\[0\]\.op must be add, remove or replace/],
      [[{ op: 'replace', path: '/lastPage' }], /^patch\[0\]\.value is required/],
      [[{ op: 'replace', path: '/lastPage', value: 'first' }], /^data\.lastPage: /],
      [[{ op: 'add', path: '/__proto__', value: {} }], /^patch: operation 0 \(add\)/],
      ['nope', /patch/],
    ];
    for (const [patch, message] of cases) {
      const refused = await c.post(`/api/workspace/${id}/patches`, { revision: base.revision, patch });
      expect(refused.statusCode, JSON.stringify(patch)).toBe(400);
      expect((refused.json() as { message: string }).message).toMatch(message);
    }
    // A NUL inside a patched-in text is repaired by the codec, as in a full save, on both databases.
    const nul = await c.post(`/api/workspace/${id}/patches`, {
      revision: base.revision,
      patch: [{ op: 'replace', path: '/pages/0/rootLayer/name', value: 'a\u0000b' }],
    });
    expect(nul.statusCode).toBe(200);
    expect((await read(c, id)).data.pages[0]!.rootLayer.name).toBe('ab');
  });

  it("answers 404 for another user's workspace and changes nothing", async () => {
    const { c, id } = await newWorkspace(`own-${backendName}@example.com`);
    const base = await read(c, id);
    const other = new TestClient(app);
    await other.signUp(`other-${backendName}@example.com`);
    const patch = [{ op: 'replace', path: '/lastPage', value: 0 }];
    expect((await other.post(`/api/workspace/${id}/patches`, { revision: base.revision, patch })).statusCode).toBe(404);
    // This process holds the document decoded; a patch that does not apply to it still tells a stranger nothing.
    const broken = [{ op: 'remove', path: '/pages/7' }];
    const refused = await other.post(`/api/workspace/${id}/patches`, { revision: base.revision, patch: broken });
    expect(refused.statusCode).toBe(404);
    expect((await read(c, id)).revision).toBe(base.revision);
  });
  it('stays right with two API processes on one database: a held head is used only while it is the head', async () => {
    const { c, id } = await newWorkspace(`two-${backendName}@example.com`);
    const two = await backend.start();
    try {
      const other = new TestClient(two);
      other.cookie = c.cookie;
      const change = async (via: TestClient, revision: number, edit: (d: WorkspaceData) => void) => {
        const before = await read(via, id);
        const after = structuredClone(before.data);
        edit(after);
        return via.post(`/api/workspace/${id}/patches`, { revision, patch: diffJson(before.data, after) });
      };
      // Process one holds revision 2 decoded after its own save; process two then stores revision 3.
      expect((await change(c, 1, (d) => (d.pages[0]!.rootLayer.name = 'one'))).statusCode).toBe(200);
      expect((await change(other, 2, (d) => (d.viewTransform = { x: 5, y: 6, zoom: 2 }))).statusCode).toBe(200);
      // One's held head (2) is not the head: a patch against 2 is a conflict, one against 3 keeps two's change.
      const stale = await c.post(`/api/workspace/${id}/patches`, {
        revision: 2,
        patch: [{ op: 'replace', path: '/lastPage', value: 0 }],
      });
      expect(stale.statusCode).toBe(409);
      // A stale base is a conflict even when the patch would not apply to it either.
      const staleAndBroken = await c.post(`/api/workspace/${id}/patches`, {
        revision: 2,
        patch: [{ op: 'remove', path: '/pages/7' }],
      });
      expect(staleAndBroken.statusCode).toBe(409);
      expect(staleAndBroken.json()).toMatchObject({ error: 'revision_conflict', revision: 3 });
      expect((await change(c, 3, (d) => (d.pages[0]!.rootLayer.name = 'both'))).statusCode).toBe(200);
      // Both processes serve the same revision 4 (one from what it now holds, two rebuilt from the database).
      for (const via of [c, other]) {
        const seen = await read(via, id);
        expect(seen.revision).toBe(4);
        expect(seen.data.viewTransform).toEqual({ x: 5, y: 6, zoom: 2 });
        expect(seen.data.pages[0]!.rootLayer.name).toBe('both');
      }
      // And a refusal through the held head is the full save's, with the same words.
      const refused = await c.post(`/api/workspace/${id}/patches`, {
        revision: 4,
        patch: [{ op: 'replace', path: '/pages/0/rootLayer/clippedLayers', value: [1] }],
      });
      expect(refused.statusCode).toBe(400);
      expect((refused.json() as { message: string }).message).toMatch(
        /^data\.pages\[0\]\.rootLayer\.clippedLayers\[0\]: /,
      );
    } finally {
      await two.close();
    }
  });
});
