/**
 * A 32-bit FNV-1a hash of a raster's size and pixels, as 8 hex digits: enough to tell whether a layer's pixels
 * came back from another tool as Koma wrote them (not a defence against a forger, who gains nothing by one).
 * Word at a time, as the pixels of a page-sized layer are many.
 */
export function pixelHash(raster: { width: number; height: number; data: ArrayBufferView }): string {
  // A layer with no pixels is written without any, and read back without a size.
  const empty = raster.width === 0 || raster.height === 0;
  let h = 0x811c9dc5;
  h = Math.imul(h ^ (empty ? 0 : raster.width), 0x01000193);
  h = Math.imul(h ^ (empty ? 0 : raster.height), 0x01000193);
  // The bytes, whatever the array type (a file's 16-bit channels hash differently from the 8-bit ones written).
  const { buffer, byteOffset, byteLength } = raster.data;
  const aligned = byteOffset % 4 === 0;
  const words = new Uint32Array(aligned ? buffer : buffer.slice(byteOffset), aligned ? byteOffset : 0, byteLength >> 2);
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  const bytes = new Uint8Array(buffer, byteOffset, byteLength);
  for (let i = words.length * 4; i < byteLength; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
