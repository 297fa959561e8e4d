// The vision kinds (upscale, background, pose, faces) run Koma's own models in the vision lanes.
import sharp from 'sharp';
import { EngineError } from '../../engines/errors.ts';
import { HttpError } from '../../http/errors.ts';
import { orientedSize } from '../../vision/input.ts';
import { upscaleRefusal, upscaleTiles } from '../../vision/index.ts';
import type { JobDeps } from '../deps.ts';
import { defineHandler, type Report } from './handler.ts';
import { EMPTY, route } from './steps.ts';

function tileProgress(report: Report) {
  return (done: number, total: number) =>
    report({ logs: [`Progress: ${done}/${total}`], progress: total > 0 ? done / total : 0 });
}

const VISION = { engine: 'vision', lane: 'vision' } as const;

async function sizeOf(deps: JobDeps, userId: string, id: string): Promise<{ width: number; height: number }> {
  const image = await deps.images.getImage(userId, id);
  if (!image) throw new HttpError(400, 'invalid_request', `image: image ${id} not found`);
  return orientedSize(await sharp(image.bytes).metadata());
}

/**
 * Stores an upscaled image: as PNG when the store takes it, else as lossless WebP, else as WebP at quality 92
 * (a 4096-px photo's PNG can pass the byte limit that uploads have; its WebP does not).
 */
async function putUpscaled(deps: JobDeps, userId: string, png: Buffer): Promise<{ id: string; bytes: Buffer }> {
  const encodings = [
    () => Promise.resolve(png),
    () => sharp(png).webp({ lossless: true }).toBuffer(),
    () => sharp(png).webp({ quality: 92 }).toBuffer(),
  ];
  let last: unknown;
  for (const encode of encodings) {
    const bytes = await encode();
    try {
      return { id: await deps.images.putImage(userId, bytes), bytes };
    } catch (err) {
      if (!(err instanceof HttpError) || err.code !== 'payload_too_large') throw err;
      last = err;
    }
  }
  throw new EngineError(
    'input_too_large',
    `The upscaled image is too large to keep (${last instanceof Error ? last.message : 'over the limit'})`,
  );
}

export const upscale = defineHandler({
  kind: 'upscale',
  // ×2 is the vision upscaler (ESRGAN); other factors go to the engine router's upscale task.
  target: (deps, r) => (r.scale === 2 ? VISION : route(deps, { kind: 'upscale', image: EMPTY, scale: r.scale })),
  async admit(deps, userId, r) {
    const { width, height } = await sizeOf(deps, userId, r.image);
    const refusal = upscaleRefusal(width, height, r.scale);
    if (refusal) throw new HttpError(400, 'input_too_large', refusal);
  },
  async run(ctx, r) {
    const { deps, job } = ctx;
    const source = await ctx.load(r.image);
    let bytes: Buffer;
    if (job.engine === 'vision') {
      const { width, height } = orientedSize(await sharp(source).metadata());
      ctx.expect(upscaleTiles(width, height));
      bytes = await deps.vision.upscale(source, tileProgress(ctx.report), ctx.signal);
    } else {
      const first = (await ctx.engine({ kind: 'upscale', image: source, scale: r.scale })).images[0];
      if (!first) throw new EngineError('engine_failed', 'The engine returned no image');
      bytes = first.bytes;
    }
    const stored = await putUpscaled(deps, job.userId, bytes);
    const mime = (await deps.images.getImage(job.userId, stored.id))?.mime ?? 'image/png';
    return { output: { image: `data:${mime};base64,${stored.bytes.toString('base64')}`, id: stored.id } };
  },
});

export const background = defineHandler({
  kind: 'background',
  target: () => ({ engine: 'vision', lane: 'background' }),
  async run(ctx, r) {
    ctx.expect(1);
    const bytes = await ctx.deps.vision.removeBackground(await ctx.load(r.image), tileProgress(ctx.report), ctx.signal);
    const id = await ctx.deps.images.putImage(ctx.job.userId, bytes);
    return { output: { encoded: bytes.toString('base64'), id } };
  },
});

export const pose = defineHandler({
  kind: 'pose',
  target: () => VISION,
  async run(ctx, r) {
    ctx.expect(1);
    const result = await ctx.deps.vision.estimatePose(await ctx.load(r.image));
    return { output: { pose: { bodies: result.bodies }, width: result.width, height: result.height } };
  },
});

export const faceDetection = defineHandler({
  kind: 'face_detection',
  target: () => VISION,
  async run(ctx, r) {
    ctx.expect(1);
    const faces = await ctx.deps.vision.detectFaces(await ctx.load(r.variationId));
    return { output: { bboxes: faces.map((f) => ({ bbox: f.bbox, label: f.label, score: f.score })) } };
  },
});
