import sharp from 'sharp';
import type {
  DiffusionParams,
  EditTask,
  Engine,
  EngineEvents,
  EngineImage,
  EngineResult,
  EngineTask,
  FaceEnhanceTask,
  BrushTask,
  Img2ImgTask,
  InpaintTask,
  OutpaintTask,
  RegionalTask,
  Txt2ImgTask,
  UpscaleTask,
} from '../types.ts';
import { EngineError, throwIfAborted } from '../errors.ts';
import { composeArtwork, renderArtwork } from './artwork.ts';
import type { RawImage } from './artwork.ts';
import { dominantHue, overlayControlNets } from './effects.ts';
import { paletteFor } from './palette.ts';
import {
  blendMasked,
  blendUniform,
  blurChannel,
  decodeImage,
  decodeMask,
  decodeResized,
  encodePng,
  featherAlpha,
  withChannels,
} from './pixels.ts';
import type { Pixels } from './pixels.ts';
import { StepReporter } from './progress.ts';
import { assertBrushes, assertDiffusionParams, assertRegions, assertSize } from './validate.ts';

export const BUILTIN_NOTE =
  'Built-in procedural artwork, not a diffusion model: deterministic pictures drawn from the seed and the prompt words.';

export interface BuiltinEngineOptions {
  /** Delay per step; 0 (default) only yields to the event loop. Useful to make demos look like a real engine. */
  stepDelayMs?: number;
}

/** Steps simulated by instruction edits, which carry no step count of their own. */
const EDIT_STEPS = 20;
const EDIT_STRENGTH = 0.5;
const EDIT_MASK_BLUR = 10;

/** The default engine: runs anywhere without a GPU and respects sizes, seeds and masks exactly. */
export class BuiltinEngine implements Engine {
  readonly id = 'builtin' as const;
  private readonly stepDelayMs: number;

  constructor(options: BuiltinEngineOptions = {}) {
    this.stepDelayMs = options.stepDelayMs ?? 0;
  }

  supports(task: EngineTask): boolean {
    return task.kind !== 'video';
  }

  async run(task: EngineTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult> {
    throwIfAborted(signal);
    switch (task.kind) {
      case 'txt2img':
        return this.txt2img(task, events, signal);
      case 'img2img':
        return this.img2img(task, events, signal);
      case 'inpaint':
      case 'face_enhance':
        return this.inpaint(task, events, signal);
      case 'outpaint':
        return this.outpaint(task, events, signal);
      case 'regional':
        return this.regional(task, events, signal);
      case 'smd':
        return this.brushes(task, events, signal);
      case 'edit':
        return this.edit(task, events, signal);
      case 'upscale':
        return this.upscale(task, signal);
      case 'video':
        throw new EngineError('validation', 'The built-in engine cannot make videos; configure fal for video models');
    }
  }

  private result(model: string, images: EngineImage[], note = BUILTIN_NOTE): EngineResult {
    return { images, metadata: { engine: 'builtin', model, note } };
  }

  /** One procedural picture for image `index` of the job, with ControlNet/IP-Adapter influences applied. */
  private async generate(
    p: DiffusionParams,
    index: number,
    width: number,
    height: number,
    reporter: StepReporter,
  ): Promise<RawImage> {
    const seed = p.seed + index;
    const hue = p.ipAdapter ? await dominantHue(p.ipAdapter.image) : undefined;
    const art = composeArtwork(seed, paletteFor(p.prompt, seed, hue, p.ipAdapter?.strength ?? 0), width, height);
    await reporter.runImage(art);
    return overlayControlNets(await renderArtwork(art), p.controlnets);
  }

  private async finish(pixels: Pixels, seed: number): Promise<EngineImage> {
    return { bytes: await encodePng(pixels), mime: 'image/png', width: pixels.width, height: pixels.height, seed };
  }

  private async txt2img(task: Txt2ImgTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult> {
    assertDiffusionParams(task);
    assertSize(task.width, task.height);
    const reporter = new StepReporter(events, signal, task.steps, task.numImages, this.stepDelayMs);
    const images: EngineImage[] = [];
    for (let i = 0; i < task.numImages; i++) {
      const raw = await this.generate(task, i, task.width, task.height, reporter);
      images.push(await this.finish(withChannels(raw, 3), task.seed + i));
    }
    return this.result(task.model.id, images);
  }

  private async img2img(task: Img2ImgTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult> {
    assertDiffusionParams(task);
    assertSize(task.width, task.height);
    assertUnit(task.strength, 'strength');
    const probe = await decodeImage(task.image, 'input image');
    const input = await decodeResized(task.image, 'input image', task.width, task.height, probe.channels === 4);
    const reporter = new StepReporter(events, signal, task.steps, task.numImages, this.stepDelayMs);
    const images: EngineImage[] = [];
    for (let i = 0; i < task.numImages; i++) {
      const raw = await this.generate(task, i, task.width, task.height, reporter);
      images.push(
        await this.finish(blendUniform(input, withChannels(raw, input.channels), task.strength), task.seed + i),
      );
    }
    return this.result(task.model.id, images);
  }

  private async inpaint(
    task: InpaintTask | FaceEnhanceTask,
    events: EngineEvents,
    signal: AbortSignal,
  ): Promise<EngineResult> {
    assertDiffusionParams(task);
    assertUnit(task.strength, 'strength');
    if (!(task.maskBlur >= 0)) throw new EngineError('validation', 'Mask blur must be 0 or more');
    const input = await decodeImage(task.image, 'input image');
    assertSize(input.width, input.height);
    const { mask, blurred } = await decodeMask(task.mask, input.width, input.height, task.maskBlur);
    const alpha = featherAlpha(mask, blurred);
    const reporter = new StepReporter(events, signal, task.steps, task.numImages, this.stepDelayMs);
    const images: EngineImage[] = [];
    for (let i = 0; i < task.numImages; i++) {
      const raw = await this.generate(task, i, input.width, input.height, reporter);
      images.push(
        await this.finish(blendMasked(input, withChannels(raw, input.channels), alpha, task.strength), task.seed + i),
      );
    }
    return this.result(task.model.id, images);
  }

  private async outpaint(task: OutpaintTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult> {
    assertDiffusionParams(task);
    const { left, top, right, bottom } = task.padding;
    for (const [side, v] of Object.entries(task.padding)) {
      if (!Number.isInteger(v) || v < 0)
        throw new EngineError('validation', `Outpaint padding ${side} must be a whole number of pixels, 0 or more`);
    }
    if (left + top + right + bottom === 0)
      throw new EngineError('validation', 'Outpaint needs padding on at least one side');
    const input = await decodeImage(task.image, 'input image');
    const width = input.width + left + right;
    const height = input.height + top + bottom;
    assertSize(width, height);
    // The new area starts as the original's edge pixels stretched outwards, so the feather blends from them.
    const base = await decodeImage(
      await sharp(task.image).extend({ left, top, right, bottom, extendWith: 'copy' }).png().toBuffer(),
      'input image',
    );
    const newArea = Buffer.alloc(width * height, 255);
    for (let y = top; y < top + input.height; y++) newArea.fill(0, y * width + left, y * width + left + input.width);
    const mask = Float32Array.from(newArea, (v) => v / 255);
    const blurred = Float32Array.from(await blurChannel(newArea, width, height, task.blur), (v) => v / 255);
    const alpha = featherAlpha(mask, blurred);
    const reporter = new StepReporter(events, signal, task.steps, task.numImages, this.stepDelayMs);
    const images: EngineImage[] = [];
    for (let i = 0; i < task.numImages; i++) {
      const raw = await this.generate(task, i, width, height, reporter);
      images.push(await this.finish(blendMasked(base, withChannels(raw, base.channels), alpha, 1), task.seed + i));
    }
    return this.result(task.model.id, images);
  }

  /** Background from the task prompt, then each region's own picture in its box (later regions on top). */
  private async regional(task: RegionalTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult> {
    assertDiffusionParams(task);
    assertSize(task.width, task.height);
    assertRegions(task.regions, task.width, task.height);
    const reporter = new StepReporter(events, signal, task.steps, task.numImages, this.stepDelayMs);
    const images: EngineImage[] = [];
    for (let i = 0; i < task.numImages; i++) {
      const out = withChannels(await this.generate(task, i, task.width, task.height, reporter), 3);
      for (const [k, r] of task.regions.entries()) {
        const seed = regionSeed(task.seed + i, k);
        const w = r.x1 - r.x0;
        const art = await renderArtwork(composeArtwork(seed, paletteFor(r.prompt, seed), w, r.y1 - r.y0));
        for (let y = r.y0; y < r.y1; y++) {
          art.data.copy(out.data, (y * task.width + r.x0) * 3, (y - r.y0) * w * 3, (y - r.y0 + 1) * w * 3);
        }
      }
      images.push(await this.finish(out, task.seed + i));
    }
    return this.result(task.model.id, images);
  }

  /** Background from the task prompt, then each brush's own picture through its mask (later brushes on top). */
  private async brushes(task: BrushTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult> {
    assertDiffusionParams(task);
    assertSize(task.width, task.height);
    assertBrushes(task.brushes);
    const masks = await Promise.all(task.brushes.map((b) => decodeMask(b.mask, task.width, task.height, 0)));
    const reporter = new StepReporter(events, signal, task.steps, task.numImages, this.stepDelayMs);
    const images: EngineImage[] = [];
    for (let i = 0; i < task.numImages; i++) {
      let out = withChannels(await this.generate(task, i, task.width, task.height, reporter), 3);
      for (const [k, b] of task.brushes.entries()) {
        const seed = regionSeed(task.seed + i, k);
        const art = await renderArtwork(composeArtwork(seed, paletteFor(b.prompt, seed), task.width, task.height));
        out = blendMasked(out, withChannels(art, 3), masks[k]?.mask ?? new Float32Array(0), 1);
      }
      images.push(await this.finish(out, task.seed + i));
    }
    return this.result(task.model.id, images);
  }

  /** An instruction edit cannot be understood without a model; it repaints the mask (or blends the whole image). */
  private async edit(task: EditTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult> {
    if (task.prompt.trim().length === 0) throw new EngineError('validation', 'An edit needs an instruction prompt');
    const input = await decodeImage(task.image, 'input image');
    assertSize(input.width, input.height);
    const reporter = new StepReporter(events, signal, EDIT_STEPS, 1, this.stepDelayMs);
    const art = composeArtwork(task.seed, paletteFor(task.prompt, task.seed), input.width, input.height);
    await reporter.runImage(art);
    const generated = withChannels(await renderArtwork(art), input.channels);
    let out: Pixels;
    if (task.mask) {
      const { mask, blurred } = await decodeMask(task.mask, input.width, input.height, EDIT_MASK_BLUR);
      out = blendMasked(input, generated, featherAlpha(mask, blurred), 1);
    } else {
      out = blendUniform(input, generated, EDIT_STRENGTH);
    }
    return this.result(task.model, [await this.finish(out, task.seed)]);
  }

  private async upscale(task: UpscaleTask, signal: AbortSignal): Promise<EngineResult> {
    if (!(task.scale >= 1 && task.scale <= 4))
      throw new EngineError('validation', 'Upscale factor must be between 1 and 4');
    const meta = await sharp(task.image)
      .metadata()
      .catch((err: unknown) => {
        throw new EngineError('validation', 'The input image could not be read as an image', err);
      });
    const width = Math.round((meta.width ?? 0) * task.scale);
    const height = Math.round((meta.height ?? 0) * task.scale);
    assertSize(width, height, 16384);
    const bytes = await sharp(task.image).resize(width, height, { kernel: 'lanczos3' }).png().toBuffer();
    throwIfAborted(signal);
    return this.result(
      'lanczos',
      [{ bytes, mime: 'image/png', width, height, seed: 0 }],
      'Built-in upscale: Lanczos resampling, not a super-resolution model.',
    );
  }
}

/** A distinct, stable seed for region or brush k of an image. */
function regionSeed(imageSeed: number, k: number): number {
  return (imageSeed + 7919 * (k + 1)) >>> 0;
}

function assertUnit(value: number, name: string): void {
  if (!(value >= 0 && value <= 1)) throw new EngineError('validation', `${name} must be between 0 and 1`);
}
