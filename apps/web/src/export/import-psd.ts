// PSD and PSB import: the file read in the export worker, its rasters uploaded as PNG, its layers added in one step.
import { ExportError, importPsdLayers, type ImportNote, type ImportedEntry, type Raster } from '@koma/editor';
import { api, bytesToBase64 } from '../api/index.ts';
import type { EditorSession } from '../editor/session.ts';
import { exportText, reasonText } from './i18n.ts';
import { runWorker, type ProgressFn } from './worker-client.ts';

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
        ...(item.turn ? { turn: item.turn } : {}),
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
