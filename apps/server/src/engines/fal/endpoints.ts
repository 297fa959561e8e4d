/**
 * Which fal endpoint runs a task, and its input (schemas in engines.md §2.4). Inputs are typed against the
 * endpoint map the official client generates (`@fal-ai/client/endpoints`), so `tsc` checks every field name
 * and value. Images are uploaded to fal storage first (as the client does with files) and sent as URLs:
 * inline base64 would make 10–20 MB JSON bodies.
 */
import type { EndpointTypeMap } from '@fal-ai/client/endpoints';
import sharp from 'sharp';
import type { DiffusionParams, EngineTask, LoraRef, VideoModelId } from '../types.ts';
import { EngineError } from '../errors.ts';
import { featheredMask, imageSize, outpaintCanvas, toPng } from '../masks.ts';

export interface FalRequest {
  endpoint: string;
  input: Record<string, unknown>;
  /** Model name reported in the result metadata. */
  model: string;
  /** What the result holds. */
  output: 'images' | 'image' | 'video';
  /** For inpaint-like tasks: paste the result over `original` through `mask` afterwards. */
  paste?: { original: Buffer; mask: Buffer };
  note?: string;
}

export const FAL_EDIT_ENDPOINTS = {
  'kontext-dev': 'fal-ai/flux-kontext/dev',
  'kontext-pro': 'fal-ai/flux-pro/kontext',
  'kontext-max': 'fal-ai/flux-pro/kontext/max',
  'nano-banana': 'fal-ai/nano-banana/edit',
} as const;

export const FAL_VIDEO_ENDPOINTS = {
  // The client's endpoint map (1.10.1) lists a14b image-to-video only as /turbo and /lora; turbo takes an
  // end frame (end_image_url).
  wan22_i2v: 'fal-ai/wan/v2.2-a14b/image-to-video/turbo',
  wan_i2v: 'fal-ai/wan-i2v',
  'kling1.6_i2v': 'fal-ai/kling-video/v1.6/pro/image-to-video',
  'kling2.0_i2v': 'fal-ai/kling-video/v2/master/image-to-video',
  vidu_q1: 'fal-ai/vidu/q1/image-to-video',
} as const satisfies Record<VideoModelId, string>;

const FLUX_DEV = new Set(['fluxdev', 'fluxdevmanga']);
const FAL_MODEL_TYPES = new Set(['fluxdev', 'fluxdevmanga', 'fluxschnell', 'fluxpro']);

/** Puts a PNG into fal storage and returns its URL. */
export type Uploader = (png: Buffer, what: string) => Promise<string>;

/** The input of a typed endpoint, checked against the client's generated types. */
type Input<E extends keyof EndpointTypeMap> = EndpointTypeMap[E]['input'];
function typed<E extends keyof EndpointTypeMap>(
  endpoint: E,
  input: Input<E>,
): { endpoint: E; input: Record<string, unknown> } {
  return { endpoint, input: input };
}

async function uploadPng(upload: Uploader, bytes: Buffer, what: string): Promise<string> {
  return upload(await toPng(bytes, what), what);
}

async function fitTo(image: Buffer, width: number, height: number): Promise<Buffer> {
  try {
    return await sharp(image).resize(width, height, { fit: 'fill' }).png().toBuffer();
  } catch (err) {
    throw new EngineError('validation', 'The input image could not be read as an image', err);
  }
}

function falLoras(loras: LoraRef[]): { path: string; scale: number }[] {
  return loras.map((l) => {
    if (!l.url) throw new EngineError('validation', `LoRA ${l.name} has no download URL, which fal needs`);
    return { path: l.url, scale: l.strength };
  });
}

/** True when fal has an endpoint for this task (model family and kind). */
export function falSupports(task: EngineTask): boolean {
  switch (task.kind) {
    case 'txt2img':
      return FAL_MODEL_TYPES.has(task.model.modelType) && plainDiffusion(task);
    case 'img2img':
    case 'inpaint':
    case 'outpaint':
    case 'face_enhance':
      return (
        (FLUX_DEV.has(task.model.modelType) || (task.kind !== 'img2img' && task.model.modelType === 'fluxpro')) &&
        plainDiffusion(task)
      );
    case 'edit':
    case 'upscale':
    case 'video':
      return true;
    case 'regional':
    case 'smd':
      return false;
  }
}

/** ControlNet and IP-Adapter are not mapped onto fal's FLUX endpoints; those jobs belong on ComfyUI. */
function plainDiffusion(p: DiffusionParams): boolean {
  return !p.ipAdapter && (p.controlnets ?? []).length === 0;
}

const common = (p: DiffusionParams) => ({
  prompt: p.prompt,
  num_images: p.numImages,
  seed: p.seed,
  output_format: 'png' as const,
});

const fluxDevInput = (p: DiffusionParams) => ({
  ...common(p),
  num_inference_steps: p.steps,
  guidance_scale: p.cfg,
  enable_safety_checker: true,
});

/** Inpaint-style request on an image and a white-means-change mask (inpaint, outpaint, face enhance). */
async function fill(
  p: DiffusionParams,
  image: Buffer,
  mask: Buffer,
  strength: number,
  upload: Uploader,
): Promise<FalRequest> {
  const paste = { original: image, mask };
  const urls = {
    image_url: await uploadPng(upload, image, 'input image'),
    mask_url: await uploadPng(upload, mask, 'mask'),
  };
  if (p.model.modelType === 'fluxpro') {
    return {
      ...typed('fal-ai/flux-pro/v1/fill', { ...common(p), ...urls, safety_tolerance: '2' }),
      model: p.model.id,
      output: 'images',
      paste,
    };
  }
  // flux-lora/inpainting is served by fal but missing from the client's generated map (1.10.1), so untyped.
  return {
    endpoint: 'fal-ai/flux-lora/inpainting',
    input: { ...fluxDevInput(p), ...urls, strength, ...(p.loras.length ? { loras: falLoras(p.loras) } : {}) },
    model: p.model.id,
    output: 'images',
    paste,
  };
}

export async function falRequestFor(task: EngineTask, upload: Uploader): Promise<FalRequest> {
  if (!falSupports(task))
    throw new EngineError('validation', `fal has no endpoint configured for this ${task.kind} task`);
  switch (task.kind) {
    case 'txt2img': {
      const image_size = { width: task.width, height: task.height };
      if (task.model.modelType === 'fluxpro') {
        if (task.loras.length) throw new EngineError('validation', 'FLUX Pro on fal does not take LoRAs');
        return {
          ...typed('fal-ai/flux-pro/v1.1', { ...common(task), image_size, safety_tolerance: '2' }),
          model: task.model.id,
          output: 'images',
        };
      }
      if (task.model.modelType === 'fluxschnell') {
        if (task.loras.length) throw new EngineError('validation', 'FLUX schnell on fal does not take LoRAs');
        return {
          ...typed('fal-ai/flux/schnell', {
            ...common(task),
            image_size,
            num_inference_steps: task.steps,
            enable_safety_checker: true,
          }),
          model: task.model.id,
          output: 'images',
        };
      }
      return {
        ...(task.loras.length
          ? typed('fal-ai/flux-lora', { ...fluxDevInput(task), image_size, loras: falLoras(task.loras) })
          : typed('fal-ai/flux/dev', { ...fluxDevInput(task), image_size })),
        model: task.model.id,
        output: 'images',
      };
    }
    case 'img2img': {
      // The image-to-image schemas have no image_size: the output follows the input, so send it at the size wanted.
      const image_url = await uploadPng(upload, await fitTo(task.image, task.width, task.height), 'input image');
      const input = { ...fluxDevInput(task), image_url, strength: task.strength };
      return {
        ...(task.loras.length
          ? typed('fal-ai/flux-lora/image-to-image', { ...input, loras: falLoras(task.loras) })
          : typed('fal-ai/flux/dev/image-to-image', input)),
        model: task.model.id,
        output: 'images',
      };
    }
    case 'inpaint':
    case 'face_enhance': {
      const { width, height } = await imageSize(task.image, 'input image');
      const mask = await featheredMask(task.mask, width, height, task.maskBlur);
      return fill(task, task.image, mask, task.strength, upload);
    }
    case 'outpaint': {
      const canvas = await outpaintCanvas(task.image, task.padding, task.blur);
      return fill(task, canvas.image, canvas.mask, 1, upload);
    }
    case 'edit': {
      const image = await uploadPng(upload, task.image, 'input image');
      const shared = { prompt: task.prompt, num_images: 1, output_format: 'png' as const };
      const request =
        task.model === 'nano-banana'
          ? typed('fal-ai/nano-banana/edit', { ...shared, image_urls: [image] })
          : task.model === 'kontext-dev'
            ? typed('fal-ai/flux-kontext/dev', { ...shared, image_url: image, seed: task.seed })
            : task.model === 'kontext-pro'
              ? typed('fal-ai/flux-pro/kontext', { ...shared, image_url: image, seed: task.seed })
              : typed('fal-ai/flux-pro/kontext/max', { ...shared, image_url: image, seed: task.seed });
      let paste: FalRequest['paste'];
      if (task.mask) {
        const { width, height } = await imageSize(task.image, 'input image');
        paste = { original: task.image, mask: await featheredMask(task.mask, width, height, 10) };
      }
      return { ...request, model: task.model, output: 'images', ...(paste ? { paste } : {}) };
    }
    case 'upscale':
      return {
        ...typed('fal-ai/esrgan', {
          image_url: await uploadPng(upload, task.image, 'input image'),
          scale: task.scale,
          model: 'RealESRGAN_x4plus_anime_6B',
          output_format: 'png',
        }),
        model: 'RealESRGAN_x4plus_anime_6B',
        output: 'image',
      };
    case 'video':
      return videoRequest(task, upload);
    case 'regional':
    case 'smd':
      throw new EngineError('validation', 'fal has no regional or brush-based generation');
  }
}

async function videoRequest(task: Extract<EngineTask, { kind: 'video' }>, upload: Uploader): Promise<FalRequest> {
  const image_url = await uploadPng(upload, task.image, 'start image');
  const end = task.endImage ? await uploadPng(upload, task.endImage, 'end image') : undefined;
  const base = { prompt: task.prompt, image_url };
  const noEnd = (): void => {
    if (end) throw new EngineError('validation', `${task.model} cannot take an end frame`);
  };
  switch (task.model) {
    case 'wan22_i2v':
      return {
        ...typed(FAL_VIDEO_ENDPOINTS.wan22_i2v, {
          ...base,
          resolution: '480p',
          seed: task.seed,
          ...(end ? { end_image_url: end } : {}),
        }),
        model: task.model,
        output: 'video',
        note: 'Fixed length: 81 frames at 16 fps.',
      };
    case 'wan_i2v':
      noEnd();
      return {
        ...typed(FAL_VIDEO_ENDPOINTS.wan_i2v, {
          ...base,
          num_frames: 81,
          frames_per_second: 16,
          seed: task.seed,
          ...(task.negativePrompt ? { negative_prompt: task.negativePrompt } : {}),
        }),
        model: task.model,
        output: 'video',
        note: 'Fixed length: 81 frames at 16 fps.',
      };
    case 'kling1.6_i2v':
    case 'kling2.0_i2v': {
      if (task.durationSeconds !== 5 && task.durationSeconds !== 10) {
        throw new EngineError('validation', 'Kling videos last 5 or 10 seconds');
      }
      const duration = task.durationSeconds === 5 ? ('5' as const) : ('10' as const);
      const negative = task.negativePrompt ? { negative_prompt: task.negativePrompt } : {};
      if (task.model === 'kling2.0_i2v') {
        noEnd();
        return {
          ...typed(FAL_VIDEO_ENDPOINTS['kling2.0_i2v'], { ...base, duration, ...negative }),
          model: task.model,
          output: 'video',
        };
      }
      return {
        ...typed(FAL_VIDEO_ENDPOINTS['kling1.6_i2v'], {
          ...base,
          duration,
          ...negative,
          ...(end ? { tail_image_url: end } : {}),
        }),
        model: task.model,
        output: 'video',
      };
    }
    case 'vidu_q1':
      if (task.prompt.length > 1500) throw new EngineError('validation', 'Vidu prompts are limited to 1500 characters');
      return end
        ? {
            ...typed('fal-ai/vidu/q1/start-end-to-video', {
              prompt: task.prompt,
              start_image_url: image_url,
              end_image_url: end,
              seed: task.seed,
            }),
            model: task.model,
            output: 'video',
          }
        : {
            ...typed(FAL_VIDEO_ENDPOINTS.vidu_q1, { ...base, seed: task.seed }),
            model: task.model,
            output: 'video',
          };
  }
}
