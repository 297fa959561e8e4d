/**
 * Saves that send what changed (issue 14): a 10-page, 500-layer comic; after each small command (one layer
 * moved) the editor's own patch builder makes the save, sent over HTTP on loopback to the real server app in this
 * process (SQLite). Beside it, in the same run, the full-document PUT the editor sent before. Then the stored
 * versions are read back cold: the time to rebuild and open the oldest of them and the worst placed one (just
 * before a keyframe).
 *
 * Server CPU per request is process CPU between Fastify's onRequest and onResponse: the client is idle then,
 * awaiting the answer. The window opens at this bench's onRequest hook, which runs after the app's own (security
 * headers, session lookup), so those fall outside it; the process CPU read from /proc beside it includes them. It includes the fsync of every SQLite commit
 * (synchronous=FULL, so an acknowledged save survives power loss). A third row saves the same command on a
 * one-layer document: what any save costs whatever the document's size. Targets: a one-layer change sends < 2 KB and costs < 1 ms server CPU at p50; storage per
 * version < 2 % of the document; any version opens in < 300 ms.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  applyJsonPatch,
  createComicPage,
  createPanelLayer,
  createTextLayer,
  createWorkspaceData,
  decodeWorkspaceData,
  diffJson,
  encodeWorkspaceData,
  knowDocument,
  validatePatched,
  type WorkspaceData,
} from '@koma/domain';
import { Editor, denormalize, moveLayers, normalize } from '@koma/editor';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig, type ServerConfig } from '../apps/server/src/config.ts';
import { pidCpuMs, threadCpuMs } from './proc-cpu.ts';
import { printTable, summarize } from './stats.ts';

const SAVES = Number(process.env.BENCH_SAVES ?? 1000);
const FULL_SAVES = Number(process.env.BENCH_FULL_SAVES ?? 200);
const PAGES = 10;
const LAYERS_PER_PAGE = 50;

/** 10 pages × 50 layers (a few panels, the rest speech text), as the editor would save it. */
function comic(): { data: WorkspaceData; textIds: string[] } {
  let n = 0;
  const ids = () => `id-${++n}`;
  const data = createWorkspaceData('COMIC', ids);
  while (data.pages.length < PAGES) data.pages.push(createComicPage(ids));
  const textIds: string[] = [];
  for (const page of data.pages) {
    const root = page.rootLayer;
    for (let i = 1; i < 5; i++) {
      root.children.push(
        createPanelLayer(ids(), { x: 40 + i * 10, y: 40 + i * 300, size: { width: 800, height: 280 } }),
      );
    }
    while (root.children.length < LAYERS_PER_PAGE) {
      const id = ids();
      textIds.push(id);
      root.children.push(
        createTextLayer(
          id,
          { x: (n * 37) % 1400, y: (n * 53) % 2200, size: { width: 260, height: 110 } },
          { text: `Line ${n}: we should go before the tide turns.` },
        ),
      );
    }
  }
  return { data: encodeWorkspaceData(data), textIds };
}

/** One page holding one text layer: what any save costs whatever the document (HTTP, session, SQL, commit). */
function tiny(): { data: WorkspaceData; textIds: string[] } {
  let n = 0;
  const data = createWorkspaceData('COMIC', () => `t-${++n}`);
  data.pages[0]!.rootLayer.children.push(
    createTextLayer('t-text', { x: 10, y: 10, size: { width: 260, height: 110 } }, { text: 'Hello' }),
  );
  return { data: encodeWorkspaceData(data), textIds: ['t-text'] };
}

interface Sample {
  bytes: number;
  cpuMs: number;
  latencyMs: number;
}

/** What the parent asks the server process, and what it answers. */
type Question = { kind: 'start' } | { kind: 'stop' } | { kind: 'cpu' } | { kind: 'stored'; id: string };
type Ask = Question & { seq: number };

/**
 * The real server app in a child process (this file, forked with KOMA_BENCH_ROLE=server), so that the client's
 * work (building each save: ~17 ms of encoding and diffing a 500 KB document) and the garbage collection it causes
 * never land in the server's CPU. Server CPU per request is the child's process CPU between Fastify's onRequest and
 * onResponse; the whole child's CPU is also read from /proc as a cross-check that includes what falls outside that
 * window (socket reads before onRequest, GC between requests).
 */
class Server {
  base = '';
  private child: ChildProcess | undefined;
  private seq = 0;
  private waiting = new Map<number, (value: unknown) => void>();

  constructor(private readonly config: ServerConfig) {}

  private ask(message: Question): Promise<unknown> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.waiting.set(seq, resolve);
      this.child!.send({ ...message, seq });
    });
  }

  get pid(): number {
    return this.child!.pid!;
  }

  async start(): Promise<void> {
    if (!this.child) {
      const child = fork(import.meta.filename, [], {
        env: { ...process.env, KOMA_BENCH_ROLE: 'server', KOMA_BENCH_CONFIG: JSON.stringify(this.config) },
        execArgv: [
          ...process.execArgv,
          ...(process.env.BENCH_SERVER_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_SERVER_PROF] : []),
        ],
      });
      child.on('message', (m) => {
        const { seq, value } = m as { seq: number; value: unknown };
        this.waiting.get(seq)?.(value);
        this.waiting.delete(seq);
      });
      this.child = child;
    }
    this.base = (await this.ask({ kind: 'start' })) as string;
  }

  /** Closes the app (its caches go with it); the process stays for the next start. */
  async stop(): Promise<void> {
    await this.ask({ kind: 'stop' });
  }

  async exit(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.send({ seq: 0, kind: 'exit' });
    await gone;
  }

  /** CPU of the last answered request (ms). */
  async takeCpu(): Promise<number> {
    return (await this.ask({ kind: 'cpu' })) as number;
  }

  /** The server process's CPU so far by thread name (ms, 10 ms ticks). */
  threadCpu(): Map<string, number> {
    return threadCpuMs(this.pid);
  }

  /** The whole server process's CPU so far (ms, 10 ms ticks). */
  processCpu(): number {
    return pidCpuMs(this.pid);
  }

  async storedBytes(id: string): Promise<{ bytes: number; rows: number; keyframes: number }> {
    return (await this.ask({ kind: 'stored', id })) as { bytes: number; rows: number; keyframes: number };
  }
}

/** The child: the app, timed per request, driven by the parent's messages. */
function serve(): void {
  const config = JSON.parse(process.env.KOMA_BENCH_CONFIG!) as ServerConfig;
  let app: FastifyInstance | undefined;
  const cpu = new Map<string, NodeJS.CpuUsage>();
  let lastCpu = 0;
  const answer = (seq: number, value: unknown) => process.send!({ seq, value });
  process.on('message', (m) => {
    const ask = m as Ask | { seq: number; kind: 'exit' };
    void (async () => {
      switch (ask.kind) {
        case 'start': {
          app = await buildApp(config, { logger: false });
          app.addHook('onRequest', (request, _reply, done) => {
            cpu.set(request.id, process.cpuUsage());
            done();
          });
          app.addHook('onResponse', (request, _reply, done) => {
            const start = cpu.get(request.id);
            cpu.delete(request.id);
            if (start) {
              const used = process.cpuUsage(start);
              lastCpu = (used.user + used.system) / 1000;
            }
            done();
          });
          await app.listen({ host: '127.0.0.1', port: 0 });
          const address = app.server.address();
          if (!address || typeof address === 'string') throw new Error('no port');
          answer(ask.seq, `http://127.0.0.1:${address.port}`);
          return;
        }
        case 'stop':
          await app?.close();
          app = undefined;
          answer(ask.seq, null);
          return;
        case 'exit':
          await app?.close();
          process.disconnect();
          return;
        case 'cpu':
          answer(ask.seq, lastCpu);
          lastCpu = 0;
          return;
        case 'stored': {
          const rows = await app!.koma.database.db
            .selectFrom('workspace_revisions')
            .select(['kind', 'data'])
            .where('workspace_id', '=', ask.id)
            .execute();
          answer(ask.seq, {
            bytes: rows.reduce((sum, row) => sum + Buffer.byteLength(row.data), 0),
            rows: rows.length,
            keyframes: rows.filter((row) => row.kind === 'full').length,
          });
          return;
        }
      }
    })();
  });
}

async function call(
  server: Server,
  cookie: string,
  method: string,
  url: string,
  body?: string,
): Promise<{ status: number; json: unknown; ms: number }> {
  const started = performance.now();
  const response = await fetch(server.base + url, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body } : {}),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  return { status: response.status, json: text ? JSON.parse(text) : null, ms };
}

/** One editor session's autosaves: each after one command that moves one layer. */
async function autosaves(
  server: Server,
  cookie: string,
  id: string,
  textIds: string[],
  count: number,
  mode: 'patch' | 'full',
): Promise<{ samples: Sample[]; diffMs: number[]; processCpuMean: number }> {
  const cpuBefore = server.processCpu();
  const got = await call(server, cookie, 'GET', `/api/workspace/${id}`);
  const record = got.json as { revision: number; data: unknown };
  const decoded = decodeWorkspaceData(structuredClone(record.data));
  if (!decoded.ok) throw new Error(decoded.error.message);
  const editor = new Editor(normalize(decoded.value, 'COMIC'));
  let acknowledged: unknown = record.data;
  let revision = record.revision;
  const samples: Sample[] = [];
  const diffMs: number[] = [];
  for (let i = 0; i < count; i++) {
    const layer = textIds[(i * 7) % textIds.length]!;
    const moved = editor.execute(moveLayers, { ids: [layer], dx: 1, dy: i % 2 === 0 ? 1 : -1 });
    if (!moved.ok) throw new Error(moved.error);
    // What EditorSession.save does.
    const t0 = performance.now();
    const data = encodeWorkspaceData(denormalize(editor.doc));
    let body: string;
    let url: string;
    let method: string;
    if (mode === 'patch') {
      body = JSON.stringify({ revision, patch: diffJson(acknowledged, data) });
      url = `/api/workspace/${id}/patches`;
      method = 'POST';
    } else {
      body = JSON.stringify({ data, revision });
      url = `/api/workspace/${id}`;
      method = 'PUT';
    }
    diffMs.push(performance.now() - t0);
    const answer = await call(server, cookie, method, url, body);
    if (answer.status !== 200) throw new Error(`save ${i} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
    revision = (answer.json as { revision: number }).revision;
    acknowledged = data;
    samples.push({
      bytes: Buffer.byteLength(body),
      cpuMs: await server.takeCpu(),
      latencyMs: answer.ms,
    });
  }
  return { samples, diffMs, processCpuMean: (server.processCpu() - cpuBefore) / count };
}

/** Reads one version cold (the server rebuilds it) and opens it as the editor does. */
async function openVersion(server: Server, cookie: string, id: string, revision: number) {
  const got = await call(server, cookie, 'GET', `/api/workspace/${id}/revisions/${revision}`);
  if (got.status !== 200) throw new Error(`version ${revision} answered ${got.status}`);
  const serverCpu = await server.takeCpu();
  const t0 = performance.now();
  const decoded = decodeWorkspaceData((got.json as { data: unknown }).data);
  if (!decoded.ok) throw new Error(decoded.error.message);
  new Editor(normalize(decoded.value, 'COMIC'));
  const openMs = performance.now() - t0;
  return { readMs: got.ms, serverCpu, openMs };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-bench-sync-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, SIGNIN_RATE_LIMIT: '1000', LOG_LEVEL: 'silent' }) };
  const server = new Server(config);
  await server.start();
  try {
    const signup = await fetch(`${server.base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench-sync@example.com', password: 'bench-password' }),
    });
    const cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0]!;
    const { data, textIds } = comic();
    const documentBytes = Buffer.byteLength(JSON.stringify(data));
    const create = async (name: string) =>
      (
        (await call(server, cookie, 'POST', '/api/workspace', JSON.stringify({ name, data }))).json as {
          id: string;
        }
      ).id;
    const small = tiny();
    const tinyId = (
      (await call(server, cookie, 'POST', '/api/workspace', JSON.stringify({ name: 'tiny', data: small.data })))
        .json as { id: string }
    ).id;
    const patchId = await create('patch saves');
    const fullId = await create('full saves');
    const layerCount = data.pages.reduce((sum, page) => sum + page.rootLayer.children.length, 0);
    console.log(
      `Document: ${PAGES} pages, ${layerCount} layers, ${(documentBytes / 1024).toFixed(0)} KB; ${SAVES} patch saves, ${FULL_SAVES} full PUTs`,
    );

    // Warm-up, so both paths are measured with the JIT settled.
    const warm = await create('warm-up');
    await autosaves(server, cookie, warm, textIds, 30, 'patch');
    await autosaves(server, cookie, warm, textIds, 10, 'full');
    await autosaves(server, cookie, tinyId, small.textIds, 30, 'patch');

    const before = { patch: await server.storedBytes(patchId), full: await server.storedBytes(fullId) };
    const full = await autosaves(server, cookie, fullId, textIds, FULL_SAVES, 'full');
    const threadsBefore = server.threadCpu();
    const patch = await autosaves(server, cookie, patchId, textIds, SAVES, 'patch');
    const threadsAfter = server.threadCpu();
    const fixed = await autosaves(server, cookie, tinyId, small.textIds, Math.min(SAVES, 300), 'patch');
    const after = { patch: await server.storedBytes(patchId), full: await server.storedBytes(fullId) };

    const row = (
      name: string,
      run: { samples: Sample[]; diffMs: number[]; processCpuMean: number },
      stored: number,
      versions: number,
    ) => {
      const bytes = summarize(run.samples.map((s) => s.bytes));
      const cpu = summarize(run.samples.map((s) => s.cpuMs));
      const latency = summarize(run.samples.map((s) => s.latencyMs));
      const perVersion = stored / versions;
      return {
        save: name,
        n: run.samples.length,
        'req bytes p50': bytes.p50,
        'req bytes p99': bytes.p99,
        'server CPU p50 ms': cpu.p50,
        'server CPU p99 ms': cpu.p99,
        'server process CPU mean ms': run.processCpuMean,
        'latency p50 ms': latency.p50,
        'latency p99 ms': latency.p99,
        'client build p50 ms': summarize(run.diffMs).p50,
        'stored B/version': perVersion,
        '% of doc': (100 * perVersion) / documentBytes,
      };
    };
    const patchRow = row('patch (POST …/patches)', patch, after.patch.bytes - before.patch.bytes, SAVES);
    const fullRow = row('full (PUT)', full, after.full.bytes - before.full.bytes, FULL_SAVES);
    const tinyRow = row('patch, one-layer document', fixed, 0, fixed.samples.length);
    printTable('Per save (one layer moved before each)', [patchRow, fullRow, tinyRow]);
    // Before versions were stored as what changed, every save kept a whole copy (the last 20 of them).
    console.log(
      `Before: every version a full copy, ${(documentBytes / 1024).toFixed(0)} KB = 100 % of the document per version.`,
    );
    // Which server threads the patch saves kept busy: the main thread runs the request; the others are V8's
    // garbage collection helpers, libuv's pool and the SQLite checkpointer.
    printTable(
      'Server CPU per patch save by thread (mean ms, from /proc)',
      [...threadsAfter]
        .map(([thread, ms]) => ({ thread, 'ms per save': (ms - (threadsBefore.get(thread) ?? 0)) / SAVES }))
        .filter((r) => r['ms per save'] > 0),
    );
    printTable('Patch save against full PUT, same run (smaller is better)', [
      {
        'request bytes': patchRow['req bytes p50'] / fullRow['req bytes p50'],
        'server CPU p50': patchRow['server CPU p50 ms'] / fullRow['server CPU p50 ms'],
        'latency p50': patchRow['latency p50 ms'] / fullRow['latency p50 ms'],
        'latency p99': patchRow['latency p99 ms'] / fullRow['latency p99 ms'],
      },
    ]);
    console.log(
      `Stored rows for the patch workspace: ${after.patch.rows} (${after.patch.keyframes} keyframes), ${(after.patch.bytes / 1024).toFixed(0)} KB in all`,
    );

    // Cold reads: a fresh server process state (empty document cache) on the same database.
    await server.stop();
    await server.start();
    const head = (await call(server, cookie, 'GET', `/api/workspace/${patchId}`)).json as { revision: number };
    const headMs: number[] = [];
    const oldest = head.revision - SAVES + 1;
    const every = config.history.keyframes.every;
    // The 1,000th-oldest version, and versions just before a keyframe (most patches to apply).
    // Keyframes fall on revisions 1, 1 + every, 1 + 2 × every, … so revision k × every has the most patches.
    const worst = Array.from({ length: 5 }, (_, k) => every * (k + 2)).filter((r) => r < head.revision);
    const opened = [];
    for (const [label, revision] of [
      ['1,000th-oldest', oldest] as const,
      ...worst.map((r) => ['before a keyframe', r] as const),
    ]) {
      const o = await openVersion(server, cookie, patchId, revision);
      opened.push({
        version: `${label} (r${revision})`,
        'read ms': o.readMs,
        'server CPU ms': o.serverCpu,
        'open ms': o.openMs,
        'total ms': o.readMs + o.openMs,
      });
    }
    await server.stop();
    await server.start();
    const t0 = performance.now();
    await call(server, cookie, 'GET', `/api/workspace/${patchId}`);
    headMs.push(performance.now() - t0);
    opened.push({
      version: `head, cold (r${head.revision})`,
      'read ms': headMs[0]!,
      'server CPU ms': await server.takeCpu(),
      'open ms': 0,
      'total ms': headMs[0]!,
    });
    printTable('Rebuild and open a stored version, cold cache', opened);

    // Where a patch save's server CPU goes: the same steps as Workspaces.savePatch, timed in this process.
    const stored = JSON.stringify(data);
    const onePatch = [{ op: 'replace' as const, path: '/pages/3/rootLayer/children/7/transform/x', value: 9 }];
    const step = (f: () => unknown) => {
      const times: number[] = [];
      for (let i = 0; i < 40; i++) {
        const t = performance.now();
        f();
        times.push(performance.now() - t);
      }
      return summarize(times).p50;
    };
    const parsed: unknown = JSON.parse(stored);
    const applied = applyJsonPatch(parsed, onePatch);
    if (!applied.ok) throw new Error(applied.error);
    const decodedDoc = decodeWorkspaceData(applied.value);
    if (!decodedDoc.ok) throw new Error(decodedDoc.error.message);
    // What a patch save does now when the head is held decoded (services/head-cache.ts).
    const held = decodeWorkspaceData(parsed);
    if (!held.ok) throw new Error(held.error.message);
    const known = knowDocument(held.value);
    const onHeld = applyJsonPatch(held.value, onePatch);
    if (!onHeld.ok) throw new Error(onHeld.error);
    const quick = validatePatched(known, held.value, onHeld.value, onePatch);
    if (!quick.ok) throw new Error(`incremental check undecided: ${quick.reason}`);
    printTable('Where a patch save spends server CPU (in-process p50, ms)', [
      {
        'parse base': step(() => JSON.parse(stored)),
        'apply patch': step(() => applyJsonPatch(parsed, onePatch)),
        'decode (codec), before': step(() => decodeWorkspaceData(applied.value)),
        'apply to held head': step(() => applyJsonPatch(held.value, onePatch)),
        'incremental check, now': step(() => validatePatched(known, held.value, onHeld.value, onePatch)),
        serialise: step(() => JSON.stringify(decodedDoc.value)),
        'stored-patch check': step(() => JSON.stringify(applied.value)),
      },
    ]);

    const worstOpen = Math.max(...opened.map((o) => o['total ms']));
    console.log('\nTargets');
    console.log(
      `  one-layer change < 2 KB:          ${patchRow['req bytes p50'] < 2048 ? 'met' : 'NOT met'} (${patchRow['req bytes p50']} B)`,
    );
    console.log(
      `  server CPU p50 < 1 ms:            ${patchRow['server CPU p50 ms'] < 1 ? 'met' : 'NOT met'} (${patchRow['server CPU p50 ms'].toFixed(2)} ms)`,
    );
    console.log(
      `  storage per version < 2 % of doc: ${patchRow['% of doc'] < 2 ? 'met' : 'NOT met'} (${patchRow['% of doc'].toFixed(2)} %)`,
    );
    console.log(
      `  any version opens < 300 ms:       ${worstOpen < 300 ? 'met' : 'NOT met'} (worst ${worstOpen.toFixed(0)} ms)`,
    );
  } finally {
    await server.exit();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.env.KOMA_BENCH_ROLE === 'server') serve();
else await main();
