// Issue 14 item 4: versions stored as what changed, kept by the retention policy, listed, read, restored and
// copied through the API. Same behaviour on SQLite and PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { createTextLayer, createWorkspaceData, type WorkspaceData } from '@koma/domain';
import type { FastifyInstance } from 'fastify';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/schema.ts';
import { migrationProvider } from '../src/db/migrations.ts';
import { createBackend, type BackendName, type TestBackend } from './support/backends.ts';
import { TestClient } from './support/client.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A comic with a few text layers, so that one small change is small beside the document. */
function comic(layers = 20): WorkspaceData {
  let n = 0;
  const data = createWorkspaceData('COMIC', () => `p-${++n}`);
  for (let i = 0; i < layers; i++) {
    data.pages[0]!.rootLayer.children.push(
      createTextLayer(`t-${i}`, { x: i, y: i, size: { width: 300, height: 120 } }, { text: `Line ${i} `.repeat(8) }),
    );
  }
  return data;
}

function renamed(data: WorkspaceData, layer: number, name: string): WorkspaceData {
  const next = structuredClone(data);
  next.pages[0]!.rootLayer.children[layer]!.name = name;
  return next;
}

const backends: BackendName[] = ['sqlite', 'postgres'];
const UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

describe.each(backends)('version history on %s', (backendName) => {
  let backend: TestBackend;
  let app: FastifyInstance;
  let clock = Date.UTC(2026, 0, 10, 12, 0, 0);

  beforeAll(async () => {
    backend = await createBackend(backendName, { HISTORY_KEYFRAME_EVERY: '10' });
    app = await backend.start();
    await app.close();
    // The same app with a clock the tests move.
    const { buildApp } = await import('../src/app.ts');
    app = await buildApp(backend.config, { logger: false, now: () => new Date(clock) });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await backend?.destroy();
  });

  async function signedIn(email: string): Promise<TestClient> {
    const c = new TestClient(app);
    await c.signUp(`${email}-${backendName}@example.com`);
    return c;
  }

  async function stored(id: string) {
    return app.koma.database.db
      .selectFrom('workspace_revisions')
      .select(['revision', 'kind', 'data'])
      .where('workspace_id', '=', id)
      .orderBy('revision')
      .execute();
  }

  /** The keyframe counters the workspace row keeps, beside the same counted from the stored versions. */
  async function chains(id: string) {
    const row = await app.koma.database.db
      .selectFrom('workspaces')
      .select(['chain_patches', 'chain_bytes'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const rows = await stored(id);
    const after = rows.slice(rows.map((r) => r.kind).lastIndexOf('full') + 1);
    return {
      kept: { patches: Number(row.chain_patches), bytes: Number(row.chain_bytes) },
      counted: { patches: after.length, bytes: after.reduce((sum, r) => sum + r.data.length, 0) },
    };
  }

  it('stores each version as a patch against the one before, with a keyframe every N, and rebuilds any of them', async () => {
    const c = await signedIn('chain');
    let data = comic();
    const { id } = (await c.post('/api/workspace', { name: 'chain', data })).json() as { id: string };
    const docs = [data];
    for (let i = 0; i < 24; i++) {
      data = renamed(data, i % 20, `v${i}`);
      docs.push(data);
      // Full saves and patch saves both end up as patches.
      const saved = await c.put(`/api/workspace/${id}`, { data, revision: i + 1 });
      expect(saved.statusCode).toBe(200);
    }
    const rows = await stored(id);
    expect(rows.map((r) => r.kind)).toEqual(Array.from({ length: 25 }, (_, i) => (i % 10 === 0 ? 'full' : 'patch')));
    // What decides the next keyframe is kept on the workspace row, and agrees with the versions.
    const chain = await chains(id);
    expect(chain.kept).toEqual(chain.counted);
    expect(chain.kept.patches).toBe(4);
    const documentBytes = JSON.stringify(docs[0]).length;
    for (const row of rows.filter((r) => r.kind === 'patch')) {
      expect(row.data.length).toBeLessThan(documentBytes * 0.02);
    }
    for (const revision of [1, 2, 9, 10, 11, 17, 25]) {
      const got = await c.get(`/api/workspace/${id}/revisions/${revision}`);
      expect(got.statusCode).toBe(200);
      expect((got.json() as { data: unknown }).data).toMatchObject(docs[revision - 1]!);
    }
    // The head rebuilds the same after the cache is gone (a restart).
    await app.close();
    const { buildApp } = await import('../src/app.ts');
    app = await buildApp(backend.config, { logger: false, now: () => new Date(clock) });
    c.app = app;
    expect((await c.get(`/api/workspace/${id}`)).json()).toMatchObject({ revision: 25, data: docs[24] });
  });

  it('lists versions with time, device and tab; reads one read-only; restores one as a new version; copies one', async () => {
    const c = await signedIn('routes');
    const v1 = comic(3);
    const { id } = (await c.post('/api/workspace', { name: 'Story', data: v1 })).json() as { id: string };
    clock += MINUTE;
    const v2 = renamed(v1, 0, 'second');
    const saved = await c.put(
      `/api/workspace/${id}`,
      { data: v2, revision: 1 },
      { 'user-agent': UA, 'x-koma-tab': 'tab-A' },
    );
    expect(saved.statusCode).toBe(200);

    const list = (await c.get(`/api/workspace/${id}/revisions`)).json() as {
      head: number;
      items: { revision: number; savedAt: string; device: string | null; tab: string | null }[];
    };
    expect(list.head).toBe(2);
    expect(list.items).toEqual([
      {
        revision: 2,
        savedAt: new Date(clock).toISOString(),
        device: 'Chrome on macOS',
        tab: 'tab-A',
        thumbnailUrl: null,
      },
      expect.objectContaining({ revision: 1, savedAt: new Date(clock - MINUTE).toISOString() }),
    ]);
    const page = (await c.get(`/api/workspace/${id}/revisions?before=2&limit=1`)).json() as { items: unknown[] };
    expect(page.items).toEqual([expect.objectContaining({ revision: 1 })]);

    const one = (await c.get(`/api/workspace/${id}/revisions/1`)).json() as {
      name: string;
      version: { revision: number };
      data: unknown;
    };
    expect(one).toMatchObject({ name: 'Story', type: 'COMIC', version: { revision: 1 }, data: v1 });
    // Reading changed nothing.
    expect((await c.get(`/api/workspace/${id}`)).json()).toMatchObject({ revision: 2, data: v2 });

    const restored = await c.post(`/api/workspace/${id}/revisions/1/restore`);
    expect(restored.json()).toEqual({ revision: 3 });
    expect((await c.get(`/api/workspace/${id}`)).json()).toMatchObject({ revision: 3, data: v1 });
    // The restore is itself a version, so restoring 2 undoes it.
    expect((await c.post(`/api/workspace/${id}/revisions/2/restore`)).json()).toEqual({ revision: 4 });
    expect((await c.get(`/api/workspace/${id}`)).json()).toMatchObject({ revision: 4, data: v2 });

    const copy = await c.post(`/api/workspace/${id}/revisions/1/copy`, {});
    expect(copy.statusCode).toBe(201);
    const copyId = (copy.json() as { id: string }).id;
    expect((await c.get(`/api/workspace/${copyId}`)).json()).toMatchObject({
      name: 'Story (version 1)',
      revision: 1,
      data: v1,
    });
    const named = await c.post(`/api/workspace/${id}/revisions/2/copy`, { name: 'Draft B' });
    expect((await c.get(`/api/workspace/${(named.json() as { id: string }).id}`)).json()).toMatchObject({
      name: 'Draft B',
      data: v2,
    });
    // The original is untouched by copies.
    expect((await c.get(`/api/workspace/${id}`)).json()).toMatchObject({ revision: 4 });
  });

  it('keeps every version of the last hour, one per hour for 7 days, one per day for 90, and the rest rebuild', async () => {
    const c = await signedIn('retain');
    let data = comic(5);
    const start = clock;
    const { id } = (await c.post('/api/workspace', { name: 'r', data })).json() as { id: string };
    const docs = new Map<number, WorkspaceData>([[1, data]]);
    // 3 saves 20 minutes apart in each of 4 hours.
    let revision = 1;
    for (let i = 0; i < 12; i++) {
      clock += 20 * MINUTE;
      data = renamed(data, i % 5, `s${i}`);
      revision = ((await c.put(`/api/workspace/${id}`, { data, revision })).json() as { revision: number }).revision;
      docs.set(revision, data);
    }
    // Two days later one more save runs the retention pass.
    clock = start + 2 * DAY;
    data = renamed(data, 0, 'later');
    revision = ((await c.put(`/api/workspace/${id}`, { data, revision })).json() as { revision: number }).revision;
    docs.set(revision, data);
    const list = (await c.get(`/api/workspace/${id}/revisions`)).json() as {
      items: { revision: number; savedAt: string }[];
    };
    const hours = list.items.map((v) => Math.floor(Date.parse(v.savedAt) / HOUR));
    // One per clock hour, the newest of each, plus the head.
    expect(new Set(hours).size).toBe(hours.length);
    expect(list.items.length).toBeLessThan(13);
    expect(list.items[0]?.revision).toBe(revision);
    for (const { revision: r } of list.items) {
      const got = (await c.get(`/api/workspace/${id}/revisions/${r}`)).json() as { data: unknown };
      expect(got.data, `revision ${r}`).toMatchObject(docs.get(r)!);
    }
    // Retention rewrote versions: the row's keyframe counters were counted again.
    const pruned = await chains(id);
    expect(pruned.kept).toEqual(pruned.counted);
    // A dropped one is gone, in words.
    const dropped = [...docs.keys()].find((r) => !list.items.some((v) => v.revision === r))!;
    expect((await c.get(`/api/workspace/${id}/revisions/${dropped}`)).statusCode).toBe(404);

    // 100 days later only the head and what is younger than 90 days stay.
    clock = start + 100 * DAY;
    // The session has long ended by then.
    expect(
      (await c.post('/api/auth/signin', { email: `retain-${backendName}@example.com`, password: 'correct horse' }))
        .statusCode,
    ).toBe(200);
    data = renamed(data, 1, 'much later');
    revision = ((await c.put(`/api/workspace/${id}`, { data, revision })).json() as { revision: number }).revision;
    const late = (await c.get(`/api/workspace/${id}/revisions`)).json() as { items: { revision: number }[] };
    expect(late.items.map((v) => v.revision)).toEqual([revision]);
    expect((await c.get(`/api/workspace/${id}`)).json()).toMatchObject({ revision, data });
    const rows = await stored(id);
    expect(rows.map((r) => r.kind)).toEqual(['full']);
    expect((await chains(id)).kept).toEqual({ patches: 0, bytes: 0 });
  });

  it('refuses bad parameters in words naming the field, 404s what is not theirs, never 500s', async () => {
    const c = await signedIn('bad');
    const { id } = (await c.post('/api/workspace', { name: 'b', data: comic(1) })).json() as { id: string };
    const cases: [string, 'GET' | 'POST', RegExp][] = [
      [`/api/workspace/${id}/revisions/abc`, 'GET', /revision/],
      [`/api/workspace/${id}/revisions/0`, 'GET', /revision must be 1 or more/],
      [`/api/workspace/${id}/revisions/1.5`, 'GET', /revision/],
      [`/api/workspace/${id}/revisions/99999999999`, 'GET', /revision must be at most/],
      [`/api/workspace/${id}/revisions/abc/restore`, 'POST', /revision/],
      [`/api/workspace/${id}/revisions/-1/copy`, 'POST', /revision/],
      [`/api/workspace/${id}/revisions?limit=0`, 'GET', /limit/],
      [`/api/workspace/${id}/revisions?limit=x`, 'GET', /limit/],
      [`/api/workspace/${id}/revisions?before=nope`, 'GET', /before/],
      [`/api/workspace/a%2Fb/revisions`, 'GET', /id/],
    ];
    for (const [url, method, message] of cases) {
      const res = method === 'GET' ? await c.get(url) : await c.post(url, {});
      expect(res.statusCode, url).toBe(400);
      expect((res.json() as { message: string }).message, url).toMatch(message);
    }
    // Text the databases would store differently (PostgreSQL refuses NUL) is refused alike on both.
    for (const name of ['a\u0000b', 'a\ud800b']) {
      const odd = await c.post(`/api/workspace/${id}/revisions/1/copy`, { name });
      expect(odd.statusCode, JSON.stringify(name)).toBeLessThan(500);
      if (odd.statusCode === 201) {
        const copied = (await c.get(`/api/workspace/${(odd.json() as { id: string }).id}`)).json() as { name: string };
        expect(copied.name.includes('\u0000') || copied.name.includes('\ud800')).toBe(false);
      } else expect((odd.json() as { message: string }).message).toMatch(/name/);
    }
    const emptyName = await c.post(`/api/workspace/${id}/revisions/1/copy`, { name: ' ' });
    expect(emptyName.statusCode).toBe(400);
    expect((emptyName.json() as { message: string }).message).toMatch(/name/);

    for (const url of [
      `/api/workspace/${id}/revisions/7`,
      `/api/workspace/${id}/revisions/7/restore`,
      `/api/workspace/${id}/revisions/7/copy`,
    ]) {
      const res = url.endsWith('7') ? await c.get(url) : await c.post(url, {});
      expect(res.statusCode, url).toBe(404);
    }
    const other = await signedIn('other');
    const attempts = [
      await other.get(`/api/workspace/${id}/revisions`),
      await other.get(`/api/workspace/${id}/revisions/1`),
      await other.post(`/api/workspace/${id}/revisions/1/restore`),
      await other.post(`/api/workspace/${id}/revisions/1/copy`, {}),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'not_found' });
    }
    expect((await c.get(`/api/workspace/${id}`)).json()).toMatchObject({ revision: 1 });
  });
});

describe.each(backends)('migrating full-copy revisions on %s', (backendName) => {
  let backend: TestBackend;

  beforeAll(async () => {
    backend = await createBackend(backendName);
  }, 60_000);

  afterAll(async () => {
    await backend?.destroy();
  });

  it('turns the kept full copies into a keyframe and patches that rebuild to the same documents', async () => {
    const url = backend.config.databaseUrl;
    const db = url
      ? new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }) })
      : (() => {
          fs.mkdirSync(backend.config.dataDir, { recursive: true });
          return new Kysely<DB>({
            dialect: new SqliteDialect({ database: new SQLite(path.join(backend.config.dataDir, 'koma.sqlite')) }),
          });
        })();
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo('0005_idempotency_keys')).error).toBeUndefined();
    const now = new Date().toISOString();
    await db
      .insertInto('users')
      .values({
        id: 'u1',
        email: 'm@example.com',
        name: 'm',
        password_hash: 'x',
        plan: 'free',
        restricted_mode: 0,
        credits: 0,
        purchased_credits: 0,
        created_at: now,
      })
      .execute();
    await db
      .insertInto('workspaces')
      .values({
        id: 'w1',
        user_id: 'u1',
        name: 'old',
        type: 'COMIC',
        revision: 5,
        thumbnail_ids: '{}',
        thumbnail_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    let data = comic(10);
    const docs: WorkspaceData[] = [];
    for (let r = 1; r <= 5; r++) {
      data = renamed(data, r, `old ${r}`);
      docs.push(data);
      // Revisions 1..5 as the old server kept them: whole copies (without the columns added later).
      await (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
        .insertInto('workspace_revisions')
        .values({ workspace_id: 'w1', revision: r, data: JSON.stringify(data), saved_at: now })
        .execute();
    }
    await db.destroy();

    const app = await backend.start();
    try {
      const rows = await app.koma.database.db
        .selectFrom('workspace_revisions')
        .select(['revision', 'kind', 'data'])
        .where('workspace_id', '=', 'w1')
        .orderBy('revision')
        .execute();
      expect(rows.map((r) => r.kind)).toEqual(['full', 'patch', 'patch', 'patch', 'patch']);
      // The keyframe counters of rows stored before they existed are counted by the migration.
      const counters = await app.koma.database.db
        .selectFrom('workspaces')
        .select(['chain_patches', 'chain_bytes'])
        .where('id', '=', 'w1')
        .executeTakeFirstOrThrow();
      expect({ patches: Number(counters.chain_patches), bytes: Number(counters.chain_bytes) }).toEqual({
        patches: 4,
        bytes: rows.slice(1).reduce((sum, r) => sum + r.data.length, 0),
      });
      for (const r of [2, 3, 4, 5]) {
        expect(rows[r - 1]!.data.length).toBeLessThan(JSON.stringify(docs[0]).length / 10);
        const version = await app.koma.workspaces.version('u1', 'w1', r);
        expect(JSON.parse(version.data.toString('utf8'))).toEqual(docs[r - 1]);
      }
    } finally {
      await app.close();
    }
  });
});
