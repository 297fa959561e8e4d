/**
 * The browser twin of export-job.worker.ts, bundled by export-browser.bench.ts and started as a module Web Worker in
 * Chromium: one job per fresh worker, our export exactly as apps/web/src/export/psd.worker.ts runs it (thumbnail
 * JPEG by OffscreenCanvas, as there) or the bare ag-psd write of the same document. Reports the wall time from the
 * job's arrival to the bytes; the bench reads the renderer process's CPU time around the job from /proc.
 */
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

type Job = { kind: 'ours'; plan: PagePlan; rasters: [string, Raster][] } | { kind: 'bare'; psd: Psd };

// The bench's TypeScript program is Node's (no DOM or webworker lib, which would clash with Node's types across the
// workspace it checks): the few browser APIs used here, typed by hand.
interface Context2d {
  putImageData(data: unknown, x: number, y: number): void;
}
interface Browser {
  postMessage(message: unknown): void;
  onmessage: ((event: { data: Job }) => void) | null;
  OffscreenCanvas: new (
    width: number,
    height: number,
  ) => {
    getContext(kind: '2d'): Context2d | null;
    convertToBlob(options: { type: string; quality: number }): Promise<Blob>;
  };
  ImageData: new (data: Uint8ClampedArray, width: number, height: number) => unknown;
}
const scope = globalThis as unknown as Browser;
const pool = new PixelPool();
ensurePsdPixels();

async function jpeg(r: Raster): Promise<Uint8Array> {
  const canvas = new scope.OffscreenCanvas(r.width, r.height);
  const context = canvas.getContext('2d')!;
  context.putImageData(new scope.ImageData(new Uint8ClampedArray(r.data), r.width, r.height), 0, 0);
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
  return new Uint8Array(await blob.arrayBuffer());
}

async function ours(plan: PagePlan, rasters: [string, Raster][]): Promise<number> {
  try {
    const built = buildPsd(plan, new Map(rasters), { plan: 'subscriber', thumbnail: false, pool });
    const thumb = thumbnailPixels(built.composite);
    attachThumbnail(built.psd, await jpeg(thumb), thumb.width, thumb.height);
    return writePsdBytes(built.psd).length;
  } finally {
    pool.reclaim();
  }
}

scope.onmessage = (event) => {
  const job = event.data;
  void (async () => {
    const t0 = performance.now();
    const bytes =
      job.kind === 'ours'
        ? await ours(job.plan, job.rasters)
        : writePsdUint8Array(job.psd, { noBackground: true }).length;
    scope.postMessage({ wallMs: performance.now() - t0, bytes });
  })();
};
scope.postMessage('ready');
