import { DOWNLOAD_URL_RELEASE_MS } from '@koma/domain';

/** Offers bytes as a download; the object URL is released after 40 s (generation.md §9). */
export function downloadBytes(bytes: Uint8Array, fileName: string, mime: string): void {
  downloadBlob(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }), fileName);
}

/** Offers a blob as a download (the PDF, made in pieces); the object URL is released after 40 s. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_RELEASE_MS);
}
