import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createWorkspaceData } from '@koma/domain';
import { Redis } from 'ioredis';
import pg from 'pg';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpUser, type JobEvent } from '../support/http-user.ts';
import { freePort, startNode, type NodeProcess } from '../support/processes.ts';
import { productionTree, type ProductionTree } from '../support/production.ts';
import { RoundRobinProxy } from '../support/round-robin.ts';

// Issue #22's scale-out test: the built server as 2 API processes and 2 workers on the local PostgreSQL and
// Redis and an s3rver bucket, behind a round-robin proxy; 100 users sign up, save, upload and generate while one
// API process and one worker are killed with SIGKILL; then the invariants of the issue are checked on the data.

const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const USERS = 100;
/** Users in flight at once: enough to keep every process busy, bounded so 2 cores are not swamped. */
const PARALLEL = 20;
const SAVES = 3;
const JOBS = 2;

interface Ack {
  workspace: string;
  /** Every save attempted, by the revision it would make; acknowledged ones are marked. */
  attempts: Map<number, { data: unknown; acked: boolean }>;
}

interface Outcome {
  user: HttpUser;
  ack: Ack;
  images: string[];
  jobs: { id: string; acceptedBy: number; readFrom: number[]; end: JobEvent | undefined; cancelled: boolean }[];
}

const final = (e: JobEvent | undefined) => e?.status === 'COMPLETED' || e?.status === 'FAILED';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.sequential('two API processes and two workers on PostgreSQL, Redis and S3', { timeout: 600_000 }, () => {
  const id = randomBytes(4).toString('hex');
  const dbName = `koma_scale_${id}`;
  const bucket = 'koma-scale';
  let tree: ProductionTree;
  let s3: S3rver;
  let s3Dir: string;
  let s3Url: string;
  let databaseUrl: string;
  let apis: NodeProcess[] = [];
  let workers: NodeProcess[] = [];
  let proxy: RoundRobinProxy;
  const outcomes: Outcome[] = [];
  const timings = { setupMs: 0, runMs: 0, settleMs: 0 };
  let processEnv: (name: string) => NodeJS.ProcessEnv;

  beforeAll(async () => {
    const started = Date.now();
    tree = await productionTree();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
    s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-s3-'));
    const s3Port = await freePort();
    s3 = new S3rver({
      port: s3Port,
      address: '127.0.0.1',
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: bucket }],
    });
    await s3.run();
    s3Url = `http://127.0.0.1:${s3Port}`;
    const engines = path.join(tree.root, 'engines.json');
    // Steps take a moment, so some jobs are running when the worker is killed and cancels land mid-way.
    fs.writeFileSync(engines, JSON.stringify({ default: 'builtin', builtin: { stepDelayMs: 60 } }));
    processEnv = (name: string): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      // Each process its own folder: nothing may be shared through the disk.
      DATA_DIR: fs.mkdtempSync(path.join(tree.root, `${name}-`)),
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: `koma-scale-${id}:`,
      JOB_QUEUE_PREFIX: `koma-scale-${id}`,
      S3_BUCKET: bucket,
      S3_ENDPOINT: s3Url,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      ENGINES_CONFIG: engines,
      BUILTIN_CHARGES: 'true',
      JOB_CONCURRENCY_BUILTIN: '6',
      // A dead worker's jobs are taken over within seconds, not BullMQ's default 30 s.
      JOB_LOCK_MS: '4000',
      JOB_STALLED_CHECK_MS: '2000',
      JOB_TRACE: '1',
      PASSWORD_SCRYPT_LOG2N: '14',
      // Every simulated user comes from 127.0.0.1.
      SIGNIN_RATE_LIMIT: '100000',
      LOG_LEVEL: 'info',
    });
    const logDir = path.join(tree.root, 'logs');
    const start = (name: string, entry: 'main' | 'worker') =>
      startNode({
        cwd: tree.serverDir,
        entry,
        name,
        logDir,
        env: processEnv(name),
        ...(entry === 'worker' ? { portVariable: 'HEALTH_PORT' } : {}),
        readyPath: '/api/ready',
        readyTimeoutMs: 120_000,
      });
    // All four at once on an empty database: the migrations run once, under PostgreSQL's advisory lock.
    [apis, workers] = await Promise.all([
      Promise.all([start('api-0', 'main'), start('api-1', 'main')]),
      Promise.all([start('worker-0', 'worker'), start('worker-1', 'worker')]),
    ]);
    proxy = new RoundRobinProxy(apis.map((a) => a.url));
    await proxy.start();
    timings.setupMs = Date.now() - started;
  }, 600_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all([...apis, ...workers].map((p) => p.stop(5000)));
    await s3?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`koma-scale-${id}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    if (s3Dir) fs.rmSync(s3Dir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    if (process.env.KEEP_SCALE_LOGS !== '1') tree?.remove();
    else console.log(`scale-out logs kept in ${tree.root}/logs`);
  });

  const alive = () => apis.map((a, i) => ({ a, i })).filter(({ a }) => a.child.exitCode === null && !a.child.killed);

  /** Reads a job's stream from an API process other than `not`, moving on to another when one dies under it. */
  async function follow(user: HttpUser, jobId: string, not: number, readFrom: number[]): Promise<JobEvent | undefined> {
    for (let round = 0; round < 20; round++) {
      const others = alive().filter(({ i }) => i !== not || alive().length === 1);
      const pick = others[round % others.length];
      if (!pick) return undefined;
      readFrom.push(pick.i);
      const { events } = await user
        .stream('GET', `/api/jobs/${jobId}/events`, undefined, { base: pick.a.url, timeoutMs: 90_000 })
        .catch(() => ({ events: [] as JobEvent[] }));
      const end = events.at(-1);
      if (final(end)) return end;
      await sleep(200);
    }
    return undefined;
  }

  /** A call through the proxy, retried while the answer is a gateway error (its API process was killed). */
  async function call<T>(user: HttpUser, method: string, url: string, body?: unknown) {
    for (let attempt = 0; ; attempt++) {
      const reply = await user.call<T>(method, url, body, proxy.url).catch(() => ({ status: 0, body: undefined as T }));
      if ((reply.status !== 502 && reply.status !== 0) || attempt >= 5) return reply;
      await sleep(100);
    }
  }

  async function simulate(n: number): Promise<Outcome> {
    const user = new HttpUser(proxy.url);
    const credentials = { email: `scale-${n}@example.com`, password: 'correct horse battery' };
    let signup = await call(user, 'POST', '/api/auth/signup', credentials);
    // A sign-up whose answer was lost with its process may have happened: then the account is there.
    if (signup.status === 409) signup = await call(user, 'POST', '/api/auth/signin', credentials);
    expect(signup.status, JSON.stringify(signup.body)).toBeLessThan(300);
    let ids = 0;
    const data = (save: number) => createWorkspaceData('COMIC', () => `u${n}-s${save}-${++ids}`);
    const first = data(0);
    const created = await call<{ id: string; revision: number }>(user, 'POST', '/api/workspace', {
      name: `Comic ${n}`,
      data: first,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ack: Ack = { workspace: created.body.id, attempts: new Map([[1, { data: first, acked: true }]]) };
    let revision = 1;
    for (let save = 1; save <= SAVES; save++) {
      const next = data(save);
      ack.attempts.set(revision + 1, { data: next, acked: false });
      const saved = await call<{ revision: number }>(user, 'PUT', `/api/workspace/${ack.workspace}`, {
        data: next,
        revision,
      });
      if (saved.status === 200) {
        revision = saved.body.revision;
        ack.attempts.set(revision, { data: next, acked: true });
      } else {
        // No answer (its process died): learn where the document stands and go on from there.
        const read = await call<{ revision: number }>(user, 'GET', `/api/workspace/${ack.workspace}`);
        revision = read.body.revision;
      }
    }
    const png = await sharp({ create: { width: 48, height: 48, channels: 3, background: { r: n, g: 80, b: 160 } } })
      .png()
      .toBuffer();
    const images: string[] = [];
    const uploaded = await call<{ id: string }>(user, 'POST', '/api/image', {
      encoded: png.toString('base64'),
      fileType: 'png',
    });
    if (uploaded.status === 201) images.push(uploaded.body.id);
    const jobs: Outcome['jobs'] = [];
    for (let j = 0; j < JOBS; j++) {
      const cancel = j === 1 && n % 4 === 0;
      let jobId: string | undefined;
      let acceptedBy = -1;
      // Submit through the proxy and hang up after the first event: the rest is read from another process.
      const submitted = await fetch(`${proxy.url}/api/diffusion/txt2img`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: user.cookie },
        body: JSON.stringify({
          model: 'aamxl',
          prompt: `tower ${n}.${j}`,
          width: 512,
          height: 512,
          steps: 8,
          num_images: 1,
        }),
      }).catch(() => undefined);
      if (submitted?.status === 200 && submitted.body) {
        acceptedBy = Number(submitted.headers.get('x-upstream'));
        const reader = submitted.body.getReader();
        let text = '';
        while (!text.includes('\n')) {
          const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
          if (chunk.done) break;
          text += new TextDecoder().decode(chunk.value);
        }
        await reader.cancel().catch(() => undefined);
        jobId = (JSON.parse(text.split('\n')[0] ?? '{}') as { job_id?: string }).job_id;
      }
      if (!jobId) continue;
      if (cancel) await call(user, 'POST', `/api/jobs/${jobId}/cancel`);
      const readFrom: number[] = [];
      const end = await follow(user, jobId, acceptedBy, readFrom);
      jobs.push({ id: jobId, acceptedBy, readFrom, end, cancelled: cancel });
    }
    return { user, ack, images, jobs };
  }

  it('a save through API process 1 reaches an editor streaming from API process 2 within 2 s', async () => {
    const [one, two] = apis as [NodeProcess, NodeProcess];
    const user = new HttpUser(one.url);
    expect((await user.signUp('live-across@example.com')).status).toBe(201);
    const data = createWorkspaceData('COMIC', () => randomBytes(6).toString('hex'));
    const created = await user.call<{ id: string }>('POST', '/api/workspace', { name: 'Live', data });
    expect(created.status).toBe(201);
    const controller = new AbortController();
    const response = await fetch(`${two.url}/api/workspace/${created.body.id}/events`, {
      headers: { cookie: user.cookie },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    /** Reads until an event of `kind` arrives; its data. */
    const next = async (kind: string): Promise<unknown> => {
      for (;;) {
        const match = new RegExp(`event: ${kind}\\ndata: (.*)\\n\\n`).exec(buffer);
        if (match) {
          buffer = buffer.slice(match.index + match[0].length);
          return JSON.parse(match[1]!) as unknown;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before a ${kind} event`);
        buffer += decoder.decode(value, { stream: true });
      }
    };
    try {
      expect(await next('head')).toEqual({ revision: 1 });
      const started = Date.now();
      const saved = await user.call('PUT', `/api/workspace/${created.body.id}`, { data, revision: 1 }, one.url);
      expect(saved.status).toBe(200);
      expect(await next('saved')).toEqual({ revision: 2, tab: null });
      const took = Date.now() - started;
      console.log(`scale-out: a save on API 1 reached a stream on API 2 in ${took} ms`);
      expect(took).toBeLessThan(2_000);
    } finally {
      controller.abort();
    }
  });

  it('serves 100 users while one API process and one worker are killed', async () => {
    const started = Date.now();
    let nextUser = 0;
    let killed = false;
    let failed = false;
    const lanes = Array.from({ length: PARALLEL }, async () => {
      while (nextUser < USERS && !failed) {
        const n = nextUser++;
        if (!killed && n >= USERS * 0.4) {
          // Mid-way: a crash of one of each, with requests and jobs in flight on both.
          killed = true;
          await Promise.all([apis[1]?.kill9(), workers[0]?.kill9()]);
        }
        try {
          outcomes.push(await simulate(n));
        } catch (err) {
          // Stop the other lanes too, so the failure is reported now and nothing runs on in the background.
          failed = true;
          throw err;
        }
      }
    });
    await Promise.all(lanes);
    timings.runMs = Date.now() - started;
    expect(outcomes).toHaveLength(USERS);
    expect(killed).toBe(true);
  });

  it('ends every job exactly once, and streams crossed processes', async () => {
    const settle = Date.now();
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      // Jobs of the killed worker are handed over by stalled-job detection; wait for the last to end.
      for (;;) {
        const open = await db.query(`select count(*)::int as n from jobs where status in ('IN_QUEUE', 'IN_PROGRESS')`);
        if ((open.rows[0] as { n: number }).n === 0 || Date.now() - settle > 120_000) break;
        await sleep(500);
      }
      timings.settleMs = Date.now() - settle;
      const jobs = (await db.query('select id, status, refunded, cost, charged_credits, charged_purchased from jobs'))
        .rows as {
        id: string;
        status: string;
        refunded: number;
        cost: number;
        charged_credits: number;
        charged_purchased: number;
      }[];
      const submitted = outcomes.flatMap((o) => o.jobs);
      // A submission whose answer died with its API process may still have made a job: those are checked too.
      expect(jobs.length).toBeGreaterThanOrEqual(submitted.length);
      expect(jobs.filter((j) => j.status !== 'COMPLETED' && j.status !== 'FAILED')).toEqual([]);
      const ledger = (
        await db.query(`select ref, kind, credits_delta, purchased_delta from credit_ledger where ref is not null`)
      ).rows as { ref: string; kind: string; credits_delta: number; purchased_delta: number }[];
      for (const job of jobs) {
        const entries = ledger.filter((e) => e.ref === job.id);
        const charges = entries.filter((e) => e.kind === 'charge');
        const refunds = entries.filter((e) => e.kind === 'refund');
        expect(charges, job.id).toHaveLength(1);
        expect(-(Number(charges[0]?.credits_delta) + Number(charges[0]?.purchased_delta))).toBe(Number(job.cost));
        // Completed: charged once, never refunded. Failed (cancelled, or lost to a crash): refunded exactly once.
        expect(refunds, job.id).toHaveLength(job.status === 'FAILED' ? 1 : 0);
        expect(Number(job.refunded)).toBe(job.status === 'FAILED' ? 1 : 0);
      }
      // What each client read at the end of its stream is what the database holds.
      const byId = new Map(jobs.map((j) => [j.id, j]));
      for (const job of submitted) {
        expect(job.end?.status, job.id).toBe(byId.get(job.id)?.status);
        // Read from a process other than the one that accepted it (the survivor, once its twin was killed).
        expect(job.readFrom[0] !== job.acceptedBy || alive().length === 1).toBe(true);
      }
      const cancelled = submitted.filter((j) => j.cancelled);
      expect(cancelled.length).toBeGreaterThan(0);
      const counts = {
        jobs: jobs.length,
        completed: jobs.filter((j) => j.status === 'COMPLETED').length,
        failed: jobs.filter((j) => j.status === 'FAILED').length,
        cancelledByUsers: cancelled.length,
        acceptedByKilledApi: submitted.filter((j) => j.acceptedBy === 1).length,
      };
      console.log(`scale-out: ${JSON.stringify({ ...counts, ...timings, proxied: proxy.served })}`);
    } finally {
      await db.end();
    }
  });

  it('keeps every acknowledged save', async () => {
    for (const { ack, user } of outcomes) {
      // Read back from the surviving API process, as the user's next visit would.
      const read = await user.call<{ revision: number; data: unknown }>(
        'GET',
        `/api/workspace/${ack.workspace}`,
        undefined,
        apis[0]?.url,
      );
      expect(read.status).toBe(200);
      const lastAcked = Math.max(...[...ack.attempts].filter(([, a]) => a.acked).map(([r]) => r));
      expect(read.body.revision).toBeGreaterThanOrEqual(lastAcked);
      // The stored document is the one sent for that revision (a later unacknowledged save may have landed).
      const sent = ack.attempts.get(read.body.revision);
      expect(sent, `${ack.workspace} revision ${read.body.revision}`).toBeDefined();
      expect(read.body.data).toEqual(sent?.data);
    }
  });

  it('keeps every ledger equal to its balance', async () => {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const rows = (
        await db.query(`
          select u.id, u.credits, u.purchased_credits,
                 coalesce(sum(l.credits_delta), 0) as ledger_credits,
                 coalesce(sum(l.purchased_delta), 0) as ledger_purchased
          from users u left join credit_ledger l on l.user_id = u.id
          group by u.id, u.credits, u.purchased_credits`)
      ).rows as {
        id: string;
        credits: number;
        purchased_credits: number;
        ledger_credits: string;
        ledger_purchased: string;
      }[];
      // The simulated users, and the one account of the live-update check across API processes.
      expect(rows).toHaveLength(USERS + 1);
      const off = rows.filter(
        (r) =>
          Number(r.credits) !== Number(r.ledger_credits) || Number(r.purchased_credits) !== Number(r.ledger_purchased),
      );
      expect(off).toEqual([]);
    } finally {
      await db.end();
    }
  });

  it('has an object for every image row and a row for every object', async () => {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const client = new S3Client({
      endpoint: s3Url,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    try {
      // A process killed between storing bytes and inserting their row leaves bytes behind; the sweep (run by
      // each worker hourly, here at once through the admin tool of the build) removes them.
      // Not execFileSync: s3rver answers from this very process.
      const swept = await promisify(execFile)(
        process.execPath,
        ['dist/admin.js', 'sweep-orphans', '--older-than', '0'],
        { cwd: tree.serverDir, env: processEnv('admin'), encoding: 'utf8' },
      );
      console.log(`scale-out orphan sweep: ${swept.stdout.trim()}`);
      const rows = new Set(((await db.query('select id from images')).rows as { id: string }[]).map((r) => r.id));
      const objects = new Set<string>();
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        // Derived copies (`<id>.thumb`, `<id>.s256`, `<id>.s512`) belong to their image.
        for (const o of page.Contents ?? []) if (o.Key) objects.add(o.Key.replace(/\.(thumb|s\d+)$/, ''));
        token = page.NextContinuationToken;
      } while (token);
      const uploaded = outcomes.flatMap((o) => o.images);
      expect(uploaded.length).toBeGreaterThan(USERS * 0.9);
      for (const image of uploaded) expect(rows.has(image), image).toBe(true);
      expect([...rows].filter((r) => !objects.has(r))).toEqual([]);
      expect([...objects].filter((o) => !rows.has(o))).toEqual([]);
    } finally {
      client.destroy();
      await db.end();
    }
  });

  it('spread the work over both processes of each kind', () => {
    const claims = workers.map(
      (w) =>
        w
          .log()
          .split('\n')
          .filter((l) => l.includes('"msg":"claimed"')).length,
    );
    expect(
      claims.every((c) => c > 0),
      JSON.stringify(claims),
    ).toBe(true);
    expect(proxy.served.every((c) => c > 0)).toBe(true);
    // The killed ones died of the signal, the survivors are still ready.
    expect(apis[1]?.child.signalCode).toBe('SIGKILL');
    expect(workers[0]?.child.signalCode).toBe('SIGKILL');
    console.log(`scale-out claims per worker: ${JSON.stringify(claims)}`);
  });
});
