import type { ControlNetModel, LoraRef, ModelRef } from '../types.ts';

/** File names installed on every ComfyUI worker; the defaults follow the usual community file names. */
export interface ComfyModelFiles {
  /** FLUX checkpoints are diffusion-model-only files (ModelRef.path); text encoders and VAE are separate. */
  flux: { clipL: string; t5: string; vae: string };
  controlnets: Record<ControlNetModel, string>;
  upscaleModel: string;
  /** Native factor of `upscaleModel`; the graph scales the result down to the requested factor. */
  upscaleModelScale: number;
  ipAdapterPreset: string;
  /** Local FLUX Kontext dev for instruction edits; without it ComfyUI does not take edit tasks. */
  kontextUnet?: string;
  sdxlSampler: { sampler: string; scheduler: string };
  fluxSampler: { sampler: string; scheduler: string };
  /** Catalogue model id → file on the server; without an entry the catalogue `path` is used. */
  models: Record<string, string>;
  /** LoRA url or display name → file in `models/loras`; without one, the file name at the end of the url. */
  loras: Record<string, string>;
}

export const DEFAULT_COMFY_FILES: ComfyModelFiles = {
  flux: { clipL: 'clip_l.safetensors', t5: 't5xxl_fp16.safetensors', vae: 'ae.safetensors' },
  controlnets: {
    'controlnet-openpose': 'OpenPoseXL2.safetensors',
    'controlnet-anytest': 'CN-anytest_v4-marged.safetensors',
  },
  upscaleModel: '4x-UltraSharp.pth',
  upscaleModelScale: 4,
  ipAdapterPreset: 'PLUS (high strength)',
  sdxlSampler: { sampler: 'dpmpp_2m', scheduler: 'karras' },
  fluxSampler: { sampler: 'euler', scheduler: 'simple' },
  models: {},
  loras: {},
};

/** The checkpoint (SDXL) or diffusion model (FLUX) file a catalogue model means on the server, before resolving. */
export function modelFile(model: ModelRef, files: ComfyModelFiles): string {
  return files.models[model.id] ?? model.path;
}

/**
 * The LoRA file: the config's mapping by url or by name, else the file name the download url ends with
 * (`…/resolve/main/pixel-art-xl.safetensors` → `pixel-art-xl.safetensors`), else the name when it is a file.
 * A display name such as "SDXL Lightning 4-step" is never sent: ComfyUI would reject it.
 */
export function loraFile(lora: LoraRef, files: ComfyModelFiles): string | undefined {
  const mapped = (lora.url ? files.loras[lora.url] : undefined) ?? files.loras[lora.name];
  if (mapped) return mapped;
  if (lora.url) {
    try {
      const last = new URL(lora.url).pathname.split('/').pop();
      if (last && MODEL_EXTENSIONS.test(last)) return decodeURIComponent(last);
    } catch {
      // Not a URL: fall through to the name.
    }
  }
  return MODEL_EXTENSIONS.test(lora.name) ? lora.name : undefined;
}

/** folder_paths.supported_pt_extensions. */
const MODEL_EXTENSIONS = /\.(ckpt|pt|pt2|bin|pth|safetensors|pkl|sft)$/i;

export const COMFY_SDXL_TYPES = new Set(['sdxl']);
export const COMFY_FLUX_TYPES = new Set(['fluxdev', 'fluxdevmanga', 'fluxschnell']);
