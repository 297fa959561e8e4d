/**
 * Pure builders of ComfyUI API-format graphs (engines.md §1.4–1.6). Input images are referred to by the names
 * ComfyUI gave them on upload, so these functions do no I/O and can be tested by inspecting the JSON.
 */
import type { Box, BrushTask, DiffusionParams, EditTask, Img2ImgTask, RegionalTask, Txt2ImgTask } from '../types.ts';
import { assertBrushes, assertRegions } from '../builtin/validate.ts';
import { EngineError } from '../errors.ts';
import type { ComfyModelFiles } from './files.ts';
import { COMFY_FLUX_TYPES, COMFY_SDXL_TYPES, loraFile, modelFile } from './files.ts';
import { GraphBuilder, out } from './graph.ts';
import type { ComfyGraph, ComfyLink } from './graph.ts';

export interface UploadedInputs {
  image?: string;
  mask?: string;
  /** One name per task.controlnets entry, same order. */
  controlnets?: string[];
  ipAdapter?: string;
  /** One mask name per BrushTask brush, same order. */
  brushes?: string[];
}

export interface WorkflowOptions {
  files: ComfyModelFiles;
  /** SaveImage filename_prefix; may contain a subfolder (`koma/<job>`). */
  filenamePrefix: string;
  /**
   * `save` writes the result to ComfyUI's output folder (SaveImage); `preview` to its temp folder
   * (PreviewImage), which ComfyUI empties whenever it starts or stops (main.py `cleanup_temp`).
   */
  output?: 'save' | 'preview';
}

/** Steps for a local Kontext edit, which carries no step count (recipe value). */
export const KONTEXT_STEPS = 28;
export const KONTEXT_GUIDANCE = 2.5;

interface Core {
  model: ComfyLink;
  positive: ComfyLink;
  negative: ComfyLink;
  vae: ComfyLink;
  cfg: number;
  sampler: { sampler: string; scheduler: string };
  flux: boolean;
}

function requireUpload(name: string | undefined, what: string): string {
  if (!name) throw new EngineError('validation', `The ${what} was not uploaded to ComfyUI`);
  return name;
}

/** Extra conditioning combined into the base prompt's (regional boxes, brush masks). */
type ExtraConditioning = (clip: ComfyLink, flux: boolean) => { positive: ComfyLink[]; negative: ComfyLink[] };

/** Loader, LoRA chain, IP-Adapter, prompts and ControlNets: everything upstream of the sampler. */
function diffusionCore(
  b: GraphBuilder,
  p: DiffusionParams,
  uploads: UploadedInputs,
  files: ComfyModelFiles,
  extra?: ExtraConditioning,
): Core {
  const flux = COMFY_FLUX_TYPES.has(p.model.modelType);
  if (!flux && !COMFY_SDXL_TYPES.has(p.model.modelType)) {
    throw new EngineError('validation', `ComfyUI cannot run model type ${p.model.modelType} (${p.model.id})`);
  }
  const file = modelFile(p.model, files);
  if (file.trim() === '') throw new EngineError('validation', `Model ${p.model.id} has no file path`);
  let model: ComfyLink;
  let clip: ComfyLink;
  let vae: ComfyLink;
  if (flux) {
    model = out(b.add('UNETLoader', { unet_name: file, weight_dtype: 'default' }));
    clip = out(b.add('DualCLIPLoader', { clip_name1: files.flux.clipL, clip_name2: files.flux.t5, type: 'flux' }));
    vae = out(b.add('VAELoader', { vae_name: files.flux.vae }));
  } else {
    const ckpt = b.add('CheckpointLoaderSimple', { ckpt_name: file });
    [model, clip, vae] = [out(ckpt, 0), out(ckpt, 1), out(ckpt, 2)];
  }

  for (const lora of p.loras) {
    const loraName = loraFile(lora, files);
    if (!loraName) {
      throw new EngineError(
        'model_missing',
        `LoRA "${lora.name}" has no file name for ComfyUI; map it to a file in models/loras in the engine config (comfyui.files.loras)`,
      );
    }
    if (flux) {
      model = out(b.add('LoraLoaderModelOnly', { model, lora_name: loraName, strength_model: lora.strength }));
    } else {
      const l = b.add('LoraLoader', {
        model,
        clip,
        lora_name: loraName,
        strength_model: lora.strength,
        strength_clip: lora.strength,
      });
      [model, clip] = [out(l, 0), out(l, 1)];
    }
  }

  if (p.ipAdapter) {
    if (flux) throw new EngineError('validation', 'IP-Adapter on ComfyUI needs an SDXL model');
    const ref = b.add('LoadImage', { image: requireUpload(uploads.ipAdapter, 'IP-Adapter image') });
    const loader = b.add('IPAdapterUnifiedLoader', { model, preset: files.ipAdapterPreset });
    model = out(
      b.add('IPAdapterAdvanced', {
        model: out(loader, 0),
        ipadapter: out(loader, 1),
        image: out(ref),
        weight: p.ipAdapter.strength,
        weight_type: 'linear',
        combine_embeds: 'concat',
        start_at: 0,
        end_at: 1,
        embeds_scaling: 'V only',
      }),
    );
  }

  let positive = out(b.add('CLIPTextEncode', { clip, text: p.prompt }));
  let negative = out(b.add('CLIPTextEncode', { clip, text: flux ? '' : p.negativePrompt }));
  if (extra) {
    const more = extra(clip, flux);
    for (const c of more.positive)
      positive = out(b.add('ConditioningCombine', { conditioning_1: positive, conditioning_2: c }));
    for (const c of more.negative)
      negative = out(b.add('ConditioningCombine', { conditioning_1: negative, conditioning_2: c }));
  }
  // FLUX dev is guidance-distilled: the user's cfg becomes FluxGuidance and the sampler runs at cfg 1.
  if (flux) positive = out(b.add('FluxGuidance', { conditioning: positive, guidance: p.cfg }));

  const controlnets = p.controlnets ?? [];
  if (flux && controlnets.length > 0) throw new EngineError('validation', 'ControlNet on ComfyUI needs an SDXL model');
  controlnets.forEach((cn, i) => {
    const image = b.add('LoadImage', { image: requireUpload(uploads.controlnets?.[i], `${cn.model} image`) });
    const loader = b.add('ControlNetLoader', { control_net_name: files.controlnets[cn.model] });
    const apply = b.add('ControlNetApplyAdvanced', {
      positive,
      negative,
      control_net: out(loader),
      image: out(image),
      strength: cn.strength,
      start_percent: 0,
      end_percent: 1,
      vae,
    });
    [positive, negative] = [out(apply, 0), out(apply, 1)];
  });

  return {
    model,
    positive,
    negative,
    vae,
    cfg: flux ? 1 : p.cfg,
    sampler: flux ? files.fluxSampler : files.sdxlSampler,
    flux,
  };
}

function sample(b: GraphBuilder, core: Core, p: DiffusionParams, latent: ComfyLink, denoise: number): ComfyLink {
  const k = b.add('KSampler', {
    model: core.model,
    positive: core.positive,
    negative: core.negative,
    latent_image: latent,
    seed: p.seed,
    steps: p.steps,
    cfg: core.cfg,
    sampler_name: core.sampler.sampler,
    scheduler: core.sampler.scheduler,
    denoise,
  });
  return out(b.add('VAEDecode', { samples: out(k), vae: core.vae }));
}

function repeatLatent(b: GraphBuilder, latent: ComfyLink, amount: number): ComfyLink {
  return amount > 1 ? out(b.add('RepeatLatentBatch', { samples: latent, amount })) : latent;
}

function save(b: GraphBuilder, images: ComfyLink, opts: WorkflowOptions): void {
  if (opts.output === 'preview') b.add('PreviewImage', { images });
  else b.add('SaveImage', { images, filename_prefix: opts.filenamePrefix });
}

export function txt2imgWorkflow(task: Txt2ImgTask, uploads: UploadedInputs, opts: WorkflowOptions): ComfyGraph {
  const b = new GraphBuilder();
  return fromEmptyLatent(b, diffusionCore(b, task, uploads, opts.files), task, opts);
}

function fromEmptyLatent(
  b: GraphBuilder,
  core: Core,
  task: DiffusionParams & { width: number; height: number },
  opts: WorkflowOptions,
): ComfyGraph {
  const latent = b.add(core.flux ? 'EmptySD3LatentImage' : 'EmptyLatentImage', {
    width: task.width,
    height: task.height,
    batch_size: task.numImages,
  });
  save(b, sample(b, core, task, out(latent), 1), opts);
  return b.build();
}

export function img2imgWorkflow(task: Img2ImgTask, uploads: UploadedInputs, opts: WorkflowOptions): ComfyGraph {
  const b = new GraphBuilder();
  const core = diffusionCore(b, task, uploads, opts.files);
  const load = b.add('LoadImage', { image: requireUpload(uploads.image, 'input image') });
  const scaled = b.add('ImageScale', {
    image: out(load),
    upscale_method: 'lanczos',
    width: task.width,
    height: task.height,
    crop: 'disabled',
  });
  const latent = out(b.add('VAEEncode', { pixels: out(scaled), vae: core.vae }));
  save(b, sample(b, core, task, repeatLatent(b, latent, task.numImages), task.strength), opts);
  return b.build();
}

/** ConditioningSetArea works on an 8-pixel grid and at least 64 pixels per side (nodes.py). */
function areaOf(r: Box, width: number, height: number): { x: number; y: number; width: number; height: number } {
  const x = Math.floor(r.x0 / 8) * 8;
  const y = Math.floor(r.y0 / 8) * 8;
  const w = Math.max(64, Math.ceil((r.x1 - x) / 8) * 8);
  const h = Math.max(64, Math.ceil((r.y1 - y) / 8) * 8);
  return { x: Math.max(0, Math.min(x, width - w)), y: Math.max(0, Math.min(y, height - h)), width: w, height: h };
}

/** Regional prompting (engines.md §1.5): one area-restricted prompt per box, combined with the base prompt. */
export function regionalWorkflow(task: RegionalTask, uploads: UploadedInputs, opts: WorkflowOptions): ComfyGraph {
  assertRegions(task.regions, task.width, task.height);
  const b = new GraphBuilder();
  const area = (clip: ComfyLink, text: string, r: Box) =>
    out(
      b.add('ConditioningSetArea', {
        conditioning: out(b.add('CLIPTextEncode', { clip, text })),
        ...areaOf(r, task.width, task.height),
        strength: 1,
      }),
    );
  const core = diffusionCore(b, task, uploads, opts.files, (clip, flux) => ({
    positive: task.regions.map((r) => area(clip, r.prompt, r)),
    negative: flux ? [] : task.regions.map((r) => area(clip, r.negativePrompt, r)),
  }));
  return fromEmptyLatent(b, core, task, opts);
}

/** Brush-based generation: each brush's prompt is restricted to its uploaded mask with ConditioningSetMask. */
export function brushWorkflow(task: BrushTask, uploads: UploadedInputs, opts: WorkflowOptions): ComfyGraph {
  assertBrushes(task.brushes);
  const b = new GraphBuilder();
  const masked = (clip: ComfyLink, text: string, i: number) => {
    const mask = b.add('LoadImageMask', {
      image: requireUpload(uploads.brushes?.[i], `mask of brush ${i + 1}`),
      channel: 'red',
    });
    return out(
      b.add('ConditioningSetMask', {
        conditioning: out(b.add('CLIPTextEncode', { clip, text })),
        mask: out(mask),
        strength: 1,
        set_cond_area: 'default',
      }),
    );
  };
  const core = diffusionCore(b, task, uploads, opts.files, (clip, flux) => ({
    positive: task.brushes.map((brush, i) => masked(clip, brush.prompt, i)),
    negative: flux ? [] : task.brushes.map((brush, i) => masked(clip, brush.negativePrompt, i)),
  }));
  return fromEmptyLatent(b, core, task, opts);
}

/**
 * Inpaint with any checkpoint: the sampler only denoises under the mask, and ImageCompositeMasked pastes the
 * result over the original so unmasked pixels stay exact. Outpaint and face enhance reuse this graph on an image
 * the engine has already padded or cropped. The mask is a greyscale PNG, white = change.
 */
export function inpaintWorkflow(
  p: DiffusionParams & { strength: number },
  uploads: UploadedInputs,
  opts: WorkflowOptions,
): ComfyGraph {
  const b = new GraphBuilder();
  const core = diffusionCore(b, p, uploads, opts.files);
  const load = b.add('LoadImage', { image: requireUpload(uploads.image, 'input image') });
  const mask = out(b.add('LoadImageMask', { image: requireUpload(uploads.mask, 'mask'), channel: 'red' }));
  const encoded = b.add('VAEEncode', { pixels: out(load), vae: core.vae });
  const noiseMasked = out(b.add('SetLatentNoiseMask', { samples: out(encoded), mask }));
  const decoded = sample(b, core, p, repeatLatent(b, noiseMasked, p.numImages), p.strength);
  const destination =
    p.numImages > 1 ? out(b.add('RepeatImageBatch', { image: out(load), amount: p.numImages })) : out(load);
  const composite = b.add('ImageCompositeMasked', {
    destination,
    source: decoded,
    x: 0,
    y: 0,
    resize_source: false,
    mask,
  });
  save(b, out(composite), opts);
  return b.build();
}

export function upscaleWorkflow(scale: number, uploads: UploadedInputs, opts: WorkflowOptions): ComfyGraph {
  const b = new GraphBuilder();
  const load = b.add('LoadImage', { image: requireUpload(uploads.image, 'input image') });
  const model = b.add('UpscaleModelLoader', { model_name: opts.files.upscaleModel });
  let image = out(b.add('ImageUpscaleWithModel', { upscale_model: out(model), image: out(load) }));
  if (scale !== opts.files.upscaleModelScale) {
    image = out(
      b.add('ImageScaleBy', {
        image,
        upscale_method: 'lanczos',
        scale_by: scale / opts.files.upscaleModelScale,
      }),
    );
  }
  save(b, image, opts);
  return b.build();
}

/** Local FLUX Kontext dev: the input is encoded and attached as a reference latent (engines.md §1.5). */
export function kontextEditWorkflow(task: EditTask, uploads: UploadedInputs, opts: WorkflowOptions): ComfyGraph {
  const unet = opts.files.kontextUnet;
  if (task.model !== 'kontext-dev' || !unet) {
    throw new EngineError('validation', `ComfyUI is not set up for ${task.model} edits`);
  }
  const b = new GraphBuilder();
  const model = b.add('UNETLoader', { unet_name: unet, weight_dtype: 'default' });
  const clip = b.add('DualCLIPLoader', {
    clip_name1: opts.files.flux.clipL,
    clip_name2: opts.files.flux.t5,
    type: 'flux',
  });
  const vae = b.add('VAELoader', { vae_name: opts.files.flux.vae });
  const load = b.add('LoadImage', { image: requireUpload(uploads.image, 'input image') });
  const scaled = b.add('FluxKontextImageScale', { image: out(load) });
  const latent = b.add('VAEEncode', { pixels: out(scaled), vae: out(vae) });
  const prompt = b.add('CLIPTextEncode', { clip: out(clip), text: task.prompt });
  const reference = b.add('ReferenceLatent', { conditioning: out(prompt), latent: out(latent) });
  const guided = b.add('FluxGuidance', { conditioning: out(reference), guidance: KONTEXT_GUIDANCE });
  const negative = b.add('CLIPTextEncode', { clip: out(clip), text: '' });
  const k = b.add('KSampler', {
    model: out(model),
    positive: out(guided),
    negative: out(negative),
    latent_image: out(latent),
    seed: task.seed,
    steps: KONTEXT_STEPS,
    cfg: 1,
    sampler_name: opts.files.fluxSampler.sampler,
    scheduler: opts.files.fluxSampler.scheduler,
    denoise: 1,
  });
  save(b, out(b.add('VAEDecode', { samples: out(k), vae: out(vae) })), opts);
  return b.build();
}
