/**
 * Which fal endpoint runs a task, and its input JSON (schemas in engines.md §2.4). Images travel as data URIs,
 * which every `*_url` input accepts, so no separate storage upload is needed.
 */
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

export const FAL_VIDEO_ENDPOINTS: Record<VideoModelId, string> = {
  // The plain v2.2 a14b id is unconfirmed (engines.md §6); the turbo variant is in the SDK's generated types.
  wan22_i2v: 'fal-ai/wan/v2.2-a14b/image-to-video/turbo',
  wan_i2v: 'fal-ai/wan-i2v',
  'kling1.6_i2v': 'fal-ai/kling-video/v1.6/pro/image-to-video',
  'kling2.0_i2v': 'fal-ai/kling-video/v2/master/image-to-video',
  vidu_q1: 'fal-ai/vidu/q1/image-to-video',
};

const FLUX_DEV = new Set(['fluxdev', 'fluxdevmanga']);
const FAL_MODEL_TYPES = new Set(['fluxdev', 'fluxdevmanga', 'fluxschnell', 'fluxpro']);

export async function dataUri(bytes: Buffer, what: string): Promise<string> {
  return `data:image/png;base64,${(await toPng(bytes, what)).toString('base64')}`;
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

function common(p: DiffusionParams): Record<string, unknown> {
  return { prompt: p.prompt, num_images: p.numImages, seed: p.seed, output_format: 'png' };
}

function fluxDevInput(p: DiffusionParams): Record<string, unknown> {
  return {
    ...common(p),
    num_inference_steps: p.steps,
    guidance_scale: p.cfg,
    enable_safety_checker: true,
    ...(p.loras.length ? { loras: falLoras(p.loras) } : {}),
  };
}

/** Inpaint-style request on an image and a white-means-change mask (inpaint, outpaint, face enhance). */
async function fill(p: DiffusionParams, image: Buffer, mask: Buffer, strength: number): Promise<FalRequest> {
  const paste = { original: image, mask };
  const urls = { image_url: await dataUri(image, 'input image'), mask_url: await dataUri(mask, 'mask') };
  if (p.model.modelType === 'fluxpro') {
    return {
      endpoint: 'fal-ai/flux-pro/v1/fill',
      input: { ...common(p), ...urls, safety_tolerance: '2' },
      model: p.model.id,
      output: 'images',
      paste,
    };
  }
  return {
    endpoint: 'fal-ai/flux-lora/inpainting',
    input: { ...fluxDevInput(p), ...urls, strength },
    model: p.model.id,
    output: 'images',
    paste,
  };
}

export async function falRequestFor(task: EngineTask): Promise<FalRequest> {
  if (!falSupports(task))
    throw new EngineError('validation', `fal has no endpoint configured for this ${task.kind} task`);
  switch (task.kind) {
    case 'txt2img': {
      const size = { image_size: { width: task.width, height: task.height } };
      if (task.model.modelType === 'fluxpro') {
        if (task.loras.length) throw new EngineError('validation', 'FLUX Pro on fal does not take LoRAs');
        return {
          endpoint: 'fal-ai/flux-pro/v1.1',
          input: { ...common(task), ...size, safety_tolerance: '2' },
          model: task.model.id,
          output: 'images',
        };
      }
      if (task.model.modelType === 'fluxschnell') {
        if (task.loras.length) throw new EngineError('validation', 'FLUX schnell on fal does not take LoRAs');
        return {
          endpoint: 'fal-ai/flux/schnell',
          input: { ...common(task), ...size, num_inference_steps: task.steps, enable_safety_checker: true },
          model: task.model.id,
          output: 'images',
        };
      }
      return {
        endpoint: task.loras.length ? 'fal-ai/flux-lora' : 'fal-ai/flux/dev',
        input: { ...fluxDevInput(task), ...size },
        model: task.model.id,
        output: 'images',
      };
    }
    case 'img2img':
      return {
        endpoint: task.loras.length ? 'fal-ai/flux-lora/image-to-image' : 'fal-ai/flux/dev/image-to-image',
        input: {
          ...fluxDevInput(task),
          // The image-to-image schemas have no image_size: the output follows the input, so send it at the size wanted.
          image_url: await dataUri(await fitTo(task.image, task.width, task.height), 'input image'),
          strength: task.strength,
        },
        model: task.model.id,
        output: 'images',
      };
    case 'inpaint':
    case 'face_enhance': {
      const { width, height } = await imageSize(task.image, 'input image');
      return fill(task, task.image, await featheredMask(task.mask, width, height, task.maskBlur), task.strength);
    }
    case 'outpaint': {
      const canvas = await outpaintCanvas(task.image, task.padding, task.blur);
      return fill(task, canvas.image, canvas.mask, 1);
    }
    case 'edit': {
      const endpoint = FAL_EDIT_ENDPOINTS[task.model];
      const image = await dataUri(task.image, 'input image');
      const input: Record<string, unknown> =
        task.model === 'nano-banana'
          ? { prompt: task.prompt, image_urls: [image], num_images: 1, output_format: 'png' }
          : { prompt: task.prompt, image_url: image, num_images: 1, seed: task.seed, output_format: 'png' };
      let paste: FalRequest['paste'];
      if (task.mask) {
        const { width, height } = await imageSize(task.image, 'input image');
        paste = { original: task.image, mask: await featheredMask(task.mask, width, height, 10) };
      }
      return { endpoint, input, model: task.model, output: 'images', ...(paste ? { paste } : {}) };
    }
    case 'upscale':
      return {
        endpoint: 'fal-ai/esrgan',
        input: {
          image_url: await dataUri(task.image, 'input image'),
          scale: task.scale,
          model: 'RealESRGAN_x4plus_anime_6B',
          output_format: 'png',
        },
        model: 'RealESRGAN_x4plus_anime_6B',
        output: 'image',
      };
    case 'video':
      return videoRequest(task);
    case 'regional':
    case 'smd':
      throw new EngineError('validation', 'fal has no regional or brush-based generation');
  }
}

async function videoRequest(task: Extract<EngineTask, { kind: 'video' }>): Promise<FalRequest> {
  const image_url = await dataUri(task.image, 'start image');
  const end = task.endImage ? await dataUri(task.endImage, 'end image') : undefined;
  const base = { prompt: task.prompt, image_url };
  const noEnd = (): void => {
    if (end) throw new EngineError('validation', `${task.model} cannot take an end frame`);
  };
  switch (task.model) {
    case 'wan22_i2v':
      noEnd();
      return {
        endpoint: FAL_VIDEO_ENDPOINTS.wan22_i2v,
        input: { ...base, resolution: '480p', seed: task.seed },
        model: task.model,
        output: 'video',
        note: 'Fixed length: 81 frames at 16 fps.',
      };
    case 'wan_i2v':
      noEnd();
      return {
        endpoint: FAL_VIDEO_ENDPOINTS.wan_i2v,
        input: {
          ...base,
          num_frames: 81,
          frames_per_second: 16,
          seed: task.seed,
          ...(task.negativePrompt ? { negative_prompt: task.negativePrompt } : {}),
        },
        model: task.model,
        output: 'video',
        note: 'Fixed length: 81 frames at 16 fps.',
      };
    case 'kling1.6_i2v':
    case 'kling2.0_i2v': {
      if (task.durationSeconds !== 5 && task.durationSeconds !== 10) {
        throw new EngineError('validation', 'Kling videos last 5 or 10 seconds');
      }
      if (task.model === 'kling2.0_i2v') noEnd();
      return {
        endpoint: FAL_VIDEO_ENDPOINTS[task.model],
        input: {
          ...base,
          duration: String(task.durationSeconds),
          ...(task.negativePrompt ? { negative_prompt: task.negativePrompt } : {}),
          ...(end ? { tail_image_url: end } : {}),
        },
        model: task.model,
        output: 'video',
      };
    }
    case 'vidu_q1':
      if (task.prompt.length > 1500) throw new EngineError('validation', 'Vidu prompts are limited to 1500 characters');
      return end
        ? {
            endpoint: 'fal-ai/vidu/q1/start-end-to-video',
            input: { prompt: task.prompt, start_image_url: image_url, end_image_url: end, seed: task.seed },
            model: task.model,
            output: 'video',
          }
        : {
            endpoint: FAL_VIDEO_ENDPOINTS.vidu_q1,
            input: { ...base, seed: task.seed },
            model: task.model,
            output: 'video',
          };
  }
}
