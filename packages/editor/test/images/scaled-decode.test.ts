import { describe, expect, it } from 'vitest';
import { jpegSize, scaledDecodeSize } from '../../src/images/scaled-decode.ts';

/** A segment: marker FF xx, then a two-byte length counting itself and the payload. */
const segment = (marker: number, payload: number[]) => [
  0xff,
  marker,
  (payload.length + 2) >> 8,
  (payload.length + 2) & 0xff,
  ...payload,
];
/** The head of a JPEG: SOI, an APP1 (EXIF) of 300 bytes, a DQT, fill bytes, then the frame header. */
const jpeg = (width: number, height: number, sof = 0xc0) =>
  new Uint8Array([
    0xff,
    0xd8,
    ...segment(0xe1, new Array<number>(300).fill(7)),
    ...segment(0xdb, new Array<number>(65).fill(1)),
    0xff,
    ...segment(sof, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]),
    ...segment(0xda, [1, 2, 3]),
  ]);

describe('jpegSize', () => {
  it('reads the frame header past EXIF, tables and fill bytes, baseline and progressive', () => {
    expect(jpegSize(jpeg(1024, 512))).toEqual({ width: 1024, height: 512 });
    expect(jpegSize(jpeg(300, 1000, 0xc2))).toEqual({ width: 300, height: 1000 });
  });

  it('refuses what is not a JPEG, ends before its frame header or has none before the scan', () => {
    expect(jpegSize(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeNull();
    expect(jpegSize(jpeg(64, 64).subarray(0, 20))).toBeNull();
    expect(jpegSize(jpeg(64, 64, 0xc4))).toBeNull();
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
  });
});

describe('scaledDecodeSize', () => {
  it('asks for the smallest eighth whose longest side reaches the level', () => {
    expect(scaledDecodeSize(1024, 1024, 512)).toEqual({ width: 512, height: 512, eighths: 4 });
    expect(scaledDecodeSize(1024, 512, 256)).toEqual({ width: 256, height: 128, eighths: 2 });
    // 1000 × 2/8 = 250 would fall short of 256: three eighths.
    expect(scaledDecodeSize(1000, 700, 256)).toEqual({ width: 375, height: 263, eighths: 3 });
    expect(scaledDecodeSize(700, 1000, 64)).toEqual({ width: 88, height: 125, eighths: 1 });
  });

  it('never shrinks below the level, for any size', () => {
    for (let longest = 65; longest < 3000; longest += 37)
      for (const level of [64, 128, 256, 512, 1024]) {
        const size = scaledDecodeSize(longest, Math.round(longest / 2), level);
        if (size) expect(size.width).toBeGreaterThanOrEqual(level);
      }
  });

  it('decodes the whole picture when no eighth below one reaches the level', () => {
    expect(scaledDecodeSize(1024, 1024, 1024)).toBeNull();
    expect(scaledDecodeSize(1024, 1024, 1000)).toBeNull();
    expect(scaledDecodeSize(512, 512, 2048)).toBeNull();
  });
});
