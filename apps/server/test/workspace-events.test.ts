// Issue 14 item 3: an open editor learns of a save made elsewhere at once, through a server-sent event stream per
// open workspace; with REDIS_URL the event crosses API processes.
import { randomBytes } from 'node:crypto';
import { createWorkspaceData } from '@koma/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createBackend, type TestBackend } from './support/backends.ts';
import { TestClient } from './support/client.ts';

const opened: { app: FastifyInstance; backend?: TestBackend }[] = [];

afterAll(async () => {
  for (const { app, backend } of opened.reverse()) {
    await app.close();
    await backend?.destroy();
  }
});

/** Reads SSE events from a listening app until `count` have arrived. */
async function collect(url: string, cookie: string, count: number, started: () => void) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { cookie }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const events: { event: string; data: unknown }[] = [];
  let buffer = '';
  started();
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += Buffer.from(value).toString('utf8');
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) events.push({ event, data: JSON.parse(data) as unknown });
    }
  }
  controller.abort();
  return events;
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

describe('live workspace events', () => {
  it('streams the head, then every save with the tab that made it; 404 for a workspace not yours', async () => {
    const backend = await createBackend('sqlite');
    const app = await backend.start();
    opened.push({ app, backend });
    const base = await listen(app);
    const c = new TestClient(app);
    await c.signUp('live@example.com');
    const data = createWorkspaceData('COMIC', () => randomBytes(6).toString('hex'));
    const { id } = (await c.post('/api/workspace', { name: 'live', data })).json() as { id: string };
    const stranger = new TestClient(app);
    await stranger.signUp('stranger@example.com');
    expect((await stranger.get(`/api/workspace/${id}/events`)).statusCode).toBe(404);

    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    const events = collect(`${base}/api/workspace/${id}/events`, c.cookie!, 3, ready);
    await started;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await c.put(`/api/workspace/${id}`, { data, revision: 1 }, { 'x-koma-tab': 'tab-a' });
    await c.post(`/api/workspace/${id}/patches`, { revision: 2, patch: [] });
    expect(await events).toEqual([
      { event: 'head', data: { revision: 1 } },
      { event: 'saved', data: { revision: 2, tab: 'tab-a' } },
      { event: 'saved', data: { revision: 3, tab: null } },
    ]);
  });

  it('drops the subscription when the editor goes away (a closed tab leaks nothing)', async () => {
    const backend = await createBackend('sqlite');
    const app = await backend.start();
    opened.push({ app, backend });
    const base = await listen(app);
    const events = app.koma.workspaces.events;
    let open = 0;
    const subscribe = events.subscribe.bind(events);
    events.subscribe = (workspaceId, listener) => {
      open++;
      const off = subscribe(workspaceId, listener);
      return () => {
        open--;
        off();
      };
    };
    const c = new TestClient(app);
    await c.signUp('leak@example.com');
    const data = createWorkspaceData('COMIC', () => randomBytes(6).toString('hex'));
    const { id } = (await c.post('/api/workspace', { name: 'leak', data })).json() as { id: string };
    for (let tab = 0; tab < 3; tab++) {
      // collect() aborts its request once it has the head, as a closing tab does.
      const heard = await collect(`${base}/api/workspace/${id}/events`, c.cookie!, 1, () => undefined);
      expect(heard).toEqual([{ event: 'head', data: { revision: 1 } }]);
    }
    await expect.poll(() => open).toBe(0);
  });

  it('with REDIS_URL, a save on one API process reaches an editor streaming from another', async () => {
    const backend = await createBackend('postgres', {
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:`,
    });
    const one = await backend.start();
    opened.push({ app: one, backend });
    const two = await backend.start();
    opened.push({ app: two });
    const baseTwo = await listen(two);
    const c = new TestClient(one);
    await c.signUp('cross@example.com');
    const data = createWorkspaceData('COMIC', () => randomBytes(6).toString('hex'));
    const { id } = (await c.post('/api/workspace', { name: 'x', data })).json() as { id: string };
    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    const events = collect(`${baseTwo}/api/workspace/${id}/events`, c.cookie!, 2, ready);
    await started;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await c.put(`/api/workspace/${id}`, { data, revision: 1 })).statusCode).toBe(200);
    expect(await events).toEqual([
      { event: 'head', data: { revision: 1 } },
      { event: 'saved', data: { revision: 2, tab: null } },
    ]);
  }, 30_000);
});
