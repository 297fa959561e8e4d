// One generation operation is one definition: what its request accepts, the rules applied after parsing, what it
// costs, which of its texts moderation reads, which of its fields are images, and which catalogue model it uses.
// The web builds and prices requests from these; the server validates, moderates, charges and stores inputs with
// the very same functions, so the price shown is the price charged.
import type { z } from 'zod';
import type { NormalizeContext } from '../requests/normalize.ts';

/** A text of a request that moderation reads, by dotted path (`prompt`, `regions.2.prompt`). */
export interface PromptField {
  readonly field: string;
  readonly text: string;
}

/** Replaces one image reference (inline data URL or stored id) by what the caller made of it (a stored id). */
export type StoreImage = (ref: string, field: string) => Promise<string>;

/** The definition of one operation; `N` is the normalised request (what the server runs and charges for). */
export interface OperationDefinition<K extends string, S extends z.ZodType, N> {
  /** The job kind, as the server names its handler and the web its modules. */
  readonly kind: K;
  /** The path the web posts it to; the answer is the job's NDJSON stream (docs/api-generation.md). */
  readonly endpoint: string;
  /** Fields, limits and defaults of the request. */
  readonly schema: S;
  /** Rules that need more than the schema (random seed, lightning, model defaults, fallbacks). */
  normalize(parsed: z.output<S>, ctx: NormalizeContext): N;
  /** Credits the normalised request costs; may throw for a model without a price. */
  price(request: NoInfer<N>): number;
  /** The positive prompts moderation reads; negative prompts steer away and are not read. */
  prompts(request: NoInfer<N>): PromptField[];
  /** The request with every image field passed through `store`, in field order (the first bad one is reported). */
  storeImages(request: NoInfer<N>, store: StoreImage): Promise<NoInfer<N>>;
  /** The catalogue model whose access rules (subscription) apply, for operations that take one. */
  model?(request: NoInfer<N>): string;
  /**
   * What the engine router routes the request by: its engine task and model (catalogue, edit or video model id;
   * '' for none). Absent, or null for a request, when Koma's own vision models or chat run it.
   */
  engineKey?(request: NoInfer<N>): EngineKey | null;
}

/** Engine task kinds, as the engine router and its config name them (docs/engines-config.md). */
export const ENGINE_TASKS = [
  'txt2img',
  'img2img',
  'inpaint',
  'outpaint',
  'face_enhance',
  'regional',
  'smd',
  'edit',
  'upscale',
  'video',
] as const;
export type EngineTaskKind = (typeof ENGINE_TASKS)[number];

/** The routing key of a request: which engine task it becomes, with which model. */
export interface EngineKey {
  readonly task: EngineTaskKind;
  readonly model: string;
}

/** Types an operation definition (the identity: it only lets TypeScript infer `N` from `normalize`). */
export function defineOperation<K extends string, S extends z.ZodType, N>(
  def: OperationDefinition<K, S, N>,
): OperationDefinition<K, S, N> {
  return def;
}

/** The `prompt` field, for the many operations whose only moderated text it is. */
export function promptOnly(request: { prompt: string }): PromptField[] {
  return [{ field: 'prompt', text: request.prompt }];
}

/** An operation without images keeps its request as it is. */
export function noImages<N>(request: N): Promise<N> {
  return Promise.resolve(request);
}

/** Stores an optional image field (null stays null). */
export async function storeOptional(ref: string | null, field: string, store: StoreImage): Promise<string | null> {
  return ref === null ? null : store(ref, field);
}

/** Stores the image of each item of a list (`controlnets.0.image`, `brushes.3.mask`), one after the other. */
export async function storeEach<T, F extends keyof T & string>(
  items: readonly T[],
  list: string,
  key: F,
  store: StoreImage,
): Promise<T[]> {
  const out: T[] = [];
  for (const [i, item] of items.entries()) {
    out.push({ ...item, [key]: await store(item[key] as string, `${list}.${i}.${key}`) });
  }
  return out;
}
