/**
 * API throughput on loopback: GET and PUT of a ~300 KB workspace and GET of an image, on SQLite and on
 * PostgreSQL, beside a bare Fastify route that returns the same bytes from memory, measured in the same run.
 *
 * The servers run in a child process (this file, forked with KOMA_BENCH_ROLE=server) so that autocannon,
 * in this process, does not share their event loop. Targets (issue 4): workspace GET at least half the
 * baseline's throughput; PUT p99 under 50 ms on SQLite.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createTextLayer, createWorkspaceData, encodeWorkspaceData } from '@koma/domain';
import Fastify from 'fastify';
import pg from 'pg';
import sharp from 'sharp';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';

/** `postgres` connects over TCP on loopback; `pg-socket` over PostgreSQL's Unix socket, as a server on the same host would. */
type Backend = 'sqlite' | 'postgres' | 'pg-socket';
const BACKENDS: readonly Backend[] = ['sqlite', 'postgres', 'pg-socket'];

interface Ready {
  appPort: number;
  baselinePort: number;
  cookie: string;
  workspaceId: string;
  imageId: string;
  workspaceBytes: number;
  imageBytes: number;
  putBody: string;
}

interface AutocannonResult {
  requests: { average: number; p50: number };
  latency: { p50: number; p99: number; average: number };
  errors: number;
  non2xx: number;
  timeouts: number;
}
type Autocannon = (options: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
}) => Promise<AutocannonResult>;

const require = createRequire(import.meta.url);
const pgAdminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pgSocketDir = process.env.TEST_PG_SOCKET_DIR ?? '/var/run/postgresql';
const hasPgSocket = fs.existsSync(path.join(pgSocketDir, '.s.PGSQL.5432'));
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** A comic document grown with text layers until its JSON is about `bytes` long. */
function workspaceOfSize(bytes: number) {
  let n = 0;
  const data = createWorkspaceData('COMIC', () => `id-${++n}`);
  const page = data.pages[0]!;
  const text = 'The quick brown fox jumps over the lazy dog. '.repeat(4);
  while (JSON.stringify(data).length < bytes) {
    page.rootLayer.children.push(
      createTextLayer(`t-${++n}`, { x: n % 1700, y: n % 2400, size: { width: 300, height: 120 } }, { text }),
    );
  }
  return encodeWorkspaceData(data);
}

async function runServer(backend: Backend): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `koma-bench-${backend}-`));
  let dbName: string | undefined;
  let databaseUrl: string | undefined;
  if (backend !== 'sqlite') {
    dbName = `koma_bench_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(pgAdminUrl);
    url.pathname = `/${dbName}`;
    if (backend === 'pg-socket') {
      url.host = 'localhost';
      url.searchParams.set('host', pgSocketDir);
    }
    databaseUrl = url.toString();
  }
  const config = { ...loadConfig({ DATA_DIR: dataDir, SIGNIN_RATE_LIMIT: '1000' }), databaseUrl };
  const app = await buildApp(config, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });

  const signup = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { email: 'bench@example.com', password: 'bench-password' },
  });
  const cookie = `koma_session=${signup.cookies.find((c) => c.name === 'koma_session')!.value}`;
  const data = workspaceOfSize(300 * 1024);
  const created = await app.inject({
    method: 'POST',
    url: '/api/workspace',
    headers: { cookie },
    payload: { name: 'bench', data },
  });
  if (created.statusCode !== 201) throw new Error(`create failed: ${created.body}`);
  const workspaceId = created.json<{ id: string }>().id;
  const noise = await sharp(randomBytes(256 * 256 * 3), { raw: { width: 256, height: 256, channels: 3 } })
    .png()
    .toBuffer();
  const image = await app.inject({
    method: 'POST',
    url: '/api/image',
    headers: { cookie },
    payload: { encoded: noise.toString('base64'), fileType: 'png' },
  });
  const imageId = image.json<{ id: string }>().id;

  // The baseline: the same bytes, from memory, through a bare Fastify route.
  const workspaceBody = (await app.inject({ method: 'GET', url: `/api/workspace/${workspaceId}`, headers: { cookie } }))
    .rawPayload;
  const baseline = Fastify({ logger: false });
  baseline.get('/workspace', (_req, reply) =>
    reply.header('content-type', 'application/json; charset=utf-8').send(workspaceBody),
  );
  baseline.get('/image', (_req, reply) => reply.header('content-type', 'image/png').send(noise));
  await baseline.listen({ host: '127.0.0.1', port: 0 });

  const port = (server: typeof app) => {
    const address = server.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return address.port;
  };
  const ready: Ready = {
    appPort: port(app),
    baselinePort: port(baseline),
    cookie,
    workspaceId,
    imageId,
    workspaceBytes: workspaceBody.length,
    imageBytes: noise.length,
    putBody: JSON.stringify({ data }),
  };
  process.send!(ready);
  process.on('message', (message) => {
    if (message === 'cpu') {
      process.send!(process.cpuUsage());
      return;
    }
    void (async () => {
      await baseline.close();
      await app.close();
      if (dbName) {
        const admin = new pg.Client({ connectionString: pgAdminUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    })();
  });
}

interface Row {
  backend: string;
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  baselineRps?: number;
  baselineCpu?: number;
  cpuPerRequest: number;
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  /** Server-process CPU (user + system) per request, in µs: unlike req/s, barely moved by other load. */
  cpuPerRequest: number;
}

/** Asks the server child for its cumulative CPU time (µs). */
function serverCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (usage) => {
      const { user, system } = usage as NodeJS.CpuUsage;
      resolve(user + system);
    });
    child.send('cpu');
  });
}

async function once(autocannon: Autocannon, child: ChildProcess, options: Parameters<Autocannon>[0]): Promise<Sample> {
  const before = await serverCpu(child);
  const result = await autocannon(options);
  const after = await serverCpu(child);
  const requests = result.requests.average * options.duration;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.non2xx + result.timeouts,
    cpuPerRequest: requests > 0 ? (after - before) / requests : 0,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function summarise(samples: Sample[]): Sample {
  return {
    rps: median(samples.map((s) => s.rps)),
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    failures: samples.reduce((sum, s) => sum + s.failures, 0),
    cpuPerRequest: median(samples.map((s) => s.cpuPerRequest)),
  };
}

/**
 * Measures a route and its baseline in alternating rounds (base, route, base, route, …) and reports the
 * median of each, so that load from other processes on a shared machine falls on both alike.
 */
async function paired(
  autocannon: Autocannon,
  child: ChildProcess,
  baseline: Parameters<Autocannon>[0],
  route: Parameters<Autocannon>[0],
): Promise<{ base: Sample; route: Sample }> {
  await once(autocannon, child, { ...baseline, duration: 1 }); // warm-up, discarded
  await once(autocannon, child, { ...route, duration: 1 });
  const base: Sample[] = [];
  const measured: Sample[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    base.push(await once(autocannon, child, baseline));
    measured.push(await once(autocannon, child, route));
  }
  return { base: summarise(base), route: summarise(measured) };
}

async function benchBackend(autocannon: Autocannon, backend: Backend): Promise<Row[]> {
  const child: ChildProcess = fork(import.meta.filename, [], {
    env: { ...process.env, KOMA_BENCH_ROLE: 'server', KOMA_BENCH_BACKEND: backend },
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const app = `http://127.0.0.1:${ready.appPort}`;
  const base = `http://127.0.0.1:${ready.baselinePort}`;
  const headers = { cookie: ready.cookie };
  const rows: Row[] = [];
  const get = { connections: 10, duration: DURATION };

  const only = new Set((process.env.BENCH_SCENARIOS ?? 'get,image,put').split(','));
  if (only.has('get')) {
    const ws = await paired(
      autocannon,
      child,
      { ...get, url: `${base}/workspace` },
      { ...get, url: `${app}/api/workspace/${ready.workspaceId}`, headers },
    );
    rows.push({ backend, scenario: `baseline GET ${(ready.workspaceBytes / 1024).toFixed(0)} KB`, ...ws.base });
    rows.push({
      backend,
      scenario: 'GET /api/workspace/:id',
      ...ws.route,
      baselineRps: ws.base.rps,
      baselineCpu: ws.base.cpuPerRequest,
    });
  }
  if (only.has('image')) {
    const img = await paired(
      autocannon,
      child,
      { ...get, url: `${base}/image` },
      { ...get, url: `${app}/api/images/${ready.imageId}`, headers },
    );
    rows.push({ backend, scenario: `baseline GET image ${(ready.imageBytes / 1024).toFixed(0)} KB`, ...img.base });
    rows.push({
      backend,
      scenario: 'GET /api/images/:id',
      ...img.route,
      baselineRps: img.base.rps,
      baselineCpu: img.base.cpuPerRequest,
    });
  }

  // Saves without a revision (last write wins), so every request writes a new revision and prunes old ones.
  for (const connections of only.has('put') ? [1, 4] : []) {
    const put = await paired(
      autocannon,
      child,
      { ...get, url: `${base}/workspace` },
      {
        connections,
        duration: DURATION,
        url: `${app}/api/workspace/${ready.workspaceId}`,
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: ready.putBody,
      },
    );
    rows.push({
      backend,
      scenario: `PUT /api/workspace/:id (${connections} conn)`,
      ...put.route,
      baselineRps: put.base.rps,
      baselineCpu: put.base.cpuPerRequest,
    });
  }

  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  return rows;
}

async function main(): Promise<void> {
  const autocannon = require('autocannon') as Autocannon;
  const backends: Backend[] = process.env.BENCH_BACKENDS
    ? (process.env.BENCH_BACKENDS.split(',') as Backend[])
    : BACKENDS.filter((backend) => backend !== 'pg-socket' || hasPgSocket);
  const rows: Row[] = [];
  for (const backend of backends) rows.push(...(await benchBackend(autocannon, backend)));

  console.log(
    `\nKoma API on loopback: autocannon, ${ROUNDS} alternating rounds of ${DURATION} s per route and its baseline, medians;` +
      ` GET with 10 connections; ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log(
    [
      'backend'.padEnd(9),
      'scenario'.padEnd(34),
      'req/s'.padStart(9),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
      'fail'.padStart(5),
      'vs baseline'.padStart(12),
      'CPU µs/req'.padStart(11),
      'CPU vs base'.padStart(12),
    ].join(' '),
  );
  for (const row of rows) {
    console.log(
      [
        row.backend.padEnd(9),
        row.scenario.padEnd(34),
        row.rps.toFixed(0).padStart(9),
        row.p50.toFixed(1).padStart(8),
        row.p99.toFixed(1).padStart(8),
        String(row.failures).padStart(5),
        (row.baselineRps ? `${(row.rps / row.baselineRps).toFixed(2)}×` : '').padStart(12),
        row.cpuPerRequest.toFixed(0).padStart(11),
        (row.baselineCpu ? `${(row.cpuPerRequest / row.baselineCpu).toFixed(2)}×` : '').padStart(12),
      ].join(' '),
    );
  }
  console.log(
    '\nreq/s and latency move with whatever else the machine runs; server CPU per request (the child process' +
      ' user+system time over the run) does much less, so on a shared machine compare the CPU columns.',
  );
  console.log('Targets: workspace GET ≥ 0.50× its baseline; PUT p99 < 50 ms on SQLite.');
  for (const row of rows) {
    if (row.scenario === 'GET /api/workspace/:id' && row.baselineRps) {
      const ratio = row.rps / row.baselineRps;
      const cpu = row.baselineCpu ? row.baselineCpu / row.cpuPerRequest : 0;
      console.log(
        `  ${row.backend}: workspace GET ${ratio.toFixed(2)}× baseline throughput — ${ratio >= 0.5 ? 'met' : 'MISSED'};` +
          ` by CPU per request ${cpu.toFixed(2)}× — ${cpu >= 0.5 ? 'met' : 'MISSED'}`,
      );
    }
    if (row.backend === 'sqlite' && row.scenario.startsWith('PUT')) {
      console.log(`  sqlite: ${row.scenario} p99 ${row.p99.toFixed(1)} ms — ${row.p99 < 50 ? 'met' : 'MISSED'}`);
    }
  }
}

if (process.env.KOMA_BENCH_ROLE === 'server') {
  await runServer(BACKENDS.find((backend) => backend === process.env.KOMA_BENCH_BACKEND) ?? 'sqlite');
} else {
  await main();
}
