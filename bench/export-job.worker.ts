/**
 * One export job in a fresh worker thread, as the app's cold PSD export runs in a fresh Web Worker
 * (apps/web/src/export/psd.worker.ts): the inputs arrive transferred in one message, the job runs, and the worker
 * reports the process CPU time and wall time from the message's arrival to the bytes produced. Both variants (our
 * export and the bare ag-psd write) run in this same module, so their isolates are alike until the job arrives.
 *
 * process.cpuUsage() is getrusage(RUSAGE_SELF): the whole process, every thread (the main thread, idle while it
 * waits for this reply, and V8's collector and libuv's helper threads), not just this worker's.
 */
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import {
  PixelPool,
  attachThumbnail,
  buildPsd,
  ensurePsdPixels,
  thumbnailPixels,
  writePsdBytes,
  type PagePlan,
  type Raster,
} from '@koma/editor';
import { writePsdUint8Array, type Psd } from 'ag-psd';
import sharp from 'sharp';

export type WorkerJob = { kind: 'ours'; plan: PagePlan; rasters: [string, Raster][] } | { kind: 'bare'; psd: Psd };

export interface WorkerResult {
  cpuMs: number;
  wallMs: number;
  bytes: number;
}

/** The app worker's module-level pool: empty in a fresh worker, reclaimed after the write as `pooled` does. */
const pool = new PixelPool();
ensurePsdPixels();

/** Our export exactly as the app worker's `writePage` runs it, sharp standing in for OffscreenCanvas's JPEG. */
async function ours(plan: PagePlan, rasters: [string, Raster][]): Promise<number> {
  try {
    const built = buildPsd(plan, new Map(rasters), { plan: 'subscriber', thumbnail: false, pool });
    const thumb = thumbnailPixels(built.composite);
    const jpeg = await sharp(thumb.data, { raw: { width: thumb.width, height: thumb.height, channels: 4 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    attachThumbnail(built.psd, new Uint8Array(jpeg), thumb.width, thumb.height);
    return writePsdBytes(built.psd).length;
  } finally {
    pool.reclaim();
  }
}

const port = parentPort!;
port.once('message', (job: WorkerJob) => {
  void (async () => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const bytes =
      job.kind === 'ours'
        ? await ours(job.plan, job.rasters)
        : writePsdUint8Array(job.psd, { noBackground: true }).length;
    const c = process.cpuUsage(c0);
    const result: WorkerResult = { cpuMs: (c.user + c.system) / 1000, wallMs: performance.now() - t0, bytes };
    port.postMessage(result);
  })();
});
port.postMessage('ready');
