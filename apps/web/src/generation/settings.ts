// The generation settings of the prompt, model and settings tabs (editor.md §3 "Diffusion settings", defaults of
// §9), plus the face settings and the chosen edit model. Kept per browser so a reload keeps them.
import {
  DEFAULT_EDIT_MODEL,
  LIGHTNING_PRESETS,
  MAX_LORAS,
  findComicPreset,
  findModelById,
  loraBasesFor,
  zDiffusionSettings,
  zFaceSettings,
  type DiffusionSettings,
  type EditModelId,
  type FaceSettings,
  type Lora,
  EDIT_MODEL_IDS,
} from '@koma/domain';

export interface GenerationSettings {
  diffusion: DiffusionSettings;
  face: FaceSettings;
  editModel: EditModelId;
  /** The comic preset whose base prompt is put before the prompt (null: none). */
  comicPreset: string | null;
}

const STORAGE_KEY = 'koma.generation.settings';

export function defaultSettings(): GenerationSettings {
  return {
    diffusion: zDiffusionSettings.parse({}),
    face: zFaceSettings.parse({}),
    editModel: DEFAULT_EDIT_MODEL,
    comicPreset: null,
  };
}

/** Reads stored settings, keeping only what still validates (a field that fails falls back to its default). */
export function restoreSettings(raw: unknown): GenerationSettings {
  const base = defaultSettings();
  if (typeof raw !== 'object' || raw === null) return base;
  const r = raw as Partial<Record<keyof GenerationSettings, unknown>>;
  const diffusion = zDiffusionSettings.safeParse(r.diffusion ?? {});
  const face = zFaceSettings.safeParse(r.face ?? {});
  const edit = typeof r.editModel === 'string' && (EDIT_MODEL_IDS as readonly string[]).includes(r.editModel);
  return {
    diffusion: diffusion.success ? diffusion.data : base.diffusion,
    face: face.success ? face.data : base.face,
    editModel: edit ? (r.editModel as EditModelId) : base.editModel,
    comicPreset: typeof r.comicPreset === 'string' && findComicPreset(r.comicPreset) ? r.comicPreset : null,
  };
}

/** Steps and cfg the request will really use: a lightning mode overrides both (generation.md §5). */
export function effectiveSampling(d: DiffusionSettings): { steps: number; cfg: number } {
  return d.lightning === 'none' ? { steps: d.steps, cfg: d.cfg } : { ...LIGHTNING_PRESETS[d.lightning] };
}

/**
 * Choosing a model applies its defaultSteps and defaultGuidanceScale, and drops the chosen LoRAs trained for
 * another base (the server would refuse them).
 */
export function withModel(d: DiffusionSettings, modelId: string): DiffusionSettings {
  const model = findModelById(modelId);
  if (!model) return d;
  const bases = loraBasesFor(model);
  const loras = d.loras.filter((l) => bases.includes(l.baseModel));
  return { ...d, model: model.id, steps: model.defaultSteps, cfg: model.defaultGuidanceScale, loras };
}

/** Adds a LoRA (or updates its strength when already chosen); refuses an 11th. */
export function withLora(d: DiffusionSettings, lora: Lora): DiffusionSettings {
  const at = d.loras.findIndex((l) => l.url === lora.url);
  if (at >= 0) return { ...d, loras: d.loras.map((l, i) => (i === at ? lora : l)) };
  if (d.loras.length >= MAX_LORAS) return d;
  return { ...d, loras: [...d.loras, lora] };
}

/** A small observable store the tabs and the controller share. */
export class SettingsStore {
  private value: GenerationSettings;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null = safeStorage()) {
    let raw: unknown;
    try {
      const text = storage?.getItem(STORAGE_KEY);
      raw = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      raw = null;
    }
    this.value = restoreSettings(raw);
  }

  get state(): GenerationSettings {
    return this.value;
  }

  update(change: Partial<GenerationSettings>): void {
    this.value = { ...this.value, ...change };
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify(this.value));
    } catch {
      // storage full or disabled: the settings still apply for this visit
    }
    for (const l of this.listeners) l();
  }

  updateDiffusion(patch: Partial<DiffusionSettings> | ((d: DiffusionSettings) => DiffusionSettings)): void {
    const diffusion = typeof patch === 'function' ? patch(this.value.diffusion) : { ...this.value.diffusion, ...patch };
    this.update({ diffusion });
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
