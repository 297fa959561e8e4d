import type {
  ImportItem,
  ImportNote,
  PagePlan,
  PdfOptions,
  PdfTextRun,
  Plan,
  Raster,
  Span,
  StackedPage,
} from '@koma/editor';
import type { ExportKey, StageText } from './i18n.ts';
import type { PageTone } from './tone-pages.ts';

/** One page for the worker: its plan and the pixels the main thread drew for it, by plan key. */
export interface PageJob {
  plan: PagePlan;
  rasters: [string, Raster][];
  /** Pictures drawn at their own resolution, upright, by plan key (a PDF's, pdfImageSizes). */
  sources?: [string, Raster][];
  fileName: string;
}

export type WorkerRequest =
  | { type: 'psd'; pages: PageJob[]; plan: Plan; compression: number; zipName: string | null }
  | { type: 'zip'; files: { name: string; bytes: Uint8Array }[]; zipName: string; mime?: string }
  | { type: 'png'; page: PageJob; plan: Plan }
  | { type: 'read'; bytes: Uint8Array; target: { width: number; height: number } | null }
  /**
   * A PDF written as its pages arrive, in one worker kept for the whole export: `pdfStart`, then each page in
   * reading order (composed, toned and compressed into the document, then let go), then `pdfFinish` for the file.
   */
  | { type: 'pdfStart'; options: PdfOptions; tone: PageTone; fileName: string }
  /** One page's rasters; its lettering as vector text runs, their fonts fetched by URL in the worker. */
  | { type: 'pdfPage'; page: PageJob; texts: PdfTextRun[] }
  | { type: 'pdfFinish' }
  /** Encoded page images stacked as `stacked` says, redrawn `width` wide and cut into `slices`. */
  | {
      type: 'webtoon';
      pages: Uint8Array[];
      stacked: StackedPage[];
      slices: Span[];
      width: number;
      format: 'jpg' | 'png';
      base: string;
      zipName: string;
    };

export interface ImportedLayerMessage {
  name: string;
  left: number;
  top: number;
  visible: boolean;
  pixels: Raster;
}

/** A message the main thread words in the user's language (the worker has no i18n). */
export interface WordedText {
  key: ExportKey;
  values?: Record<string, string | number>;
}

export type WorkerReply =
  | { type: 'progress'; done: number; total: number; stage: StageText }
  | { type: 'file'; bytes: Uint8Array; fileName: string; mime: string }
  /** A PDF page is written into the document (or the PDF is started): the next may come. */
  | { type: 'ready' }
  /** A file made in pieces (the PDF): a blob, which the browser may keep out of memory. */
  | { type: 'blob'; blob: Blob; fileName: string }
  | {
      type: 'read';
      width: number;
      height: number;
      koma: boolean;
      layers: ImportedLayerMessage[];
      items: ImportItem[];
      missing?: string[];
      skipped: ImportNote[];
      changed: ImportNote[];
    }
  /** `message` in English; `text` when the main thread can word it in the user's language. */
  | { type: 'error'; message: string; text?: WordedText };

/** The buffers a message can hand over instead of copying. */
export function transfers(rasters: readonly Raster[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const r of rasters) if (r.data.buffer instanceof ArrayBuffer) buffers.add(r.data.buffer);
  return [...buffers];
}
