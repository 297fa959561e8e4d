import { createRequire } from 'node:module';
import path from 'node:path';
import type { Tensor3D } from '@tensorflow/tfjs';
import sharp from 'sharp';
import { VisionAbortedError } from './errors.ts';
import { decodeRgb } from './input.ts';
import { initTf } from './tf-runtime.ts';
import { UPSCALE_FACTOR, UPSCALE_TILE } from './upscale-limits.ts';

const require = createRequire(import.meta.url);

/** Tile edge in source pixels, and context added on every side so that tile seams do not show. */
const TILE = UPSCALE_TILE;
const PAD = 8;

export type UpscaleProgress = (done: number, total: number) => void;

interface UpscalerInstance {
  upscale(input: Tensor3D, options: { output: 'tensor'; signal?: AbortSignal }): Promise<Tensor3D>;
}
type UpscalerClass = new (options: { model: unknown }) => UpscalerInstance;

let instance: Promise<UpscalerInstance> | undefined;

/**
 * `upscaler/node` requires @tensorflow/tfjs-node, which cannot install offline; its node build is assembled
 * here from the same parts with pure tfjs (wasm) instead. The model files load through tf-runtime's file:// router.
 */
function upscaler(): Promise<UpscalerInstance> {
  instance ??= (async () => {
    const tf = await initTf();
    const nodeDir = path.dirname(require.resolve('upscaler/node'));
    const part = (p: string) => require(path.join(nodeDir, '..', p)) as Record<string, unknown>;
    const shared = require(path.join(nodeDir, '..', '..', 'shared', 'index.js')) as {
      getUpscaler(deps: Record<string, unknown>): UpscalerClass;
    };
    const image = part('image.node.js');
    const Upscaler = shared.getUpscaler({
      tf,
      getUpscaleOptions: part('args.node.js').getUpscaleOptions,
      loadModel: part('loadModel.node.js').loadModel,
      getImageAsTensor: image.getImageAsTensor,
      tensorAsBase64: image.tensorAsBase64,
      checkValidEnvironment: image.checkValidEnvironment,
    });
    const x2 = require('@upscalerjs/esrgan-slim/2x') as { default?: unknown };
    const model = x2.default ?? x2;
    return new Upscaler({ model });
  })();
  return instance;
}

/**
 * Doubles an image with ESRGAN-slim, tile by tile: each tensor is at most (TILE + 2·PAD)² and the result is
 * written straight into an 8-bit buffer, so memory grows with the output bytes only. Alpha, if any, is
 * resized with lanczos and put back. Returns a PNG.
 */
export async function upscaleEsrgan(
  image: Buffer,
  onProgress?: UpscaleProgress,
  signal?: AbortSignal,
): Promise<Buffer> {
  const [tf, up] = await Promise.all([initTf(), upscaler()]);
  const { data, width, height } = await decodeRgb(image);
  const outW = width * UPSCALE_FACTOR;
  const outH = height * UPSCALE_FACTOR;
  const out = Buffer.alloc(outW * outH * 3);
  const cols = Math.ceil(width / TILE);
  const rows = Math.ceil(height / TILE);
  const total = cols * rows;
  let done = 0;
  onProgress?.(0, total);
  const source = tf.tensor3d(data, [height, width, 3], 'int32');
  try {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        // tfjs-wasm resolves in microtasks only; yielding a macrotask lets the worker receive an abort message.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (signal?.aborted) throw new VisionAbortedError();
        const x = c * TILE;
        const y = r * TILE;
        const w = Math.min(TILE, width - x);
        const h = Math.min(TILE, height - y);
        const x0 = Math.max(0, x - PAD);
        const y0 = Math.max(0, y - PAD);
        const x1 = Math.min(width, x + w + PAD);
        const y1 = Math.min(height, y + h + PAD);
        const tile = tf.tidy(() => source.slice([y0, x0, 0], [y1 - y0, x1 - x0, 3]).toFloat());
        const upscaled = await up.upscale(tile, { output: 'tensor', ...(signal ? { signal } : {}) });
        tile.dispose();
        const core = tf.tidy(() =>
          upscaled
            .slice(
              [(y - y0) * UPSCALE_FACTOR, (x - x0) * UPSCALE_FACTOR, 0],
              [h * UPSCALE_FACTOR, w * UPSCALE_FACTOR, 3],
            )
            .round()
            .clipByValue(0, 255)
            .toInt(),
        );
        upscaled.dispose();
        const px = await core.data();
        core.dispose();
        const rowLen = w * UPSCALE_FACTOR * 3;
        for (let j = 0; j < h * UPSCALE_FACTOR; j++) {
          const dst = ((y * UPSCALE_FACTOR + j) * outW + x * UPSCALE_FACTOR) * 3;
          for (let k = 0; k < rowLen; k++) out[dst + k] = px[j * rowLen + k] ?? 0;
        }
        onProgress?.(++done, total);
      }
    }
  } finally {
    source.dispose();
  }
  let result = sharp(out, { raw: { width: outW, height: outH, channels: 3 } });
  const meta = await sharp(image).metadata();
  if (meta.hasAlpha) {
    const alpha = await sharp(image)
      .rotate()
      .extractChannel('alpha')
      .resize(outW, outH, { kernel: 'lanczos3' })
      .toBuffer();
    result = result.joinChannel(alpha);
  }
  return result.png().toBuffer();
}
