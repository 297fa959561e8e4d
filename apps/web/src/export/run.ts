import { DOWNLOAD_URL_RELEASE_MS } from '@koma/domain';
import {
  CBZ_MIME,
  ExportError,
  WEBTOON_WIDTH,
  cbzEntries,
  pageObstacles,
  sliceStrip,
  stackPages,
  stripObstacles,
  importPsdLayers,
  planPage,
  comicPrintGeometry,
  effectiveDpi,
  lowResolutionImages,
  rastersToDraw,
  kindOf,
  type LowResolutionImage,
  type PdfTextRun,
  safeFileName,
  type ImportedEntry,
  type ImportNote,
  type PagePlan,
  type Plan,
  type Raster,
} from '@koma/editor';
import { api, bytesToBase64 } from '../api/index.ts';
import { sharedImageStore, type ImageStore } from '../canvas/images.ts';
import { measurerFor } from '../canvas/text-measure.ts';
import type { EditorSession } from '../editor/session.ts';
import { exportText, reasonText, stageText } from './i18n.ts';
import { rasterizePlan } from './rasterize.ts';
import { planImageIds, waitForImages } from './wait.ts';
import { transfers, type PageJob, type WorkerReply, type WorkerRequest } from './protocol.ts';
import type { PageTone } from './tone-pages.ts';

export interface ExportProgress {
  /** What is happening, in the user's language. */
  stage: string;
  done: number;
  total: number;
}
export type ProgressFn = (progress: ExportProgress) => void;

/** The plan as the server sees it now (GET /api/auth/me); the session's copy if the call fails, else free. */
export async function serverPlan(fallback: Plan | null | undefined): Promise<Plan> {
  try {
    const { user } = await api.auth.me();
    return user.plan;
  } catch {
    return fallback ?? 'free';
  }
}

/** Offers bytes as a download; the object URL is released after 40 s (generation.md §9). */
export function downloadBytes(bytes: Uint8Array, fileName: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_RELEASE_MS);
}

/**
 * Runs one request in a fresh module worker and resolves with its final reply. Aborting the signal stops the worker
 * at once (whatever it was encoding) and rejects with the signal's reason.
 */
function runWorker(
  request: WorkerRequest,
  transfer: Transferable[],
  onProgress: ProgressFn,
  signal?: AbortSignal,
): Promise<WorkerReply> {
  signal?.throwIfAborted();
  const worker = new Worker(new URL('./psd.worker.ts', import.meta.url), { type: 'module' });
  return new Promise<WorkerReply>((resolve, reject) => {
    signal?.addEventListener(
      'abort',
      () => {
        worker.terminate();
        reject(signal.reason as Error);
      },
      { once: true },
    );
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const reply = event.data;
      if (reply.type === 'progress') {
        onProgress({ stage: stageText(reply.stage), done: reply.done, total: reply.total });
        return;
      }
      worker.terminate();
      if (reply.type === 'error') {
        reject(new ExportError(reply.text ? exportText(reply.text.key, reply.text.values) : reply.message));
      } else resolve(reply);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new ExportError(exportText('error.workerStopped', { message: event.message })));
    };
    worker.postMessage(request, transfer);
  });
}

export type ExportScope = 'page' | 'allPages';

/** Everything on the infinite canvas, with room for speech-bubble tails, which reach outside their layer's box. */
function regionBounds(session: EditorSession): { x: number; y: number; width: number; height: number } {
  const b = session.contentBounds();
  let [x0, y0, x1, y1] = [b.x, b.y, b.x + b.width, b.y + b.height];
  const doc = session.editor.doc;
  for (const id of doc.layers[doc.rootId]?.children ?? []) {
    const layer = doc.layers[id];
    if (layer?.type !== 'TEXT' || layer.data.backgroundType !== 'SPEECH_BUBBLE' || !layer.data.hasTail) continue;
    const reach = layer.data.tailLength + layer.data.backgroundBorderSize;
    const t = layer.transform;
    x0 = Math.min(x0, t.x - reach);
    y0 = Math.min(y0, t.y - reach);
    x1 = Math.max(x1, t.x + t.size.width + reach);
    y1 = Math.max(y1, t.y + t.size.height + reach);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

function pagePlans(session: EditorSession, scope: ExportScope, fullResolution: boolean): PagePlan[] {
  const doc = session.editor.doc;
  const base = safeFileName(session.name || 'koma');
  if (session.type !== 'COMIC') {
    const b = regionBounds(session);
    const area = { x: Math.floor(b.x), y: Math.floor(b.y), width: Math.ceil(b.width), height: Math.ceil(b.height) };
    return [
      planPage(doc, doc.rootId, {
        area,
        size: { width: area.width, height: area.height },
        name: base,
        measure: measurerFor,
      }),
    ];
  }
  const size = fullResolution
    ? { width: doc.comicConfiguration.width, height: doc.comicConfiguration.height }
    : undefined;
  const indexes = scope === 'allPages' ? doc.pages.map((_, i) => i) : [session.ui.state.activePage];
  return indexes.map((i) =>
    planPage(doc, doc.pages[i]!.rootId, {
      ...(size ? { size } : {}),
      name: `${base} - page ${i + 1}`,
      measure: measurerFor,
    }),
  );
}

async function rasterizeAll(
  session: EditorSession,
  plans: PagePlan[],
  images: ImageStore,
  onProgress: ProgressFn,
): Promise<PageJob[]> {
  const doc = session.editor.doc;
  const wanted = planImageIds(doc, plans);
  // The pages being drawn keep their images whatever the budget; released once their pixels are read back.
  images.pin(EXPORT_PIN, wanted.keys());
  try {
    onProgress({ stage: exportText('stage.loadingImages'), done: 0, total: 1 });
    await waitForImages(images, wanted, (ms) =>
      onProgress({
        stage: exportText('stage.loadingImagesFor', { seconds: Math.round(ms / 1000) }),
        done: 0,
        total: 1,
      }),
    );
    const jobs: PageJob[] = [];
    for (const [i, plan] of plans.entries()) {
      const rasters = await rasterizePlan(doc, plan, images, session.ui.state, (done, total) =>
        onProgress({ stage: exportText('stage.drawingPage', { page: i + 1, pages: plans.length }), done, total }),
      );
      jobs.push({ plan, rasters: [...rasters], fileName: safeFileName(plan.name) });
    }
    return jobs;
  } finally {
    images.unpin(EXPORT_PIN);
  }
}

/** The owner name of an export's pins in the shared image store. */
const EXPORT_PIN = 'export';

const pixelsOf = (jobs: readonly PageJob[]): Raster[] => jobs.flatMap((j) => j.rasters.map(([, r]) => r));

/** PNG of the open page (or of everything on the infinite canvas) at full resolution; free plans get the watermark. */
export async function exportPng(session: EditorSession, plan: Plan, onProgress: ProgressFn): Promise<void> {
  const [job] = await rasterizeAll(session, pagePlans(session, 'page', true), sharedImageStore(), onProgress);
  const reply = await runWorker({ type: 'png', page: job!, plan }, transfers(pixelsOf([job!])), onProgress);
  if (reply.type === 'file') downloadBytes(reply.bytes, reply.fileName, reply.mime);
}

/**
 * How each picture of a page prints: its loaded source pixels against its box in export pixels at the setup's dpi
 * (hidden pictures left out: they do not print). Read right after the page is drawn, while its images are loaded.
 */
function placedResolutions(
  session: EditorSession,
  plan: PagePlan,
  page: number,
  images: ImageStore,
): LowResolutionImage[] {
  const doc = session.editor.doc;
  const { dpi } = comicPrintGeometry(doc.comicConfiguration);
  const out: LowResolutionImage[] = [];
  for (const node of rastersToDraw(plan)) {
    const layer = node.layerId === null ? undefined : doc.layers[node.layerId];
    if (node.role !== 'image' || node.hidden || !layer) continue;
    const [id] = kindOf(layer).imageIds(layer);
    const image = id ? images.get(id) : null;
    if (!image) continue;
    const printed = {
      width: layer.transform.size.width * plan.scaleX,
      height: layer.transform.size.height * plan.scaleY,
    };
    const source = { width: image.width, height: image.height };
    out.push({ page, name: node.name, dpi: effectiveDpi(source, printed, dpi) });
  }
  return out;
}

interface EncodedPage {
  bytes: Uint8Array;
  fileName: string;
  width: number;
  height: number;
  texts?: PdfTextRun[];
}

/**
 * Every page of the comic as a full-resolution PNG (watermarked for free plans, as a single PNG is), drawn and encoded
 * one at a time, so only one page's pixels are in memory at once; the encoded pages are what is kept.
 */
async function encodePages(
  session: EditorSession,
  plan: Plan,
  onProgress: ProgressFn,
  signal?: AbortSignal,
  placed?: LowResolutionImage[],
  /** For a PDF: lettering as vector text in this ink, its glyphs left out of the page images. */
  vectorText?: PageTone['kind'],
): Promise<EncodedPage[]> {
  const plans = pagePlans(session, 'allPages', true);
  const images = sharedImageStore();
  const pages: EncodedPage[] = [];
  for (const [i, fullPlan] of plans.entries()) {
    signal?.throwIfAborted();
    const onPage: ProgressFn = (p) =>
      onProgress({ ...p, stage: exportText('stage.onPage', { page: i + 1, pages: plans.length, stage: p.stage }) });
    // Loaded on the first PDF: it carries the font files' URLs and unicode ranges.
    const text = vectorText ? await import('./pdf-text.ts') : null;
    const lettering = text && vectorText ? text.pageTextRuns(session.editor.doc, fullPlan, vectorText) : null;
    const pagePlan = text && lettering ? text.withoutGlyphs(fullPlan, lettering.layerIds) : fullPlan;
    const [job] = await rasterizeAll(session, [pagePlan], images, onPage);
    placed?.push(...placedResolutions(session, pagePlan, i + 1, images));
    const reply = await runWorker({ type: 'png', page: job!, plan }, transfers(pixelsOf([job!])), onPage, signal);
    if (reply.type !== 'file') throw new ExportError(exportText('error.unexpectedReply'));
    pages.push({
      bytes: reply.bytes,
      fileName: reply.fileName,
      width: pagePlan.width,
      height: pagePlan.height,
      ...(lettering ? { texts: lettering.runs } : {}),
    });
  }
  return pages;
}

/** Every page as PNG, in a plain zip or in a CBZ with ComicInfo.xml for comic readers. */
export async function exportPages(
  session: EditorSession,
  plan: Plan,
  format: 'pngPages' | 'cbz',
  onProgress: ProgressFn,
  signal?: AbortSignal,
): Promise<void> {
  const pages = await encodePages(session, plan, onProgress, signal);
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
 * Every page in one PDF: page boxes set, a right-to-left book marked so for viewers, crop marks on request. Resolves
 * with the pictures that print below 300 effective dpi, for the dialog to list.
 */
export async function exportPdf(
  session: EditorSession,
  plan: Plan,
  options: { cropMarks: boolean; tone: PageTone },
  onProgress: ProgressFn,
  signal?: AbortSignal,
): Promise<{ lowResolution: LowResolutionImage[] }> {
  const placed: LowResolutionImage[] = [];
  const pages = await encodePages(session, plan, onProgress, signal, placed, options.tone.kind);
  const base = safeFileName(session.name || 'koma');
  const reply = await runWorker(
    {
      type: 'pdf',
      pages: pages.map(({ bytes, width, height, texts }) => ({ bytes, width, height, texts: texts ?? [] })),
      options: {
        title: session.name || 'Koma',
        readingOrder: session.editor.doc.comicConfiguration.readingOrder,
        cropMarks: options.cropMarks,
        // Trim and bleed boxes from the page setup: the page images are its canvas at its dpi.
        ...comicPrintGeometry(session.editor.doc.comicConfiguration),
      },
      tone: options.tone,
      fileName: `${base}.pdf`,
    },
    pages.map((p) => p.bytes.buffer as ArrayBuffer),
    onProgress,
    signal,
  );
  if (reply.type === 'file') downloadBytes(reply.bytes, reply.fileName, reply.mime);
  return { lowResolution: lowResolutionImages(placed) };
}

/**
 * The chapter as a webtoon: pages stacked at 800 px wide and cut into numbered slices of at most `maxHeight`, cuts in
 * gutters and margins where one is within reach. Resolves with the number of cuts that had to cross a panel or
 * bubble.
 */
export async function exportWebtoon(
  session: EditorSession,
  plan: Plan,
  options: { maxHeight: number; format: 'jpg' | 'png' },
  onProgress: ProgressFn,
  signal?: AbortSignal,
): Promise<{ forced: number }> {
  const pages = await encodePages(session, plan, onProgress, signal);
  const doc = session.editor.doc;
  const stacked = stackPages(pages);
  const obstacles = stripObstacles(
    doc.pages.map((p) => pageObstacles(doc, p.rootId)),
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
 * A layered PSD of the open page, or one PSD per page in a zip; written off the main thread. Pages go to the worker
 * one at a time, so only one page's layer pixels are in memory at once.
 */
export async function exportPsd(
  session: EditorSession,
  plan: Plan,
  options: { scope: ExportScope; compression: number },
  onProgress: ProgressFn,
  signal?: AbortSignal,
): Promise<void> {
  const plans = pagePlans(session, options.scope, false);
  const images = sharedImageStore();
  const files: { name: string; bytes: Uint8Array }[] = [];
  for (const [i, pagePlan] of plans.entries()) {
    signal?.throwIfAborted();
    const [job] = await rasterizeAll(session, [pagePlan], images, (p) =>
      onProgress(
        plans.length > 1
          ? { ...p, stage: exportText('stage.onPage', { page: i + 1, pages: plans.length, stage: p.stage }) }
          : p,
      ),
    );
    const request: WorkerRequest = {
      type: 'psd',
      pages: [job!],
      plan,
      compression: options.compression,
      zipName: null,
    };
    const reply = await runWorker(request, transfers(pixelsOf([job!])), onProgress, signal);
    if (reply.type === 'file') files.push({ name: reply.fileName, bytes: reply.bytes });
  }
  if (files.length === 1) {
    downloadBytes(files[0]!.bytes, files[0]!.name, 'image/vnd.adobe.photoshop');
    return;
  }
  const zipName = `${safeFileName(session.name || 'koma')}.zip`;
  const reply = await runWorker(
    { type: 'zip', files, zipName },
    files.map((f) => f.bytes.buffer as ArrayBuffer),
    onProgress,
    signal,
  );
  if (reply.type === 'file') downloadBytes(reply.bytes, reply.fileName, reply.mime);
}

/** Whether a dropped or chosen file is a PSD or PSB (browsers rarely give these a MIME type). */
export function isPsdFile(file: File): boolean {
  return /\.(psd|psb)$/i.test(file.name) || file.type === 'image/vnd.adobe.photoshop';
}

/**
 * One message for a toast, in the user's language: how many layers came in, and every one that did not or came
 * in changed.
 */
export function describeImport(report: ImportReport): string {
  const list = (notes: readonly ImportNote[]) =>
    notes
      .map((n) => exportText('summary.item', { name: n.name, reason: reasonText(n) }))
      .join(exportText('summary.separator'));
  const parts = [exportText('dialog.imported', { count: report.added })];
  if (report.skipped.length > 0) parts.push(exportText('summary.notImported', { list: list(report.skipped) }));
  if (report.changed.length > 0) parts.push(exportText('summary.changed', { list: list(report.changed) }));
  return parts.join('');
}

export interface ImportReport {
  added: number;
  skipped: ImportNote[];
  changed: ImportNote[];
}

async function encodePng(r: Raster): Promise<string> {
  const canvas = document.createElement('canvas');
  canvas.width = r.width;
  canvas.height = r.height;
  const context = canvas.getContext('2d');
  if (!context) throw new ExportError(exportText('error.noPngEncoder'));
  context.putImageData(new ImageData(new Uint8ClampedArray(r.data), r.width, r.height), 0, 0);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new ExportError(exportText('error.pngEncodeFailed'));
  return bytesToBase64(new Uint8Array(await blob.arrayBuffer()));
}

/**
 * Imports a PSD or PSB (read in a worker; each raster uploaded as PNG, then everything added in one undoable
 * step). Koma's own PSD comes back as the comic it was — panels, clipped art, editable text and bubbles — on a new
 * page after the open one, or into the open page when `into` says so; another tool's file is layered onto the open
 * page as before (scaled to fit a comic page), its type layers as editable text.
 * Returns what was added, skipped and changed, for the dialog to list.
 */
export async function importPsd(
  session: EditorSession,
  file: File,
  onProgress: ProgressFn,
  into: 'newPage' | 'currentPage' = 'newPage',
): Promise<ImportReport> {
  onProgress({ stage: exportText('stage.reading', { file: file.name }), done: 0, total: 1 });
  const bytes = new Uint8Array(await file.arrayBuffer());
  const doc = session.editor.doc;
  const target =
    session.type === 'COMIC' ? { width: doc.comicConfiguration.width, height: doc.comicConfiguration.height } : null;
  const reply = await runWorker({ type: 'read', bytes, target }, [bytes.buffer], onProgress);
  if (reply.type !== 'read') throw new ExportError(exportText('error.unexpectedReply'));
  const skipped = [...reply.skipped];
  const entries: ImportedEntry[] = [];
  const uploads = reply.items.filter((item) => item.kind === 'pixels');
  for (const item of reply.items) {
    if (item.kind === 'layer') {
      entries.push(item);
      continue;
    }
    const layer = reply.layers[item.layer]!;
    onProgress({
      stage: exportText('stage.uploading', { name: layer.name }),
      done: uploads.indexOf(item),
      total: uploads.length,
    });
    try {
      const { id: imageId } = await api.images.upload(await encodePng(layer.pixels), 'png');
      entries.push({
        kind: 'image',
        key: item.key,
        clipTo: item.clipTo,
        imageId,
        name: layer.name.slice(0, 255),
        visible: layer.visible,
        rect: item.rect,
        opacity: item.opacity,
        blendMode: item.blendMode,
      });
    } catch (error) {
      console.error('Import of a layer failed', error);
      const detail = error instanceof Error ? error.message : String(error);
      skipped.push({ name: layer.name, code: 'uploadFailed', detail, reason: `upload failed: ${detail}` });
    }
  }
  let added = 0;
  if (entries.length > 0) {
    // Only Koma's own comic page makes a page of its own; other files are layered onto the open page.
    const newPage = reply.koma && session.type === 'COMIC' && into === 'newPage';
    const current = doc.pages.findIndex((p) => p.rootId === session.activeRoot());
    const result = session.editor.execute(importPsdLayers, {
      into: newPage
        ? { newPage: true, after: current < 0 ? doc.pages.length - 1 : current }
        : { newPage: false, parentId: session.activeRoot() },
      entries,
      missing: reply.missing,
    });
    if (!result.ok) throw new ExportError(result.error);
    added = result.value.ids.length;
    const page = session.editor.doc.pages.findIndex((p) => p.uuid === result.value.pageUuid);
    if (page >= 0) session.openPage(page);
  }
  onProgress({ stage: exportText('stage.imported'), done: 1, total: 1 });
  return { added, skipped, changed: reply.changed };
}
