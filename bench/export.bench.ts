/**
 * Export benchmark: a 1700×2400 comic page with 30 layers (6 panels, 18 images clipped to them, 6 speech bubbles).
 * Our PSD export (plan, composite, trims, thumbnail, ag-psd write) against a bare ag-psd `writePsd` of the very
 * document our export produces (same layers, pixels, editable text, composite and thumbnail), measured in the same
 * run, so the ratio is our own work on top of the writer's; the writer's cost for the pixels alone is shown beside.
 * Each PSD variant also runs in a child process of its own for its peak memory: how far its max RSS rises above its
 * RSS once the inputs (every layer's pixels) are in memory. PNG is the same build for the composite and then an
 * encoder: the browser's (OffscreenCanvas) in the app, sharp standing in here, as it does for the JPEG thumbnail
 * (the jpeg-js Node default is shown beside).
 *
 * Two settings. In process: every variant in this process after a warm-up round (compiled code, and the bench's own
 * ≈ 30 MB heap of fixtures for the collector to mark). Cold, as the app's first export after its worker was let go:
 * each job in a fresh `worker_threads` Worker (export-job.worker.ts), our export and the bare write alike, the
 * inputs transferred in as the app's main thread transfers them to its Web Worker. The worker's start-up and module
 * loading are excluded for both: the clock runs from the job message's arrival in the worker to the bytes produced,
 * on process CPU time (every thread; this thread idles meanwhile). So that cold row pays what a fresh isolate pays,
 * a small heap but no compiled code — on this Node's V8 (11.3: no Maglev), not Chromium's, whose tiers differ: the
 * same cold jobs in a Web Worker in Chromium are export-browser.bench.ts (`npm run bench:export:browser`).
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PSD_PANEL_STROKE_PX } from '@koma/domain';
import {
  buildPsd,
  createRaster,
  fillPolygon,
  strokePolygon,
  ensurePsdPixels,
  writePsdBytes,
  type PagePlan,
  type PlanNode,
  type PlanRaster,
  type Raster,
  attachThumbnail,
  thumbnailPixels,
  PixelPool,
  blendKernel,
  useBlendKernel,
} from '@koma/editor';
import sharp from 'sharp';
import { writePsdUint8Array, type Layer as PsdLayer, type Psd } from 'ag-psd';
import { median, printTable } from './stats.ts';
import { bareDocument, fixture, jpegOf } from './export-fixture.ts';
import type { WorkerJob, WorkerResult } from './export-job.worker.ts';

const RUNS = Number(process.env.RUNS ?? 5);

/** The same pixels with neither the text engine data nor the thumbnail: what ag-psd costs for the pixels alone. */
function pixelsOnlyDocument(document: Psd): Psd {
  const strip = (layers: PsdLayer[]): PsdLayer[] =>
    layers.map((l) => (l.children ? { name: l.name, children: strip(l.children) } : { ...l, text: undefined }));
  return {
    width: document.width,
    height: document.height,
    children: strip(document.children ?? []),
    imageData: document.imageData,
  };
}

/**
 * Our export as the browser worker runs it: build (composite, page layers, trims), thumbnail pixels encoded as JPEG by
 * a native encoder (OffscreenCanvas there, sharp here), write.
 */
async function ours(plan: PagePlan, rasters: Map<string, Raster>, pool?: PixelPool): Promise<number> {
  const built = buildPsd(plan, rasters, { plan: 'subscriber', thumbnail: false, pool });
  const thumb = thumbnailPixels(built.composite);
  attachThumbnail(built.psd, new Uint8Array(await jpegOf(thumb)), thumb.width, thumb.height);
  const size = writePsdBytes(built.psd).length;
  pool?.reclaim();
  return size;
}

/** The blend kernel off for one export: the JavaScript loop, as a browser without WebAssembly SIMD runs it. */
async function withoutKernel(run: () => Promise<number>): Promise<number> {
  useBlendKernel(false);
  try {
    return await run();
  } finally {
    useBlendKernel(true);
  }
}

/** Whether this process blends with the WebAssembly kernel (the rows above other than the JavaScript one). */
const kernelHere = blendKernel() ? 'WebAssembly SIMD' : 'unavailable, so every row used the JavaScript loop';

/**
 * A page of a whole-comic export, as the worker writes page after page: one pool for the job, reclaimed after each
 * write, so every page after the first builds on the buffers of the one before.
 */
const comicPool = new PixelPool();

/**
 * The tab's kept export worker (apps/web/src/export/worker-client.ts): its pool outlives each export, reclaimed after
 * each write, so a repeated single-page export builds on the buffers of the export before it (the cold row is a
 * first export, or one after the worker was let go when idle). Each timed run comes right after an untimed one, with
 * no collection between, as a repeat export meets the garbage of the one before in the worker's heap.
 */
const workerPool = new PixelPool();

/** PNG export as the worker runs it: the same build for the composite, then a native PNG encoder (sharp here). */
async function oursPng(plan: PagePlan, rasters: Map<string, Raster>): Promise<number> {
  const { composite } = buildPsd(plan, rasters, { plan: 'subscriber', thumbnail: false });
  const png = await sharp(composite.data, { raw: { width: composite.width, height: composite.height, channels: 4 } })
    .png()
    .toBuffer();
  return png.length;
}

/** The Node default: the thumbnail encoded by jpeg-js (pure JavaScript, slow to set up its tables). */
function oursJpegJs(plan: PagePlan, rasters: Map<string, Raster>): number {
  return writePsdBytes(buildPsd(plan, rasters, { plan: 'subscriber' }).psd).length;
}

function bare(psd: Psd): number {
  return writePsdUint8Array(psd, { noBackground: true }).length;
}

function allRasters(nodes: readonly PlanNode[]): PlanRaster[] {
  return nodes.flatMap((n) => (n.kind === 'group' ? allRasters(n.children) : [n]));
}

/** The pixels of every PSD layer, the page's own (background, panel area and border) drawn as inputs here. */
function pixelsOf(n: PlanRaster, rasters: Map<string, Raster>): Raster {
  if (n.role === 'background') return createRaster(n.rect.width, n.rect.height, [255, 255, 255, 255]);
  if (n.role === 'panelArea') return fillPolygon(n.rect, n.polygon ?? [], [255, 255, 255, 255]);
  if (n.role === 'panelBorder') return strokePolygon(n.rect, n.polygon ?? [], PSD_PANEL_STROKE_PX, [0, 0, 0, 255]);
  return rasters.get(n.key)!;
}

/** Every distinct buffer under a value, for a transfer list (a buffer may be shared, as the white page is). */
function buffersOf(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) found.add(value.buffer as ArrayBuffer);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) buffersOf(v, found);
  return [...found];
}

/**
 * Runs one job in a fresh worker thread, as the app's cold export runs in a fresh Web Worker, and returns what the
 * worker measured from the job's arrival to its bytes. Worker start-up and module loading happen before, outside
 * the timed window, and alike for both variants (one worker module); the inputs are copied here and transferred, as
 * the app's main thread transfers its rasters. Before the job is sent this heap is collected and there is a pause,
 * so that neither this thread's collector nor the worker's start-up is still running on helper threads.
 * On Node 20 a worker does not inherit `--import tsx`, so it registers tsx itself before importing its module.
 */
async function inFreshWorker(job: WorkerJob): Promise<WorkerResult> {
  const entry = new URL('./export-job.worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(entry)}))`;
  const worker = new Worker(boot, { eval: true });
  try {
    const [ready] = (await once(worker, 'message')) as [unknown];
    if (ready !== 'ready') throw new Error(`export worker: expected ready, got ${String(ready)}`);
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reply = once(worker, 'message');
    worker.postMessage(job, buffersOf(job));
    const [result] = (await reply) as [WorkerResult];
    return result;
  } finally {
    await worker.terminate();
  }
}

/** Our export's inputs, copied for one transfer: the plan and every raster the main thread drew. */
function oursJob(plan: PagePlan, rasters: Map<string, Raster>): WorkerJob {
  const copies = [...rasters].map(([key, r]): [string, Raster] => [key, { ...r, data: r.data.slice() }]);
  return { kind: 'ours', plan: structuredClone(plan), rasters: copies };
}

/** The bare write's input, copied for one transfer: the very document our export produced. */
function bareJob(psd: Psd): WorkerJob {
  return { kind: 'bare', psd: structuredClone(psd) };
}

function countLayers(nodes: readonly PlanNode[]): number {
  return nodes.reduce((n, node) => n + 1 + (node.kind === 'group' ? countLayers(node.children) : 0), 0);
}

const child = process.argv[2];
ensurePsdPixels();
const { plan, rasters } = fixture();
if (child) {
  // A child process runs one variant on inputs built without our exporter (the bare document: every layer's pixels,
  // untrimmed, and a white composite), then reports how far its peak RSS rose above the inputs.
  const psd: Psd = {
    width: plan.width,
    height: plan.height,
    imageData: createRaster(plan.width, plan.height, [255, 255, 255, 255]),
    children: allRasters(plan.nodes).map((n) => ({
      name: n.name,
      left: n.rect.x,
      top: n.rect.y,
      imageData: pixelsOf(n, rasters),
    })),
  };
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss / 1024;
  const peakBefore = process.resourceUsage().maxRSS;
  if (child === 'ours') await ours(plan, rasters);
  if (child === 'bare') bare(psd);
  const peakAfter = process.resourceUsage().maxRSS;
  console.log(JSON.stringify({ aboveKb: peakAfter - before, raised: peakAfter > peakBefore }));
} else {
  const bareDoc = await bareDocument(plan, rasters);
  const pixelsDoc = pixelsOnlyDocument(bareDoc);
  const adjusted = fixture(true);
  const turned = fixture(false, true);
  const bareTurnedDoc = await bareDocument(turned.plan, turned.rasters);
  // Each target's two sides next to each other in a round (the rotation below keeps them adjacent in all but one
  // round in eleven), so that a round's own ratio compares measurements a second apart.
  const variants = {
    ours: () => ours(plan, rasters),
    bare: () => bare(bareDoc),
    oursTurned: () => ours(turned.plan, turned.rasters),
    bareTurned: () => bare(bareTurnedDoc),
    oursTurnedWarm: () => ours(turned.plan, turned.rasters, workerPool),
    oursTurnedComic: () => ours(turned.plan, turned.rasters, comicPool),
    oursTurnedJs: () => withoutKernel(() => ours(turned.plan, turned.rasters)),
    barePixels: () => bare(pixelsDoc),
    oursAdjusted: () => ours(adjusted.plan, adjusted.rasters),
    oursPng: () => oursPng(plan, rasters),
    oursJpegJs: () => oursJpegJs(plan, rasters),
  };
  type Variant = keyof typeof variants;
  const order = Object.keys(variants) as Variant[];
  const wall = Object.fromEntries(order.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
  const cpu = Object.fromEntries(order.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
  const sizes = Object.fromEntries(order.map((v) => [v, 0])) as Record<Variant, number>;
  for (let i = 0; i < RUNS + 1; i++) {
    // Rotate, so that no variant always runs on a warmer (or busier) machine.
    for (const variant of [...order.slice(i % order.length), ...order.slice(0, i % order.length)]) {
      // Each export starts on a collected heap, as one does in the app after the user's idle time; otherwise a
      // variant pays for collecting whatever the one before it left behind.
      (globalThis as { gc?: () => void }).gc?.();
      // The collector frees big buffers on helper threads after gc() returns; process CPU time counts those threads,
      // so without a pause that work lands on whichever variant runs next.
      await new Promise((resolve) => setTimeout(resolve, 30));
      // The kept worker's export before this one ran in the same heap, and an idle worker is not collected in
      // between: its garbage (the last write's buffers) is still there for this export's collector to meet.
      if (variant === 'oursTurnedWarm') await variants.oursTurnedWarm();
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const size = await variants[variant]();
      const c = process.cpuUsage(c0);
      const ms = performance.now() - t0;
      if (i > 0) {
        // the first round warms up
        wall[variant].push(ms);
        cpu[variant].push((c.user + c.system) / 1000);
      }
      sizes[variant] = size;
    }
  }
  // The app's cold export: a fresh worker per job, our export and the bare write alike (see inFreshWorker).
  const fresh = {
    ours: () => inFreshWorker(oursJob(plan, rasters)),
    bare: () => inFreshWorker(bareJob(bareDoc)),
    oursTurned: () => inFreshWorker(oursJob(turned.plan, turned.rasters)),
    bareTurned: () => inFreshWorker(bareJob(bareTurnedDoc)),
  };
  type Fresh = keyof typeof fresh;
  const freshOrder = Object.keys(fresh) as Fresh[];
  const freshCpu = Object.fromEntries(freshOrder.map((v) => [v, [] as number[]])) as Record<Fresh, number[]>;
  const freshWall = Object.fromEntries(freshOrder.map((v) => [v, [] as number[]])) as Record<Fresh, number[]>;
  const freshSizes = Object.fromEntries(freshOrder.map((v) => [v, 0])) as Record<Fresh, number>;
  for (let i = 0; i < RUNS + 1; i++) {
    for (const variant of [...freshOrder.slice(i % freshOrder.length), ...freshOrder.slice(0, i % freshOrder.length)]) {
      const result = await fresh[variant]();
      if (i > 0) {
        // the first round warms the disk cache and tsx's transform cache for the worker's modules
        freshCpu[variant].push(result.cpuMs);
        freshWall[variant].push(result.wallMs);
      }
      freshSizes[variant] = result.bytes;
    }
  }
  const self = fileURLToPath(import.meta.url);
  const rss = (variant: string) => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, variant], { encoding: 'utf8' });
    const { aboveKb, raised } = JSON.parse(out) as { aboveKb: number; raised: boolean };
    if (!raised) console.log(`(${variant}: the peak did not rise above the inputs' own; the figure is an upper bound)`);
    return aboveKb / 1024;
  };
  const peak = { ours: rss('ours'), bare: rss('bare') };
  const docLayers = 30;
  console.log(
    `Page ${plan.width}×${plan.height}: ${docLayers} document layers → ${countLayers(plan.nodes)} PSD layers and groups; ${RUNS} runs after a warm-up`,
  );
  const row = (variant: Variant, label: string, peakMb: number | '' = '') => ({
    variant: label,
    cpuMs: median(cpu[variant]),
    wallMs: median(wall[variant]),
    peakMb,
    bytes: sizes[variant],
  });
  printTable("Export (medians; CPU ms is this process's user+system time; peak MB above the inputs)", [
    row('ours', 'PSD: Koma export as the worker runs it (build + native JPEG thumbnail + write)', peak.ours),
    row('oursAdjusted', 'PSD: Koma export, all nine adjustments on every image'),
    row('oursTurned', 'PSD: Koma export, every image rotated, blended (multiply/screen/overlay) at 80 %'),
    row('oursTurnedComic', 'PSD: the same turned page as one page of a whole comic (pool of the page before)'),
    row('oursTurnedWarm', 'PSD: the same turned page, single page, warm worker (repeat export)'),
    row('oursTurnedJs', 'PSD: the same turned page blended by the JavaScript loop (no WebAssembly)'),
    row('bareTurned', 'PSD: bare ag-psd writePsd of that turned and blended document'),
    row('oursJpegJs', 'PSD: Koma export, Node default (jpeg-js thumbnail)'),
    row('bare', 'PSD: bare ag-psd writePsd of the same document', peak.bare),
    row('barePixels', 'PSD: bare ag-psd writePsd, pixels only (no text engine data, no thumbnail)'),
    row('oursPng', 'PNG: Koma export (build + native PNG encoder)'),
  ]);
  const freshRow = (variant: Fresh, label: string) => ({
    variant: label,
    cpuMs: median(freshCpu[variant]),
    wallMs: median(freshWall[variant]),
    bytes: freshSizes[variant],
  });
  printTable(
    'Cold export as the app runs it: each job in a fresh worker thread (medians; CPU ms is the whole process from the job message to the bytes, worker start-up and module loading excluded for both)',
    [
      freshRow('ours', 'PSD: Koma export in a fresh worker'),
      freshRow('bare', 'PSD: bare ag-psd writePsd of the same document in a fresh worker'),
      freshRow('oursTurned', 'PSD: Koma export, every image rotated and blended, in a fresh worker'),
      freshRow('bareTurned', 'PSD: bare ag-psd writePsd of that turned document in a fresh worker'),
    ],
  );
  // The machine is shared: CPU time is the fairer clock; wall time is printed too.
  const ratio = (a: number[], b: number[]) => `${(median(a) / median(b)).toFixed(2)}×`;
  // Each round's own ratio (both measured within seconds of each other), then their median: a machine whose speed
  // drifts over the minutes of a run moves both sides of a round alike, where the medians above come from any rounds.
  const paired = (a: number[], b: number[]) => {
    const r = a.map((x, j) => x / b[j]!);
    return `${median(r).toFixed(2)}× (rounds ${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)})`;
  };
  console.log(`\nPSD, CPU time ours / bare write of the same document: ${ratio(cpu.ours, cpu.bare)} (target ≤ 1.3×)`);
  console.log(`  paired by round: ${paired(cpu.ours, cpu.bare)}`);
  console.log(`PSD, wall time ours / bare: ${ratio(wall.ours, wall.bare)}`);
  console.log(`PSD, CPU time ours / bare pixels only: ${ratio(cpu.ours, cpu.barePixels)}`);
  console.log(
    `PSD with every image rotated and blended, CPU time ours / bare write of the same document: ${ratio(cpu.oursTurned, cpu.bareTurned)} (target ≤ 1.3×)`,
  );
  console.log(`  paired by round: ${paired(cpu.oursTurned, cpu.bareTurned)}`);
  console.log(
    `  the same, single page, warm worker (repeat export within the idle time): ${ratio(cpu.oursTurnedWarm, cpu.bareTurned)}`,
  );
  console.log(
    `  the same as a page of a whole comic (buffers of the page before): ${ratio(cpu.oursTurnedComic, cpu.bareTurned)}`,
  );
  console.log(
    `  blended by the JavaScript loop instead of the WebAssembly kernel: ${ratio(cpu.oursTurnedJs, cpu.bareTurned)} (kernel here: ${kernelHere})`,
  );
  console.log(
    `  held by the warm worker's pool between exports: ${(workerPool.heldBytes / 2 ** 20).toFixed(1)} MiB (pixel buffers of the last page)`,
  );
  console.log(
    `Cold, fresh worker per job (as in the app), CPU time ours / bare: normal page ${ratio(freshCpu.ours, freshCpu.bare)}, every image rotated and blended ${ratio(freshCpu.oursTurned, freshCpu.bareTurned)} (target ≤ 1.3×)`,
  );
  console.log(`PSD with every image adjusted, CPU time / bare: ${ratio(cpu.oursAdjusted, cpu.bare)}`);
  console.log(`PNG, CPU time / bare PSD write: ${ratio(cpu.oursPng, cpu.bare)}`);
  console.log(`PSD, peak memory ours / bare: ${(peak.ours / peak.bare).toFixed(2)}×`);
}
