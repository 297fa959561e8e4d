import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { last, LiveServer, User, type Event } from './helpers.ts';

// Scale-out: the HTTP process only queues (BullMQ on the real Redis), two `npm run worker` processes run the
// jobs against the same DATA_DIR, and progress comes back over Redis pub/sub.

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const serverDir = path.resolve(import.meta.dirname, '../..');

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const reachable = await redisReachable();
if (!reachable) console.warn(`Skipping the Redis scale-out tests: no Redis at ${REDIS_URL} (set TEST_REDIS_URL)`);

interface WorkerProcess {
  child: ChildProcess;
  claimed: string[];
  ready: Promise<void>;
}

function startWorker(env: NodeJS.ProcessEnv): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env, JOB_TRACE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const claimed: string[] = [];
  let out = '';
  let err = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      let nl;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        // The worker logs pino JSON lines; JOB_TRACE adds one per claimed job.
        const entry = JSON.parse(line) as { msg?: string; job?: string };
        if (entry.msg === 'koma worker ready') resolve();
        if (entry.msg === 'claimed' && entry.job) claimed.push(entry.job);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (err += chunk));
    child.on('exit', (code) => reject(new Error(`worker exited ${code}: ${err}`)));
  });
  return { child, claimed, ready };
}

async function stopWorker(w: WorkerProcess): Promise<void> {
  if (w.child.exitCode !== null) return;
  const exited = new Promise((r) => w.child.once('exit', r));
  w.child.kill('SIGTERM');
  await exited;
}

describe.skipIf(!reachable)('BullMQ on Redis with two worker processes', () => {
  const prefix = `koma-test-${randomBytes(4).toString('hex')}`;
  const server = new LiveServer();
  const workers: WorkerProcess[] = [];
  const env = { DATA_DIR: server.dataDir, REDIS_URL, JOB_QUEUE_PREFIX: prefix, LOG_LEVEL: 'info' };

  beforeAll(async () => {
    await server.start({ jobs: { config: { redisUrl: REDIS_URL, queuePrefix: prefix, runLocally: false } } });
    workers.push(startWorker(env), startWorker(env));
    await Promise.all(workers.map((w) => w.ready));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    await server.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    server.destroy();
  }, 60_000);

  test('100 concurrent jobs: each completes exactly once, queue positions only fall, credits exact', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => User.signUp(server)));
    for (const u of users) await server.koma.ledger.grant(u.id, 1000, 'test');
    const body = { model: 'aamxl', prompt: 'a paper crane', width: 512, height: 512, steps: 2, num_images: 1 };
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const user = users[i % users.length]!;
        const stream = await user.open('POST', '/api/diffusion/txt2img', body);
        expect(stream.status).toBe(200);
        return { user, events: await stream.all() };
      }),
    );
    const elapsed = Date.now() - started;

    const ids = results.map((r) => String(r.events[0]!.job_id));
    expect(new Set(ids).size).toBe(100);
    for (const { events } of results) {
      expect(events[0]!.status).toBe('IN_QUEUE');
      expect(events.filter((e) => e.status === 'COMPLETED')).toHaveLength(1);
      expect(last(events)!.status).toBe('COMPLETED');
      const positions = events.filter((e: Event) => e.status === 'IN_QUEUE').map((e) => e.queue_position as number);
      for (let i = 1; i < positions.length; i++) expect(positions[i]!).toBeLessThan(positions[i - 1]!);
      expect(events.some((e) => e.status === 'IN_PROGRESS' && (e.logs as string[]).includes('Progress: 2/2'))).toBe(
        true,
      );
    }
    // The first submissions waited behind few jobs, the last behind many.
    expect(Math.max(...results.map((r) => r.events[0]!.queue_position as number))).toBeGreaterThan(50);

    const rows = await server.koma.database.db.selectFrom('jobs').select(['id', 'status', 'attempts']).execute();
    expect(rows).toHaveLength(100);
    expect(rows.every((r) => r.status === 'COMPLETED' && Number(r.attempts) === 1)).toBe(true);
    // Each job was claimed by exactly one worker, and both workers took part.
    const claims = workers.flatMap((w) => w.claimed);
    expect(claims.sort()).toEqual([...ids].sort());
    for (const w of workers) expect(w.claimed.length).toBeGreaterThan(10);
    const images = await server.koma.database.db.selectFrom('images').select('id').execute();
    expect(images).toHaveLength(100);
    const ledger = await server.koma.database.db
      .selectFrom('credit_ledger')
      .select(['kind'])
      .where('ref', 'in', ids)
      .execute();
    expect(ledger.map((l) => l.kind)).toEqual(Array(100).fill('charge'));
    for (const u of users) expect(await u.balance()).toBe(1100 - 25 * 6);
    console.log(
      `100 jobs through Redis and 2 workers in ${elapsed} ms; claims per worker: ${workers.map((w) => w.claimed.length).join(', ')}`,
    );
  }, 120_000);

  test('cancel reaches the worker running the job over pub/sub; refunded once', async () => {
    const user = await User.signUp(server);
    const body = { model: 'aamxl', prompt: 'a slow lighthouse', width: 1024, height: 1024, steps: 30, num_images: 4 };
    const stream = await user.open('POST', '/api/diffusion/txt2img', body);
    const jobId = String((await stream.until((e) => e.status === 'IN_QUEUE')).job_id);
    await stream.until(
      (e) => e.status === 'IN_PROGRESS' && (e.logs as string[]).some((l) => l.startsWith('Progress:')),
    );
    expect((await user.post(`/api/jobs/${jobId}/cancel`, {})).status).toBe(200);
    expect(last(await stream.all())).toMatchObject({ status: 'FAILED', code: 'cancelled' });
    await new Promise((r) => setTimeout(r, 500));
    const ledger = await server.koma.database.db
      .selectFrom('credit_ledger')
      .select(['kind', 'credits_delta'])
      .where('ref', '=', jobId)
      .orderBy('created_at')
      .execute();
    expect(ledger).toEqual([
      { kind: 'charge', credits_delta: -24 },
      { kind: 'refund', credits_delta: 24 },
    ]);
    expect(await user.balance()).toBe(100);
  }, 60_000);

  test('a worker killed mid-job: its token is re-delivered, the job re-queued once and completed, charged once', async () => {
    await Promise.all(workers.map(stopWorker));
    const fast = { ...env, JOB_LOCK_MS: '2000', JOB_STALLED_CHECK_MS: '1000' };
    const doomed = startWorker(fast);
    await doomed.ready;
    const user = await User.signUp(server);
    const body = { model: 'aamxl', prompt: 'a long voyage', width: 768, height: 768, steps: 30, num_images: 1 };
    const stream = await user.open('POST', '/api/diffusion/txt2img', body);
    const jobId = String((await stream.until((e) => e.status === 'IN_QUEUE')).job_id);
    await stream.until(
      (e) => e.status === 'IN_PROGRESS' && (e.logs as string[]).some((l) => l.startsWith('Progress:')),
    );
    doomed.child.kill('SIGKILL');
    await new Promise((r) => doomed.child.once('exit', r));

    const rescuer = startWorker(fast);
    workers.push(rescuer);
    await rescuer.ready;
    const events = await stream.all();
    expect(last(events)?.status).toBe('COMPLETED');
    expect(
      events.some((e) => e.status === 'IN_PROGRESS' && (e.logs as string[]).includes('Restarted (attempt 2)')),
    ).toBe(true);
    expect(rescuer.claimed).toEqual([jobId]);
    await expectRunTwiceChargedOnce(jobId);
    expect(await user.balance()).toBe(94);
  }, 90_000);

  // The scale-out test once left a job IN_PROGRESS for good after killing a worker: the worker recorded which row
  // its token had claimed only after the database had the claim, and died between the two.
  test('a worker killed right after its claim: the job is still re-queued, completed and charged once', async () => {
    await Promise.all(workers.map(stopWorker));
    const fast = { ...env, JOB_LOCK_MS: '2000', JOB_STALLED_CHECK_MS: '1000' };
    const doomed = startWorker({ ...fast, KOMA_FAILPOINTS: 'kill-after-claim' });
    await doomed.ready;
    const died = new Promise((r) => doomed.child.once('exit', (_code, signal) => r(signal)));
    const user = await User.signUp(server);
    const body = { model: 'aamxl', prompt: 'a short hop', width: 512, height: 512, steps: 4, num_images: 1 };
    const stream = await user.open('POST', '/api/diffusion/txt2img', body);
    const jobId = String((await stream.until((e) => e.status === 'IN_QUEUE')).job_id);
    expect(await died).toBe('SIGKILL');
    expect(await jobState(jobId)).toEqual({ status: 'IN_PROGRESS', attempts: 1 });

    const rescuer = startWorker(fast);
    workers.push(rescuer);
    await rescuer.ready;
    const events = await stream.all();
    expect(last(events)?.status).toBe('COMPLETED');
    expect(rescuer.claimed).toEqual([jobId]);
    await expectRunTwiceChargedOnce(jobId);
  }, 90_000);

  function jobState(jobId: string) {
    return server.koma.database.db
      .selectFrom('jobs')
      .select(['status', 'attempts'])
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
  }

  /** A job rescued from a dead worker: completed on its second attempt, charged once and never refunded. */
  async function expectRunTwiceChargedOnce(jobId: string): Promise<void> {
    expect(await jobState(jobId)).toEqual({ status: 'COMPLETED', attempts: 2 });
    const ledger = await server.koma.database.db
      .selectFrom('credit_ledger')
      .select(['kind'])
      .where('ref', '=', jobId)
      .execute();
    expect(ledger.map((l) => l.kind)).toEqual(['charge']);
  }
});
