import { createWorkspaceData, MAX_JSON_DEPTH, OPERATION_KINDS, operationOf } from '@koma/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackend, type BackendName, type TestBackend } from './support/backends.ts';
import { TestClient } from './support/client.ts';

// Issue 14, findings 4 and 5: bodies nested deep enough to overflow a recursive walker answered 500, and NUL in a
// text field answered 500 on PostgreSQL only. Both now answer 400 naming the field, the same on both databases.

const backends: BackendName[] = ['sqlite', 'postgres'];

function idSource(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

/** `depth` groups nested below the root of an infinite canvas. */
function nestedDocument(depth: number) {
  const data = createWorkspaceData('INFINITE', idSource('d')) as unknown as { rootLayer: { children: unknown[] } };
  const box = { x: 0, y: 0, size: { width: 1, height: 1 } };
  let node = data.rootLayer;
  for (let i = 0; i < depth; i++) {
    const group = { id: `g${i}`, type: 'GROUP', name: '', transform: box, originalSize: box.size, children: [] };
    node.children.push(group);
    node = group;
  }
  return data;
}

/** JSON text of `{"a":{"a":…"leaf"…}}` nested `depth` deep (as text: JSON.stringify itself recurses). */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}"leaf"${'}'.repeat(depth)}`;
}

describe.each(backends)('request guard on %s', (backendName) => {
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

  const signedIn = async (email: string) => {
    const c = new TestClient(app);
    await c.signUp(email);
    return c;
  };

  it('answers a workspace nested 1,000 groups deep with 400 naming where it went too deep', async () => {
    const c = await signedIn('deep@example.com');
    const data = nestedDocument(1_000);
    expect(JSON.stringify(data).length).toBeLessThan(backend.config.bodyLimit);
    const created = await c.post('/api/workspace', { name: 'deep', data });
    expect(created.statusCode).toBe(400);
    const message = (created.json() as { message: string }).message;
    expect(message).toMatch(/^data\.rootLayer(\.children\[0\])+(\.[a-z]+)*: nested deeper than 64 levels$/);
    const { id } = (
      await c.post('/api/workspace', { name: 'ok', data: createWorkspaceData('INFINITE', idSource('o')) })
    ).json() as { id: string };
    const saved = await c.put(`/api/workspace/${id}`, { data });
    expect(saved.statusCode).toBe(400);
    expect(saved.json()).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('nested deeper') });
    // Nothing changed.
    expect((await c.get(`/api/workspace/${id}`)).json()).toMatchObject({ revision: 1 });
  });

  it('answers a client tag nested 5,000 deep with 400 on every generation endpoint', async () => {
    const c = await signedIn('tag@example.com');
    const endpoints = OPERATION_KINDS.map((kind) => operationOf(kind).endpoint);
    expect(endpoints.length).toBeGreaterThan(5);
    for (const endpoint of endpoints) {
      const response = await c.post(endpoint, `{"prompt":"a cat","client":${nested(5_000)}}`);
      expect(response.statusCode, endpoint).toBe(400);
      const { message } = response.json() as { message: string };
      expect(message).toBe(`client${'.a'.repeat(MAX_JSON_DEPTH - 1)}: nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    // Within the limit the tag is only the tag's business: the request is judged on its own fields.
    const shallow = await c.post(endpoints[0]!, `{"prompt":"","client":${nested(10)}}`);
    expect(shallow.statusCode).toBe(400);
    expect((shallow.json() as { message: string }).message).not.toContain('nested');
  });

  it('refuses NUL and lone surrogates in text fields with 400 naming the field, and stores nothing', async () => {
    const signup = await new TestClient(app).post('/api/auth/signup', {
      email: 'nul@example.com',
      password: 'correct horse battery',
      name: 'A\u0000B',
    });
    expect(signup.statusCode).toBe(400);
    expect(signup.json()).toEqual({
      error: 'invalid_request',
      message: 'name: must not contain the NUL character (U+0000)',
    });
    // The account was not created: signing up again with a clean name works.
    const c = new TestClient(app);
    expect(
      (await c.post('/api/auth/signup', { email: 'nul@example.com', password: 'correct horse battery' })).statusCode,
    ).toBe(201);

    const data = createWorkspaceData('COMIC', idSource('n'));
    const named = await c.post('/api/workspace', { name: 'Chapter\u00001', data });
    expect(named.statusCode).toBe(400);
    expect((named.json() as { message: string }).message).toBe('name: must not contain the NUL character (U+0000)');
    const surrogate = await c.request(
      'POST',
      '/api/workspace',
      // Raw JSON: JSON.stringify would escape the half pair the same way, but say so plainly.
      `{"name":"cut \\ud83d","data":${JSON.stringify(data)}}`,
    );
    expect(surrogate.statusCode).toBe(400);
    expect((surrogate.json() as { message: string }).message).toBe(
      'name: must not contain a lone surrogate (half of a UTF-16 pair)',
    );
    expect((await c.get('/api/workspaces')).json()).toMatchObject({ total: 0 });

    const { id } = (await c.post('/api/workspace', { name: 'ok', data })).json() as { id: string };
    const renamed = await c.patch(`/api/workspace/${id}`, { name: 'x\u0000' });
    expect(renamed.statusCode).toBe(400);
    expect((await c.get('/api/workspaces')).json()).toMatchObject({ items: [{ name: 'ok' }] });

    const flow = await c.get('/api/flow_images/?variationId=%00abc');
    expect(flow.statusCode).toBe(400);
    expect((flow.json() as { message: string }).message).toBe(
      'variationId: must not contain the NUL character (U+0000)',
    );
    const key = await c.post('/api/workspace', { name: 'k', data, ['x\u0000']: 1 });
    expect(key.statusCode).toBe(400);
    expect((key.json() as { message: string }).message).toContain('a field name must not contain the NUL');
  });

  it('repairs NUL and lone surrogates inside a document instead of refusing it, the same on both databases', async () => {
    const c = await signedIn('doctext@example.com');
    const data = createWorkspaceData('COMIC', idSource('t'));
    data.pages[0]!.generatedStory = 'Once\u0000 upon \ud800a time';
    const created = await c.post('/api/workspace', { name: 'story', data });
    expect(created.statusCode).toBe(201);
    const { id } = created.json() as { id: string };
    const got = (await c.get(`/api/workspace/${id}`)).json() as { data: typeof data };
    expect(got.data.pages[0]!.generatedStory).toBe('Once upon \ufffda time');
  });
});
