// The export dialog's formats: PNG, zip of PNG pages, CBZ, webtoon strips and PSD; the PDF streams its pages in
// pdf-export.ts, PSD import lives in import-psd.ts, page planning and drawing in pages.ts.
import {
  CBZ_MIME,
  WEBTOON_WIDTH,
  cbzEntries,
  pageObstacles,
  safeFileName,
  sliceStrip,
  stackPages,
  stripObstacles,
  type Plan,
} from '@koma/editor';
import { api } from '../api/index.ts';
import { sharedImageStore } from '../canvas/images.ts';
import type { EditorSession } from '../editor/session.ts';
import {
  chapterPages,
  encodePages,
  onPageProgress,
  pagePlans,
  pixelsOf,
  rasterizeAll,
  type ExportScope,
} from './pages.ts';
import { transfers, type WorkerRequest } from './protocol.ts';
import { ExportWorker, keptExportWorker, runWorker, type ProgressFn } from './worker-client.ts';
import { downloadBytes } from './download.ts';

export type { ExportProgress, ProgressFn } from './worker-client.ts';
export type { ExportScope } from './pages.ts';
export { exportPdf } from './pdf-export.ts';
export { downloadBytes } from './download.ts';
export { describeImport, importPsd, isPsdFile, type ImportReport } from './import-psd.ts';

/** The plan as the server sees it now (GET /api/auth/me); the session's copy if the call fails, else free. */
export async function serverPlan(fallback: Plan | null | undefined): Promise<Plan> {
  try {
    const { user } = await api.auth.me();
    return user.plan;
  } catch {
    return fallback ?? 'free';
  }
}

/**
 * PNG of the open page (or of everything on the infinite canvas) at full resolution; free plans get the watermark.
 * Composited in the tab's kept export worker, on the buffers of the export before it.
 */
export async function exportPng(
  session: EditorSession,
  plan: Plan,
  onProgress: ProgressFn,
  signal?: AbortSignal,
): Promise<void> {
  const [job] = await rasterizeAll(session, pagePlans(session, 'page', 'flat'), sharedImageStore(), onProgress);
  signal?.throwIfAborted();
  const reply = await runWorker(
    { type: 'png', page: job!, plan },
    transfers(pixelsOf([job!])),
    onProgress,
    signal,
    keptExportWorker,
  );
  if (reply.type === 'file') downloadBytes(reply.bytes, reply.fileName, reply.mime);
}

/** Every page as PNG, in a plain zip or in a CBZ with ComicInfo.xml for comic readers. */
export async function exportPages(
  session: EditorSession,
  plan: Plan,
  format: 'pngPages' | 'cbz',
  onProgress: ProgressFn,
  signal?: AbortSignal,
  chosen?: readonly number[],
): Promise<void> {
  const pages = await encodePages(session, plan, onProgress, signal, chosen);
  const base = safeFileName(session.name || 'koma');
  const readingOrder = session.editor.doc.comicConfiguration.readingOrder;
  const entries =
    format === 'cbz'
      ? cbzEntries(
          { title: session.name || 'Koma', readingOrder },
          pages.map((p) => ({ ...p, extension: 'png' })),
        )
      : pages.map((p) => ({ name: p.fileName, bytes: p.bytes }));
  const reply = await runWorker(
    {
      type: 'zip',
      files: entries,
      zipName: `${base}.${format === 'cbz' ? 'cbz' : 'zip'}`,
      ...(format === 'cbz' ? { mime: CBZ_MIME } : {}),
    },
    entries.map((f) => f.bytes.buffer as ArrayBuffer),
    onProgress,
    signal,
  );
  if (reply.type === 'file') downloadBytes(reply.bytes, reply.fileName, reply.mime);
}

/**
 * The chapter as a webtoon: pages stacked at 800 px wide and cut into numbered slices of at most `maxHeight`, cuts in
 * gutters and margins where one is within reach. Resolves with the number of cuts that had to cross a panel or
 * bubble.
 */
export async function exportWebtoon(
  session: EditorSession,
  plan: Plan,
  options: { maxHeight: number; format: 'jpg' | 'png'; pages?: readonly number[] },
  onProgress: ProgressFn,
  signal?: AbortSignal,
): Promise<{ forced: number }> {
  const pages = await encodePages(session, plan, onProgress, signal, options.pages);
  const doc = session.editor.doc;
  const stacked = stackPages(pages);
  const obstacles = stripObstacles(
    chapterPages(session, options.pages).map((i) => pageObstacles(doc, doc.pages[i]!.rootId)),
    stacked,
  );
  const last = stacked.at(-1);
  const { slices, forced } = sliceStrip(last ? last.top + last.height : 0, options.maxHeight, obstacles);
  const base = safeFileName(session.name || 'koma');
  const reply = await runWorker(
    {
      type: 'webtoon',
      pages: pages.map((p) => p.bytes),
      stacked,
      slices,
      width: WEBTOON_WIDTH,
      format: options.format,
      base,
      zipName: `${base} - webtoon.zip`,
    },
    pages.map((p) => p.bytes.buffer as ArrayBuffer),
    onProgress,
    signal,
  );
  if (reply.type === 'file') downloadBytes(reply.bytes, reply.fileName, reply.mime);
  return { forced };
}

/**
 * A layered PSD of the open page, or one PSD per page in a zip; written off the main thread by the tab's kept export
 * worker (one for the whole job, and kept for the next export a while), which builds each page on the pixel buffers
 * of the page before. Pages go to the worker one at a time, so only one page's layer pixels are in memory at once.
 */
export async function exportPsd(
  session: EditorSession,
  plan: Plan,
  options: { scope: ExportScope; compression: number; pages?: readonly number[] },
  onProgress: ProgressFn,
  signal?: AbortSignal,
): Promise<void> {
  const plans = pagePlans(session, options.scope, 'layered', options.pages);
  const images = sharedImageStore();
  const files: { name: string; bytes: Uint8Array }[] = [];
  const worker = new ExportWorker(onProgress, signal, keptExportWorker);
  try {
    for (const [i, pagePlan] of plans.entries()) {
      signal?.throwIfAborted();
      const onPage = plans.length > 1 ? onPageProgress(onProgress, i, plans.length) : onProgress;
      const [job] = await rasterizeAll(session, [pagePlan], images, onPage);
      const request: WorkerRequest = {
        type: 'psd',
        pages: [job!],
        plan,
        compression: options.compression,
        zipName: null,
      };
      const reply = await worker.request(request, transfers(pixelsOf([job!])));
      if (reply.type === 'file') files.push({ name: reply.fileName, bytes: reply.bytes });
    }
    if (files.length === 1) {
      downloadBytes(files[0]!.bytes, files[0]!.name, 'image/vnd.adobe.photoshop');
      return;
    }
    const zipName = `${safeFileName(session.name || 'koma')}.zip`;
    const reply = await worker.request(
      { type: 'zip', files, zipName },
      files.map((f) => f.bytes.buffer as ArrayBuffer),
    );
    if (reply.type === 'file') downloadBytes(reply.bytes, reply.fileName, reply.mime);
  } finally {
    worker.release();
  }
}
