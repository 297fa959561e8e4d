/**
 * A proposed model/LoRA → file mapping for the engine config, from a server's own lists: the exact or
 * slash-insensitive file first, else the best fuzzy match by name. An admin confirms it by copying the printed
 * `files.models` / `files.loras` into the engine config (`npm run admin -- engines-propose`).
 */
import type { LoraRef, ModelRef } from '../types.ts';
import { COMFY_FLUX_TYPES, loraFile, modelFile } from './files.ts';
import type { ComfyModelFiles } from './files.ts';
import { resolveFile } from './resolve.ts';

export interface Proposal {
  /** What needs a file: a catalogue model id or a LoRA name. */
  key: string;
  wanted: string;
  /** The file on the server, or undefined when nothing looks alike. */
  file: string | undefined;
  /** exact: already resolves, nothing to map; fuzzy: a guess to confirm; none: no candidate. */
  match: 'exact' | 'fuzzy' | 'none';
  score: number;
}

/** Words of a file name or label: `animagine-xl-4.0-opt.safetensors` → animagine, xl, 4, 0, opt. */
function words(text: string): string[] {
  return text
    .replace(/\.(safetensors|ckpt|pt|pth|bin|sft|gguf)$/i, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Dice similarity of the word sets, with digits counting (versions matter: 3.0 vs 3.1). */
export function similarity(a: string, b: string): number {
  const x = new Set(words(a));
  const y = new Set(words(b));
  if (x.size === 0 || y.size === 0) return 0;
  let common = 0;
  for (const w of x) if (y.has(w)) common++;
  return (2 * common) / (x.size + y.size);
}

const THRESHOLD = 0.5;

function propose(key: string, wanted: string, labels: string[], options: readonly string[]): Proposal {
  const exact = resolveFile(options, wanted);
  if (exact) return { key, wanted, file: exact, match: 'exact', score: 1 };
  let best: { file: string; score: number } | undefined;
  for (const file of options) {
    const base = file.replace(/\\/g, '/').split('/').pop() ?? file;
    const score = Math.max(...[wanted, ...labels].map((l) => similarity(l, base)));
    if (!best || score > best.score) best = { file, score };
  }
  return best && best.score >= THRESHOLD
    ? { key, wanted, file: best.file, match: 'fuzzy', score: Math.round(best.score * 100) / 100 }
    : { key, wanted, file: undefined, match: 'none', score: 0 };
}

export function proposeMapping(
  files: ComfyModelFiles,
  lists: { checkpoints: string[]; diffusionModels: string[]; loras: string[] },
  models: readonly (ModelRef & { name?: string })[],
  loras: readonly LoraRef[],
): { models: Proposal[]; loras: Proposal[] } {
  return {
    models: models.map((m) =>
      propose(
        m.id,
        modelFile(m, files),
        [m.id, m.name ?? ''],
        COMFY_FLUX_TYPES.has(m.modelType) ? lists.diffusionModels : lists.checkpoints,
      ),
    ),
    loras: loras.map((l) => propose(l.name, loraFile(l, files) ?? l.name, [l.name], lists.loras)),
  };
}

/** The config fragment to paste: only the fuzzy matches (exact ones need no mapping). */
export function mappingSnippet(p: { models: Proposal[]; loras: Proposal[] }): {
  models: Record<string, string>;
  loras: Record<string, string>;
} {
  const pick = (list: Proposal[]) =>
    Object.fromEntries(list.filter((x) => x.match === 'fuzzy' && x.file).map((x) => [x.key, x.file!]));
  return { models: pick(p.models), loras: pick(p.loras) };
}
