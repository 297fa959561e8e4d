// Pages of an export: planned from the document, drawn on the main thread with their images pinned, and, for the
// formats made of page images (PNG zip, CBZ, webtoon), encoded one at a time in a worker.
import {
  ExportError,
  boxOf,
  comicPrintGeometry,
  effectiveDpi,
  kindOf,
  placedBoundsOf,
  planPage,
  shownPlan,
  type LayerNode,
  rastersToDraw,
  safeFileName,
  type LowResolutionImage,
  type PagePlan,
  type Plan,
  type PlanRaster,
  type Raster,
} from '@koma/editor';
import type { Size } from '@koma/domain';
import { sharedImageStore, type ImageStore } from '../canvas/images.ts';
import { measurerFor } from '../canvas/text-measure.ts';
import type { EditorSession } from '../editor/session.ts';
import { exportText } from './i18n.ts';
import { transfers, type PageJob } from './protocol.ts';
import { rasterizePlan } from './rasterize.ts';
import { planImageIds, waitForImages } from './wait.ts';
import { runWorker, type ProgressFn } from './worker-client.ts';

export type ExportScope = 'page' | 'allPages';

/**
 * The infinite canvas's region: every layer (a layered file holds the hidden ones too), or for a flat picture only the
 * layers it shows, so that a hidden layer far off adds no blank margin; with room for speech-bubble tails, which
 * reach outside their layer's box.
 */
function regionBounds(
  session: EditorSession,
  shownOnly: boolean,
): { x: number; y: number; width: number; height: number } {
  const doc = session.editor.doc;
  const roots = (doc.layers[doc.rootId]?.children ?? [])
    .map((id) => doc.layers[id])
    .filter((layer): layer is LayerNode => !!layer && (!shownOnly || layer.visible));
  // With no layer shown, the whole canvas (or its default square) rather than nothing.
  const b = placedBoundsOf(roots) ?? session.contentBounds();
  let [x0, y0, x1, y1] = [b.x, b.y, b.x + b.width, b.y + b.height];
  for (const layer of roots) {
    if (layer.type !== 'TEXT' || layer.data.backgroundType !== 'SPEECH_BUBBLE' || !layer.data.hasTail) continue;
    const reach = layer.data.tailLength + layer.data.backgroundBorderSize;
    const t = boxOf(layer);
    x0 = Math.min(x0, t.x - reach);
    y0 = Math.min(y0, t.y - reach);
    x1 = Math.max(x1, t.x + t.width + reach);
    y1 = Math.max(y1, t.y + t.height + reach);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** A chapter export's pages (0-based, in reading order): those chosen in the dialog, else every page. */
export function chapterPages(session: EditorSession, chosen?: readonly number[]): readonly number[] {
  return chosen ?? session.editor.doc.pages.map((_, i) => i);
}

/**
 * One plan per page to export: the open page or all of them (a comic; `pages`, 0-based, chooses some of them), or
 * everything on an infinite canvas. A layered file (PSD) is planned at the export size with its hidden layers; a
 * flat picture (PNG, CBZ, PDF, webtoon) at the page's full resolution with only what it shows, so a hidden layer's
 * picture is neither waited for nor drawn.
 */
export function pagePlans(
  session: EditorSession,
  scope: ExportScope,
  output: 'layered' | 'flat',
  pages?: readonly number[],
): PagePlan[] {
  const plans = plansOfEveryLayer(session, scope, output === 'flat', pages);
  return output === 'flat' ? plans.map(shownPlan) : plans;
}

function plansOfEveryLayer(
  session: EditorSession,
  scope: ExportScope,
  flat: boolean,
  pages?: readonly number[],
): PagePlan[] {
  const doc = session.editor.doc;
  const base = safeFileName(session.name || 'koma');
  if (session.type !== 'COMIC') {
    const b = regionBounds(session, flat);
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
  const size = flat ? { width: doc.comicConfiguration.width, height: doc.comicConfiguration.height } : undefined;
  const indexes = scope === 'allPages' ? chapterPages(session, pages) : [session.ui.state.activePage];
  return indexes.map((i) =>
    planPage(doc, doc.pages[i]!.rootId, {
      ...(size ? { size } : {}),
      name: `${base} - page ${i + 1}`,
      measure: measurerFor,
    }),
  );
}

/**
 * Draws the plans' rasters on the main thread (Konva), their images pinned in the shared store until their pixels are
 * read back; `drawn` is called for each page while its pictures are still loaded. The full-size pictures the export
 * had decoded for it are then let go (ImageStore.release), so a chapter's export holds the page it draws, not the
 * budget's worth of pictures it has drawn.
 */
export async function rasterizeAll(
  session: EditorSession,
  plans: PagePlan[],
  images: ImageStore,
  onProgress: ProgressFn,
  upright?: (plan: PagePlan) => ReadonlyMap<string, Size>,
  drawn?: (plan: PagePlan) => void,
): Promise<PageJob[]> {
  const doc = session.editor.doc;
  const wanted = planImageIds(doc, plans);
  // Whole pictures someone had already decoded (a view zoomed in) stay as they were.
  const held = new Set([...wanted.keys()].filter((id) => images.holds(id)));
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
      // Chosen once the page's pictures are loaded: by their pixel sizes.
      const sizes = upright?.(plan) ?? new Map<string, Size>();
      const rasters = await rasterizePlan(
        doc,
        plan,
        images,
        session.ui.state,
        (done, total) =>
          onProgress({ stage: exportText('stage.drawingPage', { page: i + 1, pages: plans.length }), done, total }),
        sizes,
      );
      const all = [...rasters];
      jobs.push({
        plan,
        rasters: all.filter(([key]) => !sizes.has(key)),
        ...(sizes.size > 0 ? { sources: all.filter(([key]) => sizes.has(key)) } : {}),
        fileName: safeFileName(plan.name),
      });
      drawn?.(plan);
    }
    return jobs;
  } finally {
    images.unpin(EXPORT_PIN);
    images.release([...wanted.keys()].filter((id) => !held.has(id)));
  }
}

/** The owner name of an export's pins in the shared image store. */
const EXPORT_PIN = 'export';

export const pixelsOf = (jobs: readonly PageJob[]): Raster[] =>
  jobs.flatMap((j) => [...j.rasters, ...(j.sources ?? [])].map(([, r]) => r));

/** The loaded pixel size of a plan's picture (its current variation), or null when it is not loaded. */
export function sourceSizeOf(session: EditorSession, images: ImageStore): (node: PlanRaster) => Size | null {
  return (node) => {
    const layer = node.layerId === null ? undefined : session.editor.doc.layers[node.layerId];
    if (!layer) return null;
    const [id] = kindOf(layer).imageIds(layer);
    const image = id ? images.get(id) : null;
    return image ? { width: image.width, height: image.height } : null;
  };
}

/**
 * How each picture of a page prints: its loaded source pixels against its box in export pixels at the setup's dpi
 * (hidden pictures left out: they do not print). Read right after the page is drawn, while its images are loaded.
 */
export function placedResolutions(
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

export interface EncodedPage {
  bytes: Uint8Array;
  fileName: string;
  width: number;
  height: number;
}

/**
 * Every page of the comic as a full-resolution PNG (watermarked for free plans, as a single PNG is), drawn and encoded
 * one at a time, so only one page's pixels are in memory at once; the encoded pages are what is kept (they are what
 * a zip, a CBZ or a webtoon strip is made of).
 */
export async function encodePages(
  session: EditorSession,
  plan: Plan,
  onProgress: ProgressFn,
  signal?: AbortSignal,
  chosen?: readonly number[],
): Promise<EncodedPage[]> {
  const plans = pagePlans(session, 'allPages', 'flat', chosen);
  const images = sharedImageStore();
  const pages: EncodedPage[] = [];
  for (const [i, pagePlan] of plans.entries()) {
    signal?.throwIfAborted();
    const [job] = await rasterizeAll(session, [pagePlan], images, onPageProgress(onProgress, i, plans.length));
    const reply = await runWorker(
      { type: 'png', page: job!, plan },
      transfers(pixelsOf([job!])),
      onPageProgress(onProgress, i, plans.length),
      signal,
    );
    if (reply.type !== 'file') throw new ExportError(exportText('error.unexpectedReply'));
    pages.push({ bytes: reply.bytes, fileName: reply.fileName, width: pagePlan.width, height: pagePlan.height });
  }
  return pages;
}

/** Progress of one page's stage, worded as that page of the chapter's. */
export function onPageProgress(onProgress: ProgressFn, index: number, pages: number): ProgressFn {
  return (p) => onProgress({ ...p, stage: exportText('stage.onPage', { page: index + 1, pages, stage: p.stage }) });
}
