/**
 * The cold PSD export in the browser the app runs in: each job in a fresh module Web Worker in Chromium (the e2e
 * tests' /usr/bin/chromium), our export as apps/web/src/export/psd.worker.ts runs it and the bare ag-psd write of the
 * same document alike, on the page of export.bench.ts (normal, and every image turned and blended). The inputs are
 * fetched into the page once; before each job a copy is made and a fresh worker is started and has loaded its
 * bundle (both outside the clock), then the job is posted with its buffers transferred. CPU time is the renderer
 * process's (every thread: the page's, idle while it waits, the worker's and V8's helpers), from /proc/<pid>/task/*
 * /schedstat (nanoseconds) read just before the job is posted and just after its reply; so it holds the message's
 * delivery as well as the job, alike for both. Medians over rounds, order rotated, a `gc()` of the page and a pause
 * before each. Beside the cold rows, the turned page as a repeat export in a kept worker (the same job just before,
 * untimed). Our thumbnail is Chromium's JPEG here, so our file is a few hundred bytes off the bare document's (whose
 * thumbnail sharp encoded in Node); `npm run bench:export:browser`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { launchBrowser } from '../e2e/support/browser.ts';
import { bareDocument, fixture } from './export-fixture.ts';
import { median, printTable } from './stats.ts';

const RUNS = Number(process.env.RUNS ?? 5);

/** The page's Web Worker, typed by hand: the bench's TypeScript program has Node's types, not the DOM's. */
interface PageWorker {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  terminate(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: { message: string }) => void) | null;
}
type PageWorkerClass = new (url: string, options: { type: 'module' }) => PageWorker;

/** A value with its typed arrays swapped for references into one binary blob: JSON plus bytes, for the page. */
function pack(value: unknown): { json: string; bytes: Buffer } {
  const parts: Buffer[] = [];
  let offset = 0;
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (!ArrayBuffer.isView(v)) return v;
    const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    parts.push(b);
    const ref = { __bytes: offset, length: v.byteLength, clamped: v instanceof Uint8ClampedArray };
    offset += v.byteLength;
    return ref;
  });
  return { json, bytes: Buffer.concat(parts) };
}

/** CPU nanoseconds of every thread of a process (schedstat's first field: time on a CPU). */
function processCpuNs(pid: number): number {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return total;
}

/** The parent pid of a process, or 0. */
function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/** The renderer processes of the browser this process started, biggest resident size first (the page's). */
function renderers(): number[] {
  const found: { pid: number; rss: number }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      let up = parentOf(Number(name));
      while (up > 1 && up !== process.pid) up = parentOf(up);
      if (up !== process.pid) continue;
      const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1] ?? 0);
      found.push({ pid: Number(name), rss });
    } catch {
      // gone
    }
  }
  return found.sort((a, b) => b.rss - a.rss).map((f) => f.pid);
}

const normal = fixture();
const turned = fixture(false, true);
const inputs = {
  ours: pack({ kind: 'ours', plan: normal.plan, rasters: [...normal.rasters] }),
  bare: pack({ kind: 'bare', psd: await bareDocument(normal.plan, normal.rasters) }),
  oursTurned: pack({ kind: 'ours', plan: turned.plan, rasters: [...turned.rasters] }),
  bareTurned: pack({ kind: 'bare', psd: await bareDocument(turned.plan, turned.rasters) }),
};
type Input = keyof typeof inputs;
/**
 * The cold jobs, and the turned page's as a repeat export in the tab's kept worker (worker-client.ts): the same
 * worker ran the same job just before, untimed, and its garbage is still there (an idle worker is not collected).
 */
const variants = {
  ours: { input: 'ours', warm: false },
  bare: { input: 'bare', warm: false },
  oursTurned: { input: 'oursTurned', warm: false },
  bareTurned: { input: 'bareTurned', warm: false },
  oursTurnedWarm: { input: 'oursTurned', warm: true },
  bareTurnedWarm: { input: 'bareTurned', warm: true },
} satisfies Record<string, { input: Input; warm: boolean }>;
type Variant = keyof typeof variants;
const order = Object.keys(variants) as Variant[];

const bundle = await build({
  entryPoints: [fileURLToPath(new URL('./export-browser.worker.ts', import.meta.url))],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  minify: true,
  write: false,
});
const workerJs = bundle.outputFiles[0]!.contents;

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  const [, name, kind] = /^\/inputs\/(\w+)\.(json|bin)$/.exec(url) ?? [];
  if (url === '/') res.end('<!doctype html><title>export bench</title>');
  else if (url === '/worker.js') res.setHeader('content-type', 'text/javascript').end(workerJs);
  else if (name && name in inputs) {
    const input = inputs[name as Input];
    res.end(kind === 'json' ? input.json : input.bytes);
  } else res.writeHead(404).end();
});
server.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await launchBrowser(['--js-flags=--expose-gc']);
try {
  const page = await browser.newPage();
  // tsx compiles this file keeping function names, with a `__name` helper the page does not have.
  await page.addInitScript('globalThis.__name = (f) => f;');
  await page.goto(base);
  // The page keeps each variant's inputs, unpacked; every job gets a copy (its buffers are transferred away).
  await page.evaluate(async (names) => {
    const held: Record<string, unknown> = {};
    for (const name of names) {
      const json = await (await fetch(`/inputs/${name}.json`)).text();
      const bytes = new Uint8Array(await (await fetch(`/inputs/${name}.bin`)).arrayBuffer());
      held[name] = JSON.parse(json, (_key, v: { __bytes?: number; length: number; clamped: boolean }) => {
        if (v && typeof v === 'object' && typeof v.__bytes === 'number') {
          const copy = bytes.slice(v.__bytes, v.__bytes + v.length);
          return v.clamped ? new Uint8ClampedArray(copy.buffer) : copy;
        }
        return v;
      });
    }
    (globalThis as { held?: unknown }).held = held;
  }, Object.keys(inputs));
  const pid = renderers()[0];
  if (!pid) throw new Error('no renderer process found');

  const cpu = Object.fromEntries(order.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
  const wall = Object.fromEntries(order.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
  const sizes = Object.fromEntries(order.map((v) => [v, 0])) as Record<Variant, number>;
  for (let i = 0; i < RUNS + 1; i++) {
    for (const variant of [...order.slice(i % order.length), ...order.slice(0, i % order.length)]) {
      // A fresh worker that has loaded its bundle, and a copy of the inputs with the buffers to transfer: untimed.
      await page.evaluate(async ({ input: name, warm }) => {
        const g = globalThis as unknown as {
          held: Record<string, unknown>;
          pending?: { worker: PageWorker; job: unknown; transfer: ArrayBuffer[] };
          gc?: () => void;
          Worker: PageWorkerClass;
        };
        const worker = new g.Worker('/worker.js', { type: 'module' });
        await new Promise<void>((resolve, reject) => {
          worker.onmessage = () => resolve();
          worker.onerror = (e) => reject(new Error(e.message));
        });
        const copy = () => {
          const job = structuredClone(g.held[name]);
          const transfer = new Set<ArrayBuffer>();
          const walk = (v: unknown): void => {
            if (ArrayBuffer.isView(v)) transfer.add(v.buffer as ArrayBuffer);
            else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
          };
          walk(job);
          return { job, transfer: [...transfer] };
        };
        if (warm) {
          const first = copy();
          await new Promise<void>((resolve) => {
            worker.onmessage = () => resolve();
            worker.postMessage(first.job, first.transfer);
          });
        }
        g.pending = { worker, ...copy() };
        g.gc?.();
        await new Promise((resolve) => setTimeout(resolve, 150));
      }, variants[variant]);
      const c0 = processCpuNs(pid);
      const result = await page.evaluate(async () => {
        const g = globalThis as unknown as { pending: { worker: PageWorker; job: unknown; transfer: ArrayBuffer[] } };
        const { worker, job, transfer } = g.pending;
        const reply = new Promise<{ wallMs: number; bytes: number }>((resolve) => {
          worker.onmessage = (e) => resolve(e.data as { wallMs: number; bytes: number });
        });
        worker.postMessage(job, transfer);
        return reply;
      });
      const ms = (processCpuNs(pid) - c0) / 1e6;
      await page.evaluate(() => {
        const g = globalThis as unknown as { pending?: { worker: PageWorker } };
        g.pending?.worker.terminate();
        g.pending = undefined;
      });
      if (i > 0) {
        cpu[variant].push(ms);
        wall[variant].push(result.wallMs);
      }
      sizes[variant] = result.bytes;
    }
  }
  const row = (variant: Variant, label: string) => ({
    variant: label,
    cpuMs: median(cpu[variant]),
    wallMs: median(wall[variant]),
    bytes: sizes[variant],
  });
  console.log(`Chromium ${browser.version()}; ${RUNS} runs after a warm-up, each job in a fresh module Web Worker`);
  printTable("Cold export in the browser (medians; CPU ms is the renderer process's, around the job's message)", [
    row('ours', 'PSD: Koma export in a fresh Web Worker'),
    row('bare', 'PSD: bare ag-psd writePsd of the same document in a fresh Web Worker'),
    row('oursTurned', 'PSD: Koma export, every image rotated and blended, in a fresh Web Worker'),
    row('bareTurned', 'PSD: bare ag-psd writePsd of that turned document in a fresh Web Worker'),
    row('oursTurnedWarm', 'PSD: the same turned page, warm worker (it ran this export just before)'),
    row('bareTurnedWarm', 'PSD: bare write of the turned document, warm worker (it ran this write just before)'),
  ]);
  const ratio = (a: Variant, b: Variant) => `${(median(cpu[a]) / median(cpu[b])).toFixed(2)}×`;
  console.log(
    `\nCold, fresh Web Worker, CPU time ours / bare: normal page ${ratio('ours', 'bare')}, every image rotated and blended ${ratio('oursTurned', 'bareTurned')} (target ≤ 1.3×)`,
  );
  console.log(
    `Warm worker (repeat export), turned page, CPU time ours / bare: ${ratio('oursTurnedWarm', 'bareTurnedWarm')}`,
  );
} finally {
  await browser.close();
  server.close();
}
