// Request payloads built from the settings and from a layer's stored generation parameters, and their price
// (quoteRequest of @koma/domain: the same number the server charges).
import {
  findComicPreset,
  parseRequest,
  quoteRequest,
  zGenerationParams,
  type DiffusionSettings,
  type GenerationParams,
  type RequestKind,
} from '@koma/domain';
import { engineOf, isFreePreview, type GenerationConfig } from './config.ts';
import { effectiveSampling, type GenerationSettings } from './settings.ts';
import { regenerationSeed } from './processing.ts';

export type Source = 'prompt' | 'pose' | 'sketch';

/** The prompt sent: the comic preset's base prompt (when one is chosen) before the user's prompt. */
export function fullPrompt(settings: GenerationSettings): string {
  const prompt = settings.diffusion.prompt.trim();
  const preset = settings.comicPreset ? findComicPreset(settings.comicPreset) : undefined;
  if (!preset || prompt === '') return prompt;
  return `${preset.basePrompt}, ${prompt}`;
}

/** The txt2img payload of the current settings. */
export function txt2imgPayload(settings: GenerationSettings, source: Source = 'prompt') {
  const d = settings.diffusion;
  return {
    model: d.model,
    prompt: fullPrompt(settings),
    negative_prompt: d.negativePrompt,
    width: d.dimension.width,
    height: d.dimension.height,
    ...effectiveSampling(d),
    seed: d.seed,
    num_images: d.batchSize,
    loras: d.loras,
    lightning: d.lightning,
    qualityTags: source === 'prompt' ? d.qualityTags : true,
    ip_adapter_image: d.ipAdapterImage,
    ip_adapter_strength: d.ipAdapterStrength,
    source,
  };
}

/** The generation parameters an image layer keeps (editor.md §3) so it can be regenerated. */
export function paramsOf(
  d: DiffusionSettings,
  prompt: string,
  type: GenerationParams['type'],
  extra: Partial<GenerationParams> = {},
): GenerationParams {
  return zGenerationParams.parse({
    model: d.model,
    type,
    prompt,
    negative_prompt: d.negativePrompt,
    width: d.dimension.width,
    height: d.dimension.height,
    ...effectiveSampling(d),
    seed: d.seed,
    numImages: d.batchSize,
    loras: d.loras,
    lightning: d.lightning,
    qualityTags: d.qualityTags,
    strength: d.inpaintStrength,
    ip_adapter_image: d.ipAdapterImage,
    ip_adapter_strength: d.ipAdapterStrength,
    ...extra,
  });
}

/** The txt2img payload that regenerates a layer: its own parameters, seed + the count of its variations. */
export function regenerateTxt2img(params: GenerationParams, existing: number) {
  return {
    model: params.model,
    prompt: params.prompt,
    negative_prompt: params.negative_prompt,
    width: params.width,
    height: params.height,
    cfg: params.cfg,
    steps: params.steps,
    seed: regenerationSeed(params.seed, existing),
    num_images: params.numImages,
    loras: params.loras,
    lightning: params.lightning,
    qualityTags: params.qualityTags,
    controlnets: params.controlnets,
    ip_adapter_image: params.ip_adapter_image,
    ip_adapter_strength: params.ip_adapter_strength,
  };
}

/**
 * Credits the payload costs, or null when the payload is not valid yet (for example an empty prompt): the
 * request's price, or nothing when the server says the builtin preview engine draws it for free.
 */
export function quote(
  kind: RequestKind,
  payload: unknown,
  globalPrompt?: string,
  config: GenerationConfig | null = null,
): number | null {
  try {
    const result = quoteRequest(kind, payload, globalPrompt);
    if (!result.ok) return null;
    if (config) {
      const parsed = parseRequest(kind, payload, {
        random: () => 0,
        ...(globalPrompt === undefined ? {} : { globalPrompt }),
      });
      if (parsed.ok && isFreePreview(config, kind, parsed.value)) return 0;
    }
    return result.credits;
  } catch {
    return null;
  }
}

/** The engine a payload would run on, per the server's config; null when unknown or not valid. */
export function engineOfPayload(
  ctx: { config: { value: GenerationConfig | null } },
  kind: RequestKind,
  payload: unknown,
): string | null {
  const parsed = parseRequest(kind, payload, { random: () => 0 });
  return parsed.ok ? engineOf(ctx.config.value, kind, parsed.value) : null;
}
