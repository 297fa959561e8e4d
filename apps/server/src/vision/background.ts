import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { VisionModelError } from './errors.ts';
import { packageDir } from './tf-runtime.ts';

export type BackgroundProgress = (done: number, total: number) => void;

type Imgly = typeof import('@imgly/background-removal-node');
let imgly: Promise<Imgly> | undefined;

/**
 * The package's default publicPath is resolved against the current working directory, which breaks under
 * workspaces and in workers; point it at the package's own dist/ folder, where the model and wasm ship.
 */
function publicPath(): string {
  return pathToFileURL(path.join(packageDir('@imgly/background-removal-node'), 'dist') + path.sep).href;
}

/**
 * Segments the foreground with IMG.LY's ISNet ('medium', fp16) on onnxruntime-node and returns a PNG whose alpha
 * is the matte. The package memoises its ONNX session per configuration, so the model stays warm in this thread.
 */
export async function removeBackgroundImgly(image: Buffer, onProgress?: BackgroundProgress): Promise<Buffer> {
  imgly ??= import('@imgly/background-removal-node');
  const lib = await imgly.catch((cause: unknown) => {
    imgly = undefined;
    throw new VisionModelError(`Could not load @imgly/background-removal-node: ${String(cause)}`, { cause });
  });
  // imgly picks its decoder from the Blob's type, so hand it a PNG whatever came in (EXIF orientation applied).
  const png = await sharp(image).rotate().png().toBuffer();
  const blob = await lib.removeBackground(new Blob([new Uint8Array(png)], { type: 'image/png' }), {
    publicPath: publicPath(),
    model: 'small',
    output: { format: 'image/png' },
    progress: (_key: string, current: number, total: number) => onProgress?.(current, total),
  });
  return Buffer.from(await blob.arrayBuffer());
}
