/**
 * The engines' health for the admin status view and the model tab: which engine each catalogue model and LoRA
 * goes to, and, for ComfyUI, whether a server has its file (from the capability check).
 */
import { LORA_BASES_BY_MODEL_TYPE, LORA_CATALOGUE, MODEL_CATALOGUE } from '@koma/domain';
import type { Engine, EngineId, LoraRef, ModelRef, Txt2ImgTask } from './types.ts';
import { ComfyUiEngine } from './comfyui/engine.ts';
import type { ComfyServerReport } from './comfyui/engine.ts';

export interface EngineStatus {
  id: EngineId;
  /** ComfyUI only: one report per server. */
  servers?: ComfyServerReport[];
}

export interface EnginesStatus {
  checkedAt: string;
  engines: EngineStatus[];
}

export interface Availability {
  available: boolean;
  engine: EngineId;
  reason?: string;
  /** ComfyUI only: every usable server runs without --preview-method, so no step previews arrive. */
  previewsOff?: boolean;
}

export interface ModelAvailability {
  models: Record<string, Availability>;
  loras: Record<string, Availability>;
}

/** A stand-in txt2img task for a catalogue model, to ask the router where that model runs. */
function probeTask(model: ModelRef): Txt2ImgTask {
  return {
    kind: 'txt2img',
    model,
    prompt: '',
    negativePrompt: '',
    steps: 1,
    cfg: 1,
    seed: 0,
    numImages: 1,
    loras: [],
    width: 1024,
    height: 1024,
  };
}

export const catalogueModels = (): ModelRef[] =>
  MODEL_CATALOGUE.map((m) => ({ id: m.id, path: m.path, modelType: m.modelType }));

/** Catalogue LoRAs with the model types they run on. */
const catalogueLoras = () =>
  LORA_CATALOGUE.map((l) => ({
    id: l.id,
    ref: { name: l.name, url: l.url, strength: l.strength } satisfies LoraRef,
    modelTypes: Object.entries(LORA_BASES_BY_MODEL_TYPE)
      .filter(([, bases]) => bases.includes(l.baseModel))
      .map(([type]) => type),
  }));

export function modelsFor(route: (task: Txt2ImgTask) => EngineId, engine: EngineId): ModelRef[] {
  return catalogueModels().filter((m) => route(probeTask(m)) === engine);
}

/** The LoRAs that can run on at least one of these models. */
export function lorasFor(models: readonly ModelRef[]): LoraRef[] {
  const types = new Set(models.map((m) => m.modelType));
  return catalogueLoras()
    .filter((l) => l.modelTypes.some((t) => types.has(t)))
    .map((l) => l.ref);
}

export async function checkEngines(
  engines: ReadonlyMap<EngineId, Engine>,
  route: (task: Txt2ImgTask) => EngineId,
): Promise<EnginesStatus> {
  const out: EngineStatus[] = [];
  for (const [id, engine] of engines) {
    if (engine instanceof ComfyUiEngine) {
      const models = modelsFor(route, 'comfyui');
      out.push({ id, servers: await engine.checkServers(models, lorasFor(models)) });
    } else {
      out.push({ id });
    }
  }
  return { checkedAt: new Date().toISOString(), engines: out };
}

export function modelAvailability(
  engines: ReadonlyMap<EngineId, Engine>,
  route: (task: Txt2ImgTask) => EngineId,
): ModelAvailability {
  const comfy = engines.get('comfyui');
  const models: Record<string, Availability> = {};
  for (const model of catalogueModels()) {
    const engine = route(probeTask(model));
    models[model.id] =
      engine === 'comfyui' && comfy instanceof ComfyUiEngine
        ? { engine, ...comfy.fileAvailable('model', model), ...(comfy.previewsOff() ? { previewsOff: true } : {}) }
        : { engine, available: true };
  }
  const loras: Record<string, Availability> = {};
  const engineOfType = new Map<string, EngineId>();
  for (const m of catalogueModels()) {
    const engine = models[m.id]?.engine;
    // ComfyUI wins: a LoRA needs a file only there.
    if (engine && engineOfType.get(m.modelType) !== 'comfyui') engineOfType.set(m.modelType, engine);
  }
  for (const lora of catalogueLoras()) {
    const engines = lora.modelTypes.map((t) => engineOfType.get(t)).filter((e) => e !== undefined);
    const engine = engines.includes('comfyui') ? 'comfyui' : (engines[0] ?? 'builtin');
    loras[lora.id] =
      engine === 'comfyui' && comfy instanceof ComfyUiEngine
        ? { engine, ...comfy.fileAvailable('lora', lora.ref) }
        : { engine, available: true };
  }
  return { models, loras };
}
