// What the server says about generation (GET /api/generation/config): which engine runs each engine task and
// model — the builtin preview engine's pictures are free unless the server charges for them (BUILTIN_CHARGES) —
// and where the credits, subscription and engine-setup links go.
import { operationOf, type EngineTaskKind, type NormalizedRequest, type OperationKind } from '@koma/domain';
import type { HttpClient } from '../api/http.ts';

export interface GenerationConfig {
  builtinCharges: boolean;
  engines: Partial<Record<EngineTaskKind, Record<string, string>>>;
  links: { credits?: string; subscription?: string; engineSetup?: string };
}

/** Where Koma explains how to set up a real engine, when the administrator gave no link of their own. */
export const ENGINE_SETUP_DOC = 'docs/engines-config.md';

/** Reads the config; null when the server could not say (prices then stay those of the request). */
export async function loadGenerationConfig(http: HttpClient): Promise<GenerationConfig | null> {
  try {
    const raw = await http.request<{
      builtin_charges?: unknown;
      engines?: unknown;
      links?: Record<string, unknown>;
    }>('GET', '/api/generation/config');
    const links = raw.links ?? {};
    const link = (k: string) => (typeof links[k] === 'string' ? { [k]: links[k] } : {});
    return {
      builtinCharges: raw.builtin_charges === true,
      engines: typeof raw.engines === 'object' && raw.engines !== null ? raw.engines : {},
      links: { ...link('credits'), ...link('subscription'), ...link('engineSetup') },
    };
  } catch (error) {
    console.error('Could not load the generation config', error);
    return null;
  }
}

/** The engine a normalised request would run on, or null when Koma's own models run it or it is unknown. */
export function engineOf<K extends OperationKind>(
  config: GenerationConfig | null,
  kind: K,
  request: NormalizedRequest<K>,
): string | null {
  const key = operationOf(kind).engineKey?.(request);
  if (!key || !config) return null;
  return config.engines[key.task]?.[key.model] ?? null;
}

/** True when the request would be drawn by the builtin preview engine and not charged. */
export function isFreePreview<K extends OperationKind>(
  config: GenerationConfig | null,
  kind: K,
  request: NormalizedRequest<K>,
): boolean {
  return !!config && !config.builtinCharges && engineOf(config, kind, request) === 'builtin';
}
