/// <reference lib="webworker" />
import type { WorkerRequest } from './protocol.ts';

type WebtoonRequest = Extract<WorkerRequest, { type: 'webtoon' }>;

/**
 * Draws each slice of the stacked strip from the encoded pages it overlaps (scaled to the strip width) and encodes
 * it. A page is decoded when the first slice needs it and closed once the slices have passed it, so at most the
 * pages under one slice are held decoded.
 */
export async function drawSlices(
  request: WebtoonRequest,
  named: (index: number) => string,
): Promise<{ name: string; bytes: Uint8Array }[]> {
  const decoded = new Map<number, ImageBitmap>();
  const files: { name: string; bytes: Uint8Array }[] = [];
  const type = request.format === 'jpg' ? 'image/jpeg' : 'image/png';
  for (const [index, slice] of request.slices.entries()) {
    const name = named(index);
    const canvas = new OffscreenCanvas(request.width, slice.bottom - slice.top);
    const context = canvas.getContext('2d')!;
    context.imageSmoothingQuality = 'high';
    // JPEG has no transparency: what no page covers is white, as the pages' own margins are.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    for (const [i, page] of request.stacked.entries()) {
      const overlaps = page.top < slice.bottom && page.top + page.height > slice.top;
      if (!overlaps) {
        if (page.top + page.height <= slice.top && decoded.has(i)) {
          decoded.get(i)!.close();
          decoded.delete(i);
        }
        continue;
      }
      let bitmap = decoded.get(i);
      if (!bitmap) {
        bitmap = await createImageBitmap(new Blob([request.pages[i]! as Uint8Array<ArrayBuffer>]));
        decoded.set(i, bitmap);
      }
      context.drawImage(bitmap, 0, page.top - slice.top, request.width, page.height);
    }
    const blob = await canvas.convertToBlob({ type, quality: 0.92 });
    files.push({ name, bytes: new Uint8Array(await blob.arrayBuffer()) });
  }
  for (const bitmap of decoded.values()) bitmap.close();
  return files;
}
