// The one way pictures come into the editor: the Upload button, a paste and a drop all call importFiles. Each file
// is checked, decoded, encoded as the spec asks (PNG stays PNG, anything else becomes JPEG), uploaded with progress,
// and added as an image layer where placeImportedImage says. A layered PSD is imported layer by layer instead.
import { addImage } from '@koma/editor';
import { isApiError } from '../../api/ApiError.ts';
import { uploadImage } from '../../api/endpoints.ts';
import { bytesToBase64 } from '../../api/imageLoader.ts';
import { i18n } from '../../i18n/index.ts';
import { describeImport, importPsd, isPsdFile } from '../../export/run.ts';
import type { EditorSession } from '../session.ts';
import { placeImportedImage } from './placement.ts';
import { importProgressOf } from './progress.ts';
import '../i18n-shell.ts';

const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp|bmp|avif|heic|heif|tiff?|ico)$/i;

/** Image by its type, or by its name when the system gave no type (some file managers and clipboards do not). */
export function isImageFile(file: File): boolean {
  if (file.type) return file.type.startsWith('image/');
  return IMAGE_EXTENSIONS.test(file.name);
}

export interface EncodedImage {
  base64: string;
  fileType: 'png' | 'jpeg';
  width: number;
  height: number;
}

/** Thrown when the bytes are not a picture the browser can decode. */
class UnreadableImage extends Error {}

/** editor.md §5: a PNG is uploaded as png; anything else is drawn on white and uploaded as jpeg. */
export async function encodeForUpload(file: File): Promise<EncodedImage> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch (cause) {
    throw new UnreadableImage(String(cause));
  }
  const { width, height } = bitmap;
  if (width === 0 || height === 0) {
    bitmap.close();
    throw new UnreadableImage('empty image');
  }
  if (file.type === 'image/png') {
    bitmap.close();
    return { base64: bytesToBase64(new Uint8Array(await file.arrayBuffer())), fileType: 'png', width, height };
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Unable to get canvas context');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  const blob = await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('JPEG encoding failed'))), 'image/jpeg', 0.92),
  );
  return { base64: bytesToBase64(new Uint8Array(await blob.arrayBuffer())), fileType: 'jpeg', width, height };
}

export interface ImportOptions {
  /** The canvas point to place at (a drop point, the pointer); null or absent for the middle of the view. */
  at?: { x: number; y: number } | null;
  /** Alt/Option held: the picture keeps its own size and is not fitted into the panel under it. */
  natural?: boolean;
}

/**
 * Imports files as layers of the open page; refuses each file that is not an image with a toast naming it, and
 * leaves the document as it was for that file. Resolves with the ids of the layers added (they end up selected).
 */
export async function importFiles(
  session: EditorSession,
  files: readonly File[],
  options: ImportOptions = {},
): Promise<string[]> {
  const added: string[] = [];
  const progress = importProgressOf(session);
  for (const file of files) {
    if (isPsdFile(file)) {
      try {
        const report = await importPsd(session, file, () => undefined);
        session.ui.notify(describeImport(report), report.skipped.length > 0 ? 'error' : 'info');
      } catch (error) {
        session.ui.notify(error instanceof Error ? error.message : String(error), 'error');
      }
      continue;
    }
    if (!isImageFile(file)) {
      session.ui.notify(i18n.t('editor.import.notImage', { name: file.name }), 'error');
      continue;
    }
    const task = progress.start(file.name);
    try {
      const encoded = await encodeForUpload(file);
      task.upload(0);
      const { id } = await uploadImage(encoded.base64, encoded.fileType, (sent, total) => task.upload(sent / total));
      const placement = placeImportedImage(
        session,
        { width: encoded.width, height: encoded.height },
        options.at ?? null,
        added.length,
        options.natural ?? false,
      );
      const result = session.editor.execute(addImage, { ...placement, imageId: id, name: file.name.slice(0, 255) });
      if (result.ok) {
        added.push(result.value);
        session.ui.update({ selection: [...added] });
      }
    } catch (error) {
      session.ui.notify(refusal(file.name, error), 'error');
      // A warning, not an error: a refused file is the user's input, not a fault of the editor.
      console.warn(`Import of ${file.name} failed`, error);
    } finally {
      task.done();
    }
  }
  return added;
}

function refusal(name: string, error: unknown): string {
  if (error instanceof UnreadableImage) return i18n.t('editor.import.unreadable', { name });
  if (isApiError(error) && error.status === 413) return i18n.t('editor.import.tooLarge', { name });
  // The server's image check (decode and re-encode) refuses a picture it cannot read with a 400.
  if (isApiError(error) && error.status === 400) return i18n.t('editor.import.unreadable', { name });
  return i18n.t('editor.import.failed', { name });
}

/** The image files of a paste (a copied file, or picture data copied from a page or another app). */
export function pastedFiles(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files = [...data.files];
  if (files.length > 0) return files;
  return [...data.items].flatMap((item) => {
    if (item.kind !== 'file') return [];
    const file = item.getAsFile();
    return file ? [file] : [];
  });
}
