/**
 * Sizes for decoding a JPEG straight at the size a zoomed-out view draws it (docs/how-it-works/chapter-memory.md):
 * a JPEG decoder can scale by n/8 while it decodes (libjpeg's scaled IDCT), which is cheaper than decoding the whole
 * picture and far cheaper than shrinking it afterwards on the main thread.
 */

/** Width and height from a JPEG's start-of-frame header, or null when the bytes are not a readable JPEG. */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at++;
      continue;
    }
    // Markers without a length: TEM and RSTn (SOI was skipped above).
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (length < 2) return null;
    // Start of frame: SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > bytes.length) return null;
      const height = (bytes[at + 5]! << 8) | bytes[at + 6]!;
      const width = (bytes[at + 7]! << 8) | bytes[at + 8]!;
      return width > 0 && height > 0 ? { width, height } : null;
    }
    // Start of scan or end of image before any frame header: not a picture we can size.
    if (marker === 0xda || marker === 0xd9) return null;
    at += 2 + length;
  }
  return null;
}

/**
 * The size to ask a scaling JPEG decoder for so that the picture's longest side comes out at least `level` pixels:
 * the smallest n/8 scale that reaches it (decoders pick the largest n/8 whose pixels fit the asked size). Null when
 * no scale below 1 reaches `level` (decode the whole picture).
 */
export function scaledDecodeSize(
  width: number,
  height: number,
  level: number,
): { width: number; height: number; eighths: number } | null {
  const longest = Math.max(width, height);
  const eighths = Math.ceil((8 * level) / longest);
  if (!(eighths >= 1 && eighths < 8)) return null;
  return { width: Math.ceil((width * eighths) / 8), height: Math.ceil((height * eighths) / 8), eighths };
}
