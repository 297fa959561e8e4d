/**
 * What a ComfyUI server has installed, read from GET /object_info (engines.md §1.1): the node classes our graphs
 * use and the model files the config names. Meant for start-up checks and an admin health page.
 */
import { z } from 'zod';
import type { ComfyModelFiles } from './files.ts';

/** Core nodes every graph may use; the IP-Adapter pair comes from ComfyUI_IPAdapter_plus. */
export const REQUIRED_NODES = [
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
  'IPAdapterUnifiedLoader',
  'IPAdapterAdvanced',
] as const;

const zNodeInfo = z.looseObject({
  input: z
    .looseObject({
      required: z.record(z.string(), z.unknown()).optional(),
      optional: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
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

/** Missing node classes and missing files (configured files plus the given checkpoint paths). */
export function checkCapabilities(
  info: ObjectInfo,
  files: ComfyModelFiles,
  checkpointPaths: string[] = [],
): { missingNodes: string[]; missingFiles: string[] } {
  const missingNodes = REQUIRED_NODES.filter((n) => !(n in info));
  const wanted: [string, string, string][] = [
    ...Object.values(files.controlnets).map((f): [string, string, string] => [
      f,
      'ControlNetLoader',
      'control_net_name',
    ]),
    [files.upscaleModel, 'UpscaleModelLoader', 'model_name'],
    [files.flux.clipL, 'DualCLIPLoader', 'clip_name1'],
    [files.flux.t5, 'DualCLIPLoader', 'clip_name2'],
    [files.flux.vae, 'VAELoader', 'vae_name'],
    ...(files.kontextUnet ? [[files.kontextUnet, 'UNETLoader', 'unet_name'] as [string, string, string]] : []),
  ];
  const missingFiles = wanted
    .filter(([file, node, input]) => !comboOptions(info, node, input).includes(file))
    .map(([f]) => f);
  const models = new Set([
    ...comboOptions(info, 'CheckpointLoaderSimple', 'ckpt_name'),
    ...comboOptions(info, 'UNETLoader', 'unet_name'),
  ]);
  missingFiles.push(...checkpointPaths.filter((p) => !models.has(p)));
  return { missingNodes, missingFiles };
}
