/**
 * `npm run bench:scale`: the scale-out setup of the scale-out test (apps/server/test/scale/scale-out.test.ts)
 * without the kills — the built server on the local PostgreSQL and Redis, 2 workers — at 1 and at 2 API
 * processes. Measures workspace GET and autosave (requests/s, p99) and jobs/s through the queue on the builtin
 * engine answering at once; prints the 2-process / 1-process ratio. The load generator spreads requests over the
 * API processes itself (a proxy in one Node process would be the bottleneck) and runs on the same machine, so on
 * 2 cores it competes with the servers: read the ratio with that in mind. Images are not part of these paths, so
 * the processes share a local image folder instead of a bucket.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createWorkspaceData } from '@koma/domain';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startNode, type NodeProcess } from '../apps/server/test/support/processes.ts';
import { productionTree } from '../apps/server/test/support/production.ts';
import { HttpUser } from '../apps/server/test/support/http-user.ts';
import { printTable, summarize } from './stats.ts';
import { closeLeanAgent, leanRequest } from './lean-http.ts';
import { commandCpuMs, pidCpuMs, selfCpuMs } from './proc-cpu.ts';

const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONCURRENCY = 32;
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 5000);
const JOBS = 60;
const CORES = os.availableParallelism();

/** CPU ms per request, by who spent it. */
interface CpuShare {
  api: number;
  postgres: number;
  redis: number;
  generator: number;
}

interface Result {
  getCpu: CpuShare;
  saveCpu: CpuShare;
  getRps: number;
  getP99: number;
  saveRps: number;
  saveP99: number;
  jobsPerS: number;
  errors: number;
}

async function phase(
  apiPids: readonly number[],
  run: (loop: number) => Promise<boolean>,
): Promise<{ rps: number; p99: number; errors: number; cpu: CpuShare }> {
  const reading = () => ({
    api: apiPids.reduce((sum, pid) => sum + pidCpuMs(pid), 0),
    postgres: commandCpuMs('postgres'),
    redis: commandCpuMs('redis-server'),
    generator: selfCpuMs(),
  });
  const before = reading();
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + PHASE_MS;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, loop) => {
      while (Date.now() < end) {
        const t = performance.now();
        const ok = await run(loop).catch(() => false);
        latencies.push(performance.now() - t);
        if (!ok) errors++;
      }
    }),
  );
  const after = reading();
  const per = (key: keyof CpuShare) => (after[key] - before[key]) / latencies.length;
  return {
    rps: latencies.length / ((Date.now() - started) / 1000),
    p99: summarize(latencies).p99,
    errors,
    cpu: { api: per('api'), postgres: per('postgres'), redis: per('redis'), generator: per('generator') },
  };
}

async function measure(apiCount: number): Promise<Result> {
  const id = randomBytes(4).toString('hex');
  const dbName = `koma_bench_scale_${id}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const tree = await productionTree();
  const engines = path.join(tree.root, 'engines.json');
  fs.writeFileSync(engines, JSON.stringify({ default: 'builtin' }));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATA_DIR: path.join(tree.root, 'data'),
    IMAGE_DIR: path.join(tree.root, 'images'),
    DATABASE_URL: url.toString(),
    REDIS_URL,
    REDIS_KEY_PREFIX: `koma-bench-${id}:`,
    JOB_QUEUE_PREFIX: `koma-bench-${id}`,
    ENGINES_CONFIG: engines,
    JOB_CONCURRENCY_BUILTIN: '4',
    PASSWORD_SCRYPT_LOG2N: '14',
    SIGNIN_RATE_LIMIT: '100000',
    LOG_LEVEL: 'warn',
  };
  const logDir = path.join(tree.root, 'logs');
  const processes: NodeProcess[] = [];
  try {
    const start = (name: string, entry: 'main' | 'worker') =>
      startNode({
        cwd: tree.serverDir,
        entry,
        name,
        logDir,
        env,
        ...(entry === 'worker' ? { portVariable: 'HEALTH_PORT' } : {}),
        readyPath: '/api/ready',
        readyTimeoutMs: 120_000,
      });
    // One first, so the migrations are done before the rest start.
    processes.push(await start('api-0', 'main'));
    for (let i = 1; i < apiCount; i++) processes.push(await start(`api-${i}`, 'main'));
    const apis = [...processes];
    processes.push(await start('worker-0', 'worker'), await start('worker-1', 'worker'));
    const base = (loop: number) => apis[loop % apis.length]!.url;

    // One user and one workspace per loop, so autosaves never conflict.
    const users: { user: HttpUser; workspace: string; revision: number }[] = [];
    for (let loop = 0; loop < CONCURRENCY; loop++) {
      const user = new HttpUser(base(loop));
      await user.signUp(`bench-${loop}@example.com`);
      let n = 0;
      const data = createWorkspaceData('COMIC', () => `b${loop}-${++n}`);
      const created = await user.call<{ id: string }>('POST', '/api/workspace', { name: `Bench ${loop}`, data });
      users.push({ user, workspace: created.body.id, revision: 1 });
    }
    const data = createWorkspaceData(
      'COMIC',
      (() => {
        let n = 0;
        return () => `s-${++n}`;
      })(),
    );

    let turn = 0;
    const apiPids = apis.map((p) => p.child.pid ?? 0);
    const get = await phase(apiPids, async (loop) => {
      const u = users[loop]!;
      const reply = await leanRequest(base(loop + turn++), 'GET', `/api/workspace/${u.workspace}`, u.user.cookie);
      return reply.status === 200;
    });
    // The document is serialised once; only the revision changes between autosaves.
    const dataJson = JSON.stringify(data);
    const save = await phase(apiPids, async (loop) => {
      const u = users[loop]!;
      const body = Buffer.from(`{"revision":${u.revision},"data":${dataJson}}`);
      const reply = await leanRequest(base(turn++), 'PUT', `/api/workspace/${u.workspace}`, u.user.cookie, body);
      if (reply.status === 200) u.revision = (JSON.parse(reply.body.toString('utf8')) as { revision: number }).revision;
      return reply.status === 200;
    });
    const jobsStarted = Date.now();
    let next = 0;
    let jobErrors = 0;
    await Promise.all(
      users.slice(0, 16).map(async ({ user }, loop) => {
        while (next < JOBS) {
          next++;
          const { events } = await user.stream(
            'POST',
            '/api/diffusion/txt2img',
            { model: 'aamxl', prompt: 'bench', width: 512, height: 512, steps: 1, num_images: 1 },
            { base: base(loop + next) },
          );
          if (events.at(-1)?.status !== 'COMPLETED') jobErrors++;
        }
      }),
    );
    const jobsPerS = JOBS / ((Date.now() - jobsStarted) / 1000);
    return {
      getCpu: get.cpu,
      saveCpu: save.cpu,
      getRps: get.rps,
      getP99: get.p99,
      saveRps: save.rps,
      saveP99: save.p99,
      jobsPerS,
      errors: get.errors + save.errors + jobErrors,
    };
  } finally {
    closeLeanAgent();
    await Promise.all(processes.map((p) => p.stop(5000)));
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`koma-bench-${id}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    const drop = new pg.Client({ connectionString: adminUrl });
    await drop.connect();
    await drop.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await drop.end();
    tree.remove();
  }
}

const one = await measure(1);
const two = await measure(2);
const row = (name: string, r: Result) => ({
  'API processes': name,
  'GET req/s': r.getRps,
  'GET p99 ms': r.getP99,
  'autosave req/s': r.saveRps,
  'autosave p99 ms': r.saveP99,
  'jobs/s': r.jobsPerS,
  errors: r.errors,
});
printTable(`Scale-out (${CONCURRENCY} concurrent clients, ${PHASE_MS} ms per phase, ${JOBS} jobs, 2 workers)`, [
  row('1', one),
  row('2', two),
  {
    'API processes': 'ratio 2/1',
    'GET req/s': two.getRps / one.getRps,
    'GET p99 ms': two.getP99 / one.getP99,
    'autosave req/s': two.saveRps / one.saveRps,
    'autosave p99 ms': two.saveP99 / one.saveP99,
    'jobs/s': two.jobsPerS / one.jobsPerS,
    errors: '',
  },
]);
const cpuRow = (name: string, cpu: CpuShare) => {
  const total = cpu.api + cpu.postgres + cpu.redis + cpu.generator;
  return {
    phase: name,
    'API ms/req': cpu.api,
    'PostgreSQL ms/req': cpu.postgres,
    'Redis ms/req': cpu.redis,
    'load generator ms/req': cpu.generator,
    // Requests per ms: one API process is held to one core; every process shares the machine's cores.
    'ceiling 2/1 on this machine': Math.min(2 / cpu.api, CORES / total) / Math.min(1 / cpu.api, CORES / total),
  };
};
printTable(`Where the cores went, CPU ms per request (${CORES} cores; ceiling = best possible 2/1 ratio here)`, [
  cpuRow('GET, 1 API', one.getCpu),
  cpuRow('GET, 2 API', two.getCpu),
  cpuRow('autosave, 1 API', one.saveCpu),
  cpuRow('autosave, 2 API', two.saveCpu),
]);
console.log(`\nTarget: GET ratio >= 1.6 on 2 cores (the load generator shares those cores); errors must be 0.`);
