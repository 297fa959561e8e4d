/// <reference lib="webworker" />
// The export worker's side of a streamed PDF (pdf-export.ts is the main thread's): pages arrive one at a time, are
// composed, toned and written, and the file's bytes go into blobs as they are final. Large blobs live in the
// browser's blob store (which spills to disk), so neither the worker nor the page ever holds the whole file.
import {
  ChapterPdfWriter,
  ExportError,
  PRINT_DPI,
  PixelPool,
  composePdfPage,
  halftone,
  isBanded,
  type PdfTextRun,
  type ScreenOptions,
} from '@koma/editor';
import type { WorkerReply, WorkerRequest } from './protocol.ts';
import { pageScreen, type PageTone } from './tone-pages.ts';

type PdfRequest = Extract<WorkerRequest, { type: 'pdfStart' | 'pdfPage' | 'pdfFinish' }>;

/** Small pieces (page objects, fonts) are gathered up to this size before they become a blob. */
const BLOB_CHUNK_BYTES = 1 << 20;

/** Collects the file's bytes as blobs: a big piece (a page image) at once, small ones gathered first. */
class BlobSink {
  private readonly blobs: Blob[] = [];
  private small: Uint8Array[] = [];
  private smallBytes = 0;

  readonly write = (chunk: Uint8Array): void => {
    this.small.push(chunk);
    this.smallBytes += chunk.length;
    if (this.smallBytes >= BLOB_CHUNK_BYTES) this.flush();
  };

  blob(type: string): Blob {
    this.flush();
    return new Blob(this.blobs, { type });
  }

  private flush(): void {
    if (this.small.length === 0) return;
    this.blobs.push(new Blob(this.small as Uint8Array<ArrayBuffer>[]));
    this.small = [];
    this.smallBytes = 0;
  }
}

/** The PDF being written (one per worker: the main thread keeps a worker for the whole export). */
let pdf: {
  writer: ChapterPdfWriter;
  sink: BlobSink;
  tone: PageTone;
  /** The one-ink screen at the page setup's resolution, for a screentone PDF. */
  screen: ScreenOptions | undefined;
  fileName: string;
  pages: number;
  /** The page rasters' buffers, taken again by the next page once a page is written. */
  pool: PixelPool;
} | null = null;
/** Font files the lettering uses, by URL, each fetched once (same origin: they ship with the app). */
const fonts = new Map<string, Uint8Array>();

async function fetchFonts(texts: readonly PdfTextRun[]): Promise<void> {
  const urls = new Set(texts.flatMap((r) => r.segments.map((s) => s.font)));
  for (const url of urls) {
    if (fonts.has(url)) continue;
    const response = await fetch(url);
    if (response.ok) fonts.set(url, new Uint8Array(await response.arrayBuffer()));
  }
}

export async function handlePdf(request: PdfRequest, reply: (message: WorkerReply) => void): Promise<void> {
  if (request.type === 'pdfStart') {
    const sink = new BlobSink();
    const { tone } = request;
    // On a one-ink page the watermark is drawn on the page's own screen, both at the resolution the pages are
    // printed at (the setup's, which the writer places the page images by).
    const screen = pageScreen(tone, request.options.dpi ?? PRINT_DPI);
    const writer = await ChapterPdfWriter.create(
      { ...request.options, fonts, ...(screen ? { screen } : {}) },
      sink.write,
    );
    pdf = { writer, sink, tone, screen, fileName: request.fileName, pages: 0, pool: new PixelPool() };
    reply({ type: 'ready' });
    return;
  }
  if (!pdf) throw new ExportError('A PDF page or its end came before the PDF was started.');
  if (request.type === 'pdfPage') {
    const page = ++pdf.pages;
    reply({ type: 'progress', done: 0, total: 2, stage: { key: 'compositing' } });
    // No watermark in the pixels: the writer draws it over the whole page, lettering included.
    const { page: job } = request;
    // Composed a band at a time as it is compressed, unless it is screened (the screen takes the whole page).
    const composed = composePdfPage(job.plan, new Map(job.rasters), new Map(job.sources ?? []), pdf.pool, {
      banded: !pdf.screen,
    });
    if (pdf.tone.kind !== 'colour') {
      reply({ type: 'progress', done: 1, total: 2, stage: { key: 'toning', file: String(page) } });
    }
    // Greys are taken by the writer (each pixel's luminance, pictures and rasters alike); a screentone page is one
    // raster (pdfImageSizes leaves every picture in it), screened here.
    const pixels = pdf.screen && !isBanded(composed.pixels) ? halftone(composed.pixels, pdf.screen) : composed.pixels;
    await fetchFonts(request.texts);
    await pdf.writer.addPage({
      pixels,
      layers: composed.layers,
      grey: pdf.tone.kind !== 'colour',
      texts: request.texts,
    });
    pdf.pool.reclaim();
    // The page's rasters are left to the collector, not detached (`transfer(0)`) to free them sooner: in Chromium
    // a detached buffer's bytes stay until its wrapper is collected, and V8, no longer counting them, collects later
    // (docs/how-it-works/chapter-memory.md).
    reply({ type: 'ready' });
    return;
  }
  reply({ type: 'progress', done: 0, total: 1, stage: { key: 'writingPdf' } });
  await pdf.writer.finish();
  const { fileName, sink } = pdf;
  pdf = null;
  reply({ type: 'blob', blob: sink.blob('application/pdf'), fileName });
}
