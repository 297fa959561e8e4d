/**
 * Model file names resolved against the server's own lists. ComfyUI fills every model combo from
 * `folder_paths.get_filename_list(folder)`, which walks the folder with `os.path.relpath` (folder_paths.py
 * `recursive_search`): on Windows the names use `\`, files may sit in subfolders, and `validate_inputs` compares
 * the value exactly (`value_not_in_list`). So Koma sends the server's own spelling of the file it means.
 */
import { EngineError } from '../errors.ts';
import { comboOptions, nodeSource, type ObjectInfo } from './object-info.ts';
import type { ComfyGraph } from './graph.ts';

/** Model combos of the nodes Koma emits, with the models folder ComfyUI lists them from. */
export const FILE_INPUTS: readonly { node: string; input: string; folder: string }[] = [
  { node: 'CheckpointLoaderSimple', input: 'ckpt_name', folder: 'checkpoints' },
  { node: 'LoraLoader', input: 'lora_name', folder: 'loras' },
  { node: 'LoraLoaderModelOnly', input: 'lora_name', folder: 'loras' },
  { node: 'UNETLoader', input: 'unet_name', folder: 'diffusion_models' },
  { node: 'DualCLIPLoader', input: 'clip_name1', folder: 'text_encoders' },
  { node: 'DualCLIPLoader', input: 'clip_name2', folder: 'text_encoders' },
  { node: 'VAELoader', input: 'vae_name', folder: 'vae' },
  { node: 'ControlNetLoader', input: 'control_net_name', folder: 'controlnet' },
  { node: 'UpscaleModelLoader', input: 'model_name', folder: 'upscale_models' },
];

const slashes = (s: string): string => s.replace(/\\/g, '/');
const baseName = (s: string): string => (slashes(s).split('/').pop() ?? s).toLowerCase();

/**
 * The server's name for `wanted`: the same path, the same path with the other slash, or the only file of that
 * name in any subfolder (so `sdxl/sd_xl_base_1.0.safetensors` finds `SDXL\sd_xl_base_1.0.safetensors` or a
 * file moved out of its subfolder). Undefined when missing, or when several subfolders hold that name and none
 * matches the path.
 */
export function resolveFile(options: readonly string[], wanted: string): string | undefined {
  if (options.includes(wanted)) return wanted;
  const path = slashes(wanted).toLowerCase();
  const samePath = options.find((o) => slashes(o).toLowerCase() === path);
  if (samePath) return samePath;
  const byName = options.filter((o) => baseName(o) === baseName(wanted));
  return byName.length === 1 ? byName[0] : undefined;
}

export interface MissingFile {
  folder: string;
  file: string;
  node: string;
}

/**
 * Rewrites every model file of the graph to the server's spelling. Throws `node_missing` naming the node
 * classes the server lacks (and where they come from) and `model_missing` naming each missing file and folder.
 */
export function resolveGraph(graph: ComfyGraph, info: ObjectInfo, service: string): ComfyGraph {
  const absent = [...new Set(Object.values(graph).map((n) => n.class_type))].filter((c) => !(c in info));
  if (absent.length > 0) {
    throw new EngineError(
      'node_missing',
      `${service} lacks the node${absent.length > 1 ? 's' : ''} ${absent.map((n) => `${n} (${nodeSource(n)})`).join(', ')}`,
      { nodes: absent },
    );
  }
  const out = structuredClone(graph);
  const missing: MissingFile[] = [];
  for (const node of Object.values(out)) {
    for (const spec of FILE_INPUTS) {
      if (spec.node !== node.class_type) continue;
      const wanted = node.inputs[spec.input];
      if (typeof wanted !== 'string') continue;
      const found = resolveFile(comboOptions(info, spec.node, spec.input), wanted);
      if (found === undefined) missing.push({ folder: spec.folder, file: wanted, node: spec.node });
      else node.inputs[spec.input] = found;
    }
  }
  if (missing.length > 0) throw missingFilesError(service, missing);
  return out;
}

export function missingFilesError(service: string, missing: MissingFile[]): EngineError {
  const unique = [...new Map(missing.map((m) => [`${m.folder}/${m.file}`, m])).values()];
  const list = unique.map((m) => `models/${m.folder}/${m.file}`).join(', ');
  return new EngineError(
    'model_missing',
    `${service} has no file ${list}; put ${unique.length > 1 ? 'them' : 'it'} there or map the model to a file it has in the engine config (comfyui.files)`,
    { files: unique },
  );
}
