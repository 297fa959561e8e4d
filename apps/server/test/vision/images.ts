import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Test helpers: fixtures, synthetic images and image metrics (no model involved). */
export function fixture(name: string): Buffer {
  return readFileSync(new URL(`../fixtures/vision/${name}`, import.meta.url));
}

export async function rgb(image: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Peak signal-to-noise ratio in dB of two same-sized 8-bit buffers. */
export function psnr(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error(`psnr: sizes differ (${a.length} vs ${b.length})`);
  let se = 0;
  for (let i = 0; i < a.length; i++) se += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
  return 10 * Math.log10((255 * 255) / (se / a.length));
}

/** Mean squared difference between horizontal and vertical neighbours: how much fine detail an image holds. */
export function gradientEnergy(src: Uint8Array, width: number, height: number): number {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < height - 1; y++)
    for (let x = 0; x < width - 1; x++)
      for (let c = 0; c < 3; c++) {
        const v = src[(y * width + x) * 3 + c] ?? 0;
        sum +=
          (v - (src[(y * width + x + 1) * 3 + c] ?? 0)) ** 2 + (v - (src[((y + 1) * width + x) * 3 + c] ?? 0)) ** 2;
        n++;
      }
  return sum / n;
}

/** Exact 2×2 box average: a half-size image whose pixel centres sit where the source's 2×2 blocks are centred. */
export function boxHalve(
  src: Uint8Array,
  width: number,
  height: number,
): { data: Uint8Array; width: number; height: number } {
  const w = width >> 1;
  const h = height >> 1;
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 3; c++) {
        const at = (yy: number, xx: number) => src[(yy * width + xx) * 3 + c] ?? 0;
        out[(y * w + x) * 3 + c] = Math.round(
          (at(2 * y, 2 * x) + at(2 * y, 2 * x + 1) + at(2 * y + 1, 2 * x) + at(2 * y + 1, 2 * x + 1)) / 4,
        );
      }
  return { data: out, width: w, height: h };
}

/** Keys cubic kernel, a = −0.5 (MATLAB's imresize and most "bicubic" resizers). */
function cubic(t: number): number {
  const x = Math.abs(t);
  if (x <= 1) return 1.5 * x ** 3 - 2.5 * x ** 2 + 1;
  if (x < 2) return -0.5 * x ** 3 + 2.5 * x ** 2 - 4 * x + 2;
  return 0;
}

/**
 * Antialiased bicubic ½ with half-pixel centres, as MATLAB's imresize makes the low-resolution images that
 * DIV2K-trained super-resolution models (ESRGAN among them) learned to invert.
 */
export function bicubicHalve(
  src: Uint8Array,
  width: number,
  height: number,
): { data: Uint8Array; width: number; height: number } {
  const w = width >> 1;
  const h = height >> 1;
  const clampI = (v: number, max: number) => Math.min(Math.max(v, 0), max - 1);
  // Horizontal then vertical pass, the kernel stretched ×2 (8 taps) so that it low-passes.
  const pass = (input: Float64Array | Uint8Array, iw: number, ih: number, horizontal: boolean) => {
    const ow = horizontal ? iw >> 1 : iw;
    const oh = horizontal ? ih : ih >> 1;
    const out = new Float64Array(ow * oh * 3);
    for (let y = 0; y < oh; y++)
      for (let x = 0; x < ow; x++) {
        const centre = (horizontal ? x : y) * 2 + 0.5;
        let sum = 0;
        const acc = [0, 0, 0];
        for (let t = Math.floor(centre) - 3; t <= Math.floor(centre) + 4; t++) {
          const wgt = cubic((t - centre) / 2);
          if (wgt === 0) continue;
          sum += wgt;
          const sx = horizontal ? clampI(t, iw) : x;
          const sy = horizontal ? y : clampI(t, ih);
          for (let c = 0; c < 3; c++) acc[c]! += (input[(sy * iw + sx) * 3 + c] ?? 0) * wgt;
        }
        for (let c = 0; c < 3; c++) out[(y * ow + x) * 3 + c] = acc[c]! / sum;
      }
    return out;
  };
  const both = pass(pass(src, width, height, true), w, height, false);
  return { data: Uint8Array.from(both, (v) => Math.min(255, Math.max(0, Math.round(v)))), width: w, height: h };
}

/** Bicubic (Keys, a = −0.5) ×2 with half-pixel centres, the aligned baseline for the upscaler. */
export function bicubicDouble(src: Uint8Array, width: number, height: number): Uint8Array {
  const W = width * 2;
  const H = height * 2;
  const out = new Uint8Array(W * H * 3);
  const k = cubic;
  const clampI = (v: number, max: number) => Math.min(Math.max(v, 0), max - 1);
  for (let y = 0; y < H; y++) {
    const sy = (y + 0.5) / 2 - 0.5;
    const y0 = Math.floor(sy);
    for (let x = 0; x < W; x++) {
      const sx = (x + 0.5) / 2 - 0.5;
      const x0 = Math.floor(sx);
      for (let c = 0; c < 3; c++) {
        let v = 0;
        for (let j = -1; j <= 2; j++)
          for (let i = -1; i <= 2; i++)
            v +=
              (src[(clampI(y0 + j, height) * width + clampI(x0 + i, width)) * 3 + c] ?? 0) *
              k(sy - (y0 + j)) *
              k(sx - (x0 + i));
        out[(y * W + x) * 3 + c] = Math.min(255, Math.max(0, Math.round(v)));
      }
    }
  }
  return out;
}

/** A PNG whose IHDR claims `width`×`height` with almost no pixel data: a huge image in ~100 bytes. */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  // One short IDAT: decoders want to see image data begin before they report the header.
  const idat = deflateSync(Buffer.alloc(64));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
