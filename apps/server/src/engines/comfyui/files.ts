import type { ControlNetModel } from '../types.ts';

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
};

export const COMFY_SDXL_TYPES = new Set(['sdxl']);
export const COMFY_FLUX_TYPES = new Set(['fluxdev', 'fluxdevmanga', 'fluxschnell']);
