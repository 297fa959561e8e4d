// The chapter's PDF, streamed: each page is drawn on the main thread and handed to one long-lived worker, which
// composes, tones and compresses it straight into the document and lets it go. The next page is drawn while the
// worker writes the previous one, so at most two pages' pixels exist at once and nothing is encoded twice (no PNG
// between the drawing and the PDF). See docs/how-it-works/chapter-memory.md.
import {
  ExportError,
  comicPrintGeometry,
  lowResolutionImages,
  needsWatermark,
  pdfImageSizes,
  safeFileName,
  type LowResolutionImage,
  type Plan,
} from '@koma/editor';
import { sharedImageStore } from '../canvas/images.ts';
import type { EditorSession } from '../editor/session.ts';
import { downloadBlob } from './download.ts';
import { exportText } from './i18n.ts';
import {
  chapterPages,
  onPageProgress,
  pagePlans,
  pixelsOf,
  placedResolutions,
  rasterizeAll,
  sourceSizeOf,
} from './pages.ts';
import { transfers, type WorkerReply } from './protocol.ts';
import type { PageTone } from './tone-pages.ts';
import { ExportWorker, type ProgressFn } from './worker-client.ts';

/**
 * Every page in one PDF: page boxes set, a right-to-left book marked so for viewers, crop marks on request, lettering
 * as vector text. Resolves with the pictures that print below 300 effective dpi, for the dialog to list.
 */
export async function exportPdf(
  session: EditorSession,
  plan: Plan,
  options: { cropMarks: boolean; tone: PageTone; pages?: readonly number[] },
  onProgress: ProgressFn,
  signal?: AbortSignal,
): Promise<{ lowResolution: LowResolutionImage[] }> {
  const doc = session.editor.doc;
  const base = safeFileName(session.name || 'koma');
  const placed: LowResolutionImage[] = [];
  const plans = pagePlans(session, 'allPages', 'flat', options.pages);
  const numbers = chapterPages(session, options.pages);
  const images = sharedImageStore();
  // Loaded with the first PDF: it carries the font files' URLs and unicode ranges.
  const text = await import('./pdf-text.ts');
  const worker = new ExportWorker(onProgress, signal);
  try {
    await worker.request(
      {
        type: 'pdfStart',
        options: {
          title: session.name || 'Koma',
          readingOrder: doc.comicConfiguration.readingOrder,
          cropMarks: options.cropMarks,
          watermark: needsWatermark(plan),
          // Trim and bleed boxes from the page setup: the page images are its canvas at its dpi.
          ...comicPrintGeometry(doc.comicConfiguration),
        },
        tone: options.tone,
        fileName: `${base}.pdf`,
      },
      [],
    );
    let writing: Promise<WorkerReply> | null = null;
    for (const [i, fullPlan] of plans.entries()) {
      signal?.throwIfAborted();
      const lettering = text.pageTextRuns(doc, fullPlan, options.tone.kind);
      const pagePlan = text.withoutGlyphs(fullPlan, lettering.layerIds);
      const onPage = onPageProgress(onProgress, i, plans.length);
      // Pictures shown larger than their pixels go into the PDF at their own resolution, not upsampled in the page.
      const [job] = await rasterizeAll(
        session,
        [pagePlan],
        images,
        onPage,
        (p) => pdfImageSizes(p, sourceSizeOf(session, images), options.tone.kind),
        // Read while the page's pictures are loaded (they are let go once it is drawn).
        (p) => placed.push(...placedResolutions(session, p, numbers[i]! + 1, images)),
      );
      // One page in the worker while the next is drawn: the worker must be done with it before it gets another.
      if (writing) await writing;
      writing = worker.request({ type: 'pdfPage', page: job!, texts: lettering.runs }, transfers(pixelsOf([job!])));
      // Awaited before the next page; a failure while that page is drawn must not go unhandled meanwhile.
      writing.catch(() => undefined);
    }
    if (writing) await writing;
    const reply = await worker.request({ type: 'pdfFinish' }, []);
    if (reply.type !== 'blob') throw new ExportError(exportText('error.unexpectedReply'));
    downloadBlob(reply.blob, reply.fileName);
  } finally {
    worker.release();
  }
  return { lowResolution: lowResolutionImages(placed) };
}
