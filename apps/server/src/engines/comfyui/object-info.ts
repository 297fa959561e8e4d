/**
 * What GET /object_info says about node classes, and the ones Koma's graphs need. Apart from capabilities.ts so that
 * resolve.ts can read combo options without importing the capability check that uses it.
 */
import { z } from 'zod';

/** Core nodes, with the release that brought the newest of them (ComfyUI history). */
export const CORE_NODES = [
  'CheckpointLoaderSimple',
  'LoraLoader',
  'LoraLoaderModelOnly',
  'CLIPTextEncode',
  'EmptyLatentImage',
  'EmptySD3LatentImage',
  'KSampler',
  'VAEDecode',
  'VAEEncode',
  'SaveImage',
  'PreviewImage',
  'LoadImage',
  'LoadImageMask',
  'SetLatentNoiseMask',
  'ImageCompositeMasked',
  'RepeatLatentBatch',
  'RepeatImageBatch',
  'ImageScale',
  'ImageScaleBy',
  'UpscaleModelLoader',
  'ImageUpscaleWithModel',
  'ControlNetLoader',
  'ControlNetApplyAdvanced',
  'UNETLoader',
  'DualCLIPLoader',
  'VAELoader',
  'FluxGuidance',
  'ConditioningSetArea',
  'ConditioningSetMask',
  'ConditioningCombine',
  // comfy_extras/nodes_flux.py and nodes_edit_model.py, both first released in 0.3.42 (Kontext edits).
  'FluxKontextImageScale',
  'ReferenceLatent',
] as const;

/** From cubiq/ComfyUI_IPAdapter_plus (IPAdapterPlus.py); only IP-Adapter jobs need them. */
export const IPADAPTER_NODES = ['IPAdapterUnifiedLoader', 'IPAdapterAdvanced'] as const;

export const REQUIRED_NODES: readonly string[] = [...CORE_NODES, ...IPADAPTER_NODES];

/** Where a node class comes from, for messages that tell the admin what to install. */
export function nodeSource(node: string): string {
  if ((IPADAPTER_NODES as readonly string[]).includes(node)) {
    return 'custom node pack ComfyUI_IPAdapter_plus by cubiq, needed for IP-Adapter';
  }
  if (node === 'FluxKontextImageScale' || node === 'ReferenceLatent') {
    return 'core node of ComfyUI 0.3.42 or newer, needed for Kontext edits';
  }
  return 'core node of ComfyUI; update ComfyUI';
}

const zNodeInfo = z.looseObject({
  input: z
    .looseObject({
      required: z.record(z.string(), z.unknown()).optional(),
      optional: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  output: z.array(z.unknown()).optional(),
});
export const zObjectInfo = z.record(z.string(), zNodeInfo);
export type ObjectInfo = z.infer<typeof zObjectInfo>;

/** Options of a COMBO input, in either form: `[[...options], {…}]` or the V3 `["COMBO", {options: [...]}]`. */
export function comboOptions(info: ObjectInfo, node: string, input: string): string[] {
  const spec = info[node]?.input?.required?.[input] ?? info[node]?.input?.optional?.[input];
  if (!Array.isArray(spec)) return [];
  const [first, second] = spec as unknown[];
  if (Array.isArray(first)) return first.filter((o): o is string => typeof o === 'string');
  if (first === 'COMBO' && second && typeof second === 'object' && 'options' in second) {
    const options = second.options;
    return Array.isArray(options) ? options.filter((o): o is string => typeof o === 'string') : [];
  }
  return [];
}
