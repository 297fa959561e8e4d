/**
 * What the job pipeline adds on top of an engine (issue 5), with an engine that answers at once:
 *
 * 1. Latency, submit to COMPLETED received over HTTP (NDJSON stream read to its end), p50 and p99, one job at a
 *    time, beside calling the engine adapter directly in the same run: in-process queue, and BullMQ on Redis
 *    (the HTTP app only queues; the BullMQ worker runs in this process too, so the Redis hops — token, pub/sub
 *    progress and COMPLETED — are measured, not a second process's start-up).
 * 2. 1,000 queued jobs held (the lane's engine blocked): heap growth per queued job, which should be ~0 since a
 *    queued job is a database row, not an object in memory; then the time to drain them.
 *
 * Run: npm run bench:queue (BENCH_JOBS=200 latency samples per mode; REDIS_URL default redis://127.0.0.1:6379).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import {
  createEngineRouter,
  DEFAULT_ENGINE_CONFIG,
  type Engine,
  type EngineRouter,
  type EngineTask,
} from '../apps/server/src/engines/index.ts';
import { startBullWorkers } from '../apps/server/src/jobs/bullmq.ts';
import { RedisJobBus } from '../apps/server/src/jobs/events.ts';
import { LanePool } from '../apps/server/src/jobs/runner.ts';
import { heapUsed, printTable, summarize } from './stats.ts';

const JOBS = Number(process.env.BENCH_JOBS ?? 200);
const HELD = Number(process.env.BENCH_HELD ?? 1000);
const WARM = 500;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
  .png()
  .toBuffer();

/** Answers at once with one 8×8 PNG; `gate` (when set) holds every run until it resolves. */
class InstantEngine implements Engine {
  readonly id = 'builtin' as const;
  gate: Promise<void> | undefined;
  supports(): boolean {
    return true;
  }
  async run(task: EngineTask) {
    if (this.gate) await this.gate;
    const seed = 'seed' in task ? task.seed : 0;
    return {
      images: [{ bytes: tiny, mime: 'image/png', width: 8, height: 8, seed }],
      metadata: { engine: 'builtin' as const, model: 'instant' },
    };
  }
}

const engine = new InstantEngine();
const base = createEngineRouter(DEFAULT_ENGINE_CONFIG);
const router: EngineRouter = { engines: base.engines, engineFor: () => engine };
const body = JSON.stringify({ model: 'aamxl', prompt: 'bench', width: 512, height: 512, steps: 1, num_images: 1 });
const task: EngineTask = {
  kind: 'txt2img',
  model: { id: 'aamxl', path: 'aamxl', modelType: 'sdxl' },
  prompt: 'bench',
  negativePrompt: '',
  steps: 1,
  cfg: 5,
  seed: 1,
  numImages: 1,
  loras: [],
  width: 512,
  height: 512,
};

async function direct(n: number): Promise<number[]> {
  const samples: number[] = [];
  const signal = new AbortController().signal;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await router.engineFor(task).run(task, { onProgress: () => undefined }, signal);
    samples.push(performance.now() - t);
  }
  return samples;
}

async function signUp(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `bench-${randomBytes(4).toString('hex')}@example.com`,
      password: 'correct horse battery',
    }),
  });
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

async function submitToCompleted(baseUrl: string, cookie: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${baseUrl}/api/diffusion/txt2img`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body,
  });
  const text = await res.text();
  const elapsed = performance.now() - t;
  if (!text.trimEnd().endsWith('}') || !text.includes('"COMPLETED"')) throw new Error(`not completed: ${text}`);
  return elapsed;
}

interface Held {
  perJob: number;
  drainMs: number;
  drained: number;
}

interface Mode {
  name: string;
  redis: boolean;
}

async function pipeline(mode: Mode): Promise<{ samples: number[]; held?: Held }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-bench-queue-'));
  const prefix = `koma-bench-${randomBytes(4).toString('hex')}`;
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', STARTING_CREDITS: '1000000' });
  const jobConfig = mode.redis
    ? { redisUrl: REDIS_URL, queuePrefix: prefix, runLocally: false }
    : { redisUrl: undefined, runLocally: true };
  const app = await buildApp(config, { logger: false, jobs: { router, config: jobConfig } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  let workers: { close(): Promise<void> } | undefined;
  let workerBus: RedisJobBus | undefined;
  let workerPool: LanePool | undefined;
  if (mode.redis) {
    const deps = app.koma.jobs.deps;
    workerBus = new RedisJobBus(REDIS_URL, prefix);
    await workerBus.ready;
    workerPool = new LanePool(deps, workerBus, deps.config.concurrency);
    workers = startBullWorkers(REDIS_URL, prefix, workerPool, deps.config.concurrency, { deps, bus: workerBus });
  }
  try {
    const cookie = await signUp(baseUrl);
    for (let i = 0; i < 20; i++) await submitToCompleted(baseUrl, cookie); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < JOBS; i++) samples.push(await submitToCompleted(baseUrl, cookie));

    let held: Held | undefined;
    if (!mode.redis) {
      // Hold the lane: two jobs run (blocked in the engine), the rest wait as rows.
      let release!: () => void;
      engine.gate = new Promise<void>((r) => (release = r));
      const jobs = app.koma.jobs;
      const user = (await app.koma.database.db.selectFrom('users').selectAll().executeTakeFirstOrThrow()).id;
      const publicUser = {
        id: user,
        email: '',
        name: '',
        plan: 'free' as const,
        restrictedMode: false,
        credits: 0,
        purchasedCredits: 0,
      };
      const submit = async () =>
        jobs.enqueue((await jobs.submit(publicUser, 'txt2img', JSON.parse(body) as unknown)).row);
      // Warm-up: the first few hundred submissions grow the heap by JIT code and caches, whatever holds jobs.
      for (let i = 0; i < WARM; i++) await submit();
      const before = heapUsed();
      for (let i = 0; i < HELD; i++) await submit();
      const after = heapUsed();
      const queued = await app.koma.database.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'IN_QUEUE')
        .executeTakeFirstOrThrow();
      console.log(
        `${WARM} + ${HELD} submitted, ${Number(queued.n)} waiting as rows; the last ${HELD} grew the heap by ${((after - before) / 1024).toFixed(0)} KiB`,
      );
      const t = performance.now();
      engine.gate = undefined;
      release();
      for (;;) {
        const left = await app.koma.database.db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', 'in', ['IN_QUEUE', 'IN_PROGRESS'])
          .executeTakeFirstOrThrow();
        if (Number(left.n) === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      held = { perJob: (after - before) / HELD, drainMs: performance.now() - t, drained: WARM + HELD };
    }
    return { samples, ...(held ? { held } : {}) };
  } finally {
    await workers?.close();
    await workerPool?.close();
    await workerBus?.close();
    await app.close();
    if (mode.redis) {
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function redisUp(): Promise<boolean> {
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

await direct(50);
const directSamples = await direct(JOBS);
const inProcess = await pipeline({ name: 'in-process', redis: false });
const withRedis = (await redisUp()) ? await pipeline({ name: 'redis', redis: true }) : undefined;
if (!withRedis) console.log(`No Redis at ${REDIS_URL}: the BullMQ row is skipped.`);

const d = summarize(directSamples);
const rows: Record<string, string | number>[] = [
  { path: 'engine adapter, direct', n: d.n, 'p50 ms': d.p50, 'p99 ms': d.p99, 'p50 added ms': 0, 'p50 ratio': 1 },
];
for (const [name, result] of [
  ['pipeline, in-process', inProcess],
  ['pipeline, BullMQ on Redis', withRedis],
] as const) {
  if (!result) continue;
  const s = summarize(result.samples);
  rows.push({
    path: name,
    n: s.n,
    'p50 ms': s.p50,
    'p99 ms': s.p99,
    'p50 added ms': s.p50 - d.p50,
    'p50 ratio': s.p50 / Math.max(d.p50, 1e-3),
  });
}
printTable(`Submit → COMPLETED received, one job at a time, engine answering at once (${JOBS} jobs)`, rows);
if (inProcess.held) {
  printTable(`${HELD} jobs queued behind a blocked lane (in-process), after ${WARM} warm-up submissions`, [
    {
      'heap per queued job (bytes)': inProcess.held.perJob,
      'jobs drained': inProcess.held.drained,
      'drain time ms': inProcess.held.drainMs,
      'drain jobs/s': (inProcess.held.drained / inProcess.held.drainMs) * 1000,
    },
  ]);
}
process.exit(0);
