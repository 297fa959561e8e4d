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
  fileName: string;
}

export type WorkerRequest =
  | { type: 'psd'; pages: PageJob[]; plan: Plan; compression: number; zipName: string | null }
  | { type: 'zip'; files: { name: string; bytes: Uint8Array }[]; zipName: string; mime?: string }
  | { type: 'png'; page: PageJob; plan: Plan }
  | { type: 'read'; bytes: Uint8Array; target: { width: number; height: number } | null }
  /** Encoded page images (PNG) in reading order, into one PDF. */
  | {
      type: 'pdf';
      /** Each page's lettering as vector text runs; their fonts are fetched by URL in the worker. */
      pages: { bytes: Uint8Array; width: number; height: number; texts: PdfTextRun[] }[];
      options: PdfOptions;
      tone: PageTone;
      fileName: string;
    }
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
