/// <reference lib="webworker" />
// Before anything builds a schema: no eval under the Content-Security-Policy.
import '@koma/domain/zod-jitless';
import {
  ExportError,
  ImportError,
  attachThumbnail,
  buildPsd,
  PixelPool,
  psdExtension,
  readPsdForImport,
  sliceFileName,
  thumbnailPixels,
  writePsdBytes,
  zipFiles,
  type Raster,
} from '@koma/editor';
import type { StageText } from './i18n.ts';
import { handlePdf } from './pdf-worker.ts';
import { drawSlices } from './webtoon-slices.ts';
import { transfers, type PageJob, type WordedText, type WorkerReply, type WorkerRequest } from './protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

/**
 * Pixel buffers shared by the pages this worker writes: a whole comic's pages after the first build on the composite
 * and panel buffers of the page before. The app keeps this worker between PSD and PNG exports (worker-client.ts,
 * EXPORT_WORKER_IDLE_MS), so a repeated export of a page builds on the buffers of the last one; the pool holds one
 * page's buffers at most, let go with the worker once it has been idle for a while.
 */
const pool = new PixelPool();

function reply(message: WorkerReply, transfer: Transferable[] = []): void {
  scope.postMessage(message, { transfer });
}

/** An error of this worker that the main thread words in the user's language. */
class WordedError extends ExportError {
  constructor(
    message: string,
    readonly text: WordedText,
  ) {
    super(message);
  }
}

async function encode(r: Raster, type: 'image/png' | 'image/jpeg'): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(r.width, r.height);
  const context = canvas.getContext('2d');
  if (!context) {
    throw new WordedError('This browser cannot encode images in a worker.', { key: 'error.noWorkerEncoder' });
  }
  context.putImageData(new ImageData(new Uint8ClampedArray(r.data), r.width, r.height), 0, 0);
  const blob = await canvas.convertToBlob({ type, quality: 0.9 });
  return new Uint8Array(await blob.arrayBuffer());
}

async function writePage(
  job: PageJob,
  plan: 'free' | 'subscriber',
  compression: number,
  step: (s: StageText) => void,
  pool: PixelPool,
) {
  step({ key: 'building', file: job.fileName });
  const built = buildPsd(job.plan, new Map(job.rasters), { plan, thumbnail: false, pool });
  const thumb = thumbnailPixels(built.composite);
  attachThumbnail(built.psd, await encode(thumb, 'image/jpeg'), thumb.width, thumb.height);
  step({ key: 'writing', file: job.fileName });
  return writePsdBytes(built.psd, { compression });
}

/** Runs a build on the pool and gives its buffers back after, written or failed, for the next page to build on. */
async function pooled<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    pool.reclaim();
  }
}

async function handle(request: WorkerRequest): Promise<void> {
  if (request.type === 'read') {
    const result = readPsdForImport(request.bytes, request.target);
    reply({ type: 'read', ...result }, transfers(result.layers.map((l) => l.pixels)));
    return;
  }
  if (request.type === 'zip') {
    reply({ type: 'progress', done: 0, total: 1, stage: { key: 'packingZip' } });
    const zip = zipFiles(request.files);
    reply({ type: 'file', bytes: zip, fileName: request.zipName, mime: request.mime ?? 'application/zip' }, [
      zip.buffer as ArrayBuffer,
    ]);
    return;
  }
  if (request.type === 'webtoon') {
    const total = request.slices.length + 1;
    const files = await drawSlices(request, (index) => {
      const file = sliceFileName(request.base, index, request.slices.length, request.format);
      reply({ type: 'progress', done: index, total, stage: { key: 'slicing', file } });
      return file;
    });
    reply({ type: 'progress', done: total - 1, total, stage: { key: 'packingZip' } });
    const zip = zipFiles(files);
    reply({ type: 'file', bytes: zip, fileName: request.zipName, mime: 'application/zip' }, [
      zip.buffer as ArrayBuffer,
    ]);
    return;
  }
  if (request.type === 'pdfStart' || request.type === 'pdfPage' || request.type === 'pdfFinish') {
    await handlePdf(request, reply);
    return;
  }
  if (request.type === 'png') {
    reply({ type: 'progress', done: 0, total: 2, stage: { key: 'compositing' } });
    const bytes = await pooled(async () => {
      const built = buildPsd(request.page.plan, new Map(request.page.rasters), {
        plan: request.plan,
        thumbnail: false,
        pool,
      });
      reply({ type: 'progress', done: 1, total: 2, stage: { key: 'encodingPng' } });
      // The encoder copies the composite, so its buffer is free for the next export once this resolves.
      return encode(built.composite, 'image/png');
    });
    reply({ type: 'file', bytes, fileName: `${request.page.fileName}.png`, mime: 'image/png' }, [
      bytes.buffer as ArrayBuffer,
    ]);
    return;
  }
  const total = request.pages.length * 2 + (request.zipName ? 1 : 0);
  let done = 0;
  const step = (stage: StageText) => reply({ type: 'progress', done: done++, total, stage });
  const files: { name: string; bytes: Uint8Array }[] = [];
  for (const page of request.pages) {
    const bytes = await pooled(() => writePage(page, request.plan, request.compression, step, pool));
    files.push({ name: `${page.fileName}.${psdExtension(page.plan.width, page.plan.height)}`, bytes });
  }
  if (request.zipName) {
    step({ key: 'packingZip' });
    const zip = zipFiles(files);
    reply({ type: 'file', bytes: zip, fileName: request.zipName, mime: 'application/zip' }, [
      zip.buffer as ArrayBuffer,
    ]);
    return;
  }
  const only = files[0]!;
  reply({ type: 'file', bytes: only.bytes, fileName: only.name, mime: 'image/vnd.adobe.photoshop' }, [
    only.bytes.buffer as ArrayBuffer,
  ]);
}

scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
  handle(event.data).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof ImportError) {
      reply({ type: 'error', message, text: { key: `importError.${error.code}`, values: error.values } });
    } else if (error instanceof WordedError) {
      reply({ type: 'error', message, text: error.text });
    } else if (error instanceof ExportError && error.code) {
      reply({ type: 'error', message, text: { key: `builderError.${error.code}`, values: error.values } });
    } else if (error instanceof ExportError) {
      reply({ type: 'error', message });
    } else {
      console.error('Export worker failed', error);
      reply({
        type: 'error',
        message: `Export failed: ${message}`,
        text: { key: 'error.failed', values: { message } },
      });
    }
  });
};
