/**
 * What a ComfyUI server has installed, read from GET /object_info (server.py `node_info`): the node classes
 * Koma's graphs use and the model files they name. Run when the server starts and on demand (admin status).
 */
import { resolveFile } from './resolve.ts';
import { REQUIRED_NODES, nodeSource, comboOptions, type ObjectInfo } from './object-info.ts';

export { CORE_NODES, IPADAPTER_NODES, REQUIRED_NODES, nodeSource, zObjectInfo, comboOptions } from './object-info.ts';
export type { ObjectInfo } from './object-info.ts';

/** A file Koma needs on the server: its folder, the node combo that lists it, and what it is for. */
export interface WantedFile {
  folder: string;
  node: string;
  input: string;
  file: string;
  /** What needs it, for the status view: `model animaginexl4.0`, `LoRA Pixel Art XL`, `upscaler`. */
  usedBy: string;
}

export interface CapabilityReport {
  missingNodes: { node: string; source: string }[];
  missingFiles: { folder: string; file: string; usedBy: string }[];
  /** Each wanted file's name on this server (only those found). */
  resolved: { usedBy: string; file: string; serverFile: string }[];
}

/** IP-Adapter presets and the files ComfyUI_IPAdapter_plus utils.py looks for with an SDXL model. */
const IPADAPTER_FILES: Record<string, { ipadapter: RegExp; clipVision: RegExp; hint: string }> = {
  'PLUS (high strength)': {
    ipadapter: /plus.sdxl.vit.h\.(safetensors|bin)$/i,
    clipVision: /(ViT.H.14.*s32B.b79K|ipadapter.*sd15|sd1.?5.*model)\.(bin|safetensors)/i,
    hint: 'ip-adapter-plus_sdxl_vit-h.safetensors and CLIP-ViT-H-14-laion2B-s32B-b79K.safetensors',
  },
  'STANDARD (medium strength)': {
    ipadapter: /ip.adapter.sdxl.vit.h\.(safetensors|bin)$/i,
    clipVision: /(ViT.H.14.*s32B.b79K|ipadapter.*sd15|sd1.?5.*model)\.(bin|safetensors)/i,
    hint: 'ip-adapter_sdxl_vit-h.safetensors and CLIP-ViT-H-14-laion2B-s32B-b79K.safetensors',
  },
  'VIT-G (medium strength)': {
    ipadapter: /ip.adapter.sdxl\.(safetensors|bin)$/i,
    clipVision: /(ViT.bigG.14.*39B.b160k|ipadapter.*sdxl|sdxl.*model)\.(bin|safetensors)/i,
    hint: 'ip-adapter_sdxl.safetensors and CLIP-ViT-bigG-14-laion2B-39B-b160k.safetensors',
  },
  'PLUS FACE (portraits)': {
    ipadapter: /plus.face.sdxl.vit.h\.(safetensors|bin)$/i,
    clipVision: /(ViT.H.14.*s32B.b79K|ipadapter.*sd15|sd1.?5.*model)\.(bin|safetensors)/i,
    hint: 'ip-adapter-plus-face_sdxl_vit-h.safetensors and CLIP-ViT-H-14-laion2B-s32B-b79K.safetensors',
  },
};

/** Missing node classes and files, and the server's spelling of every file it has. */
export function checkCapabilities(
  info: ObjectInfo,
  wanted: readonly WantedFile[],
  ipAdapterPreset?: string,
): CapabilityReport {
  const missingNodes = REQUIRED_NODES.filter((n) => !(n in info)).map((node) => ({ node, source: nodeSource(node) }));
  const missingFiles: CapabilityReport['missingFiles'] = [];
  const resolved: CapabilityReport['resolved'] = [];
  for (const w of wanted) {
    const serverFile = resolveFile(comboOptions(info, w.node, w.input), w.file);
    if (serverFile === undefined) missingFiles.push({ folder: w.folder, file: w.file, usedBy: w.usedBy });
    else resolved.push({ usedBy: w.usedBy, file: w.file, serverFile });
  }
  const preset = ipAdapterPreset ? IPADAPTER_FILES[ipAdapterPreset] : undefined;
  // Only meaningful when the pack is installed (its loader node lists the ipadapter folder).
  if (preset && 'IPAdapterUnifiedLoader' in info && 'IPAdapterModelLoader' in info) {
    if (!comboOptions(info, 'IPAdapterModelLoader', 'ipadapter_file').some((f) => preset.ipadapter.test(f))) {
      missingFiles.push({ folder: 'ipadapter', file: preset.hint.split(' and ')[0]!, usedBy: 'IP-Adapter' });
    }
    if (!comboOptions(info, 'CLIPVisionLoader', 'clip_name').some((f) => preset.clipVision.test(f))) {
      missingFiles.push({ folder: 'clip_vision', file: preset.hint.split(' and ')[1]!, usedBy: 'IP-Adapter' });
    }
  }
  return { missingNodes, missingFiles, resolved };
}
