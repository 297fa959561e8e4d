// What the editor knows about each generated picture beyond its id: which engine drew it (the builtin preview
// engine's pictures carry a badge) and its recipe (model, prompts, seed, steps, cfg, LoRAs), from the job's output
// or, for pictures of earlier visits, from the flow images the server recorded. And the results tray: the
// pictures of the last generation of a layer, to pick from.
import type { EditorSession } from '../editor/session.ts';
import { api } from '../api/endpoints.ts';
import { isApiError } from '../api/ApiError.ts';
import { Observable } from './observable.ts';
import { LookupQueue } from './lookup-queue.ts';

/** Recipe lookups of the whole tab, two at a time (see LookupQueue). */
const lookups = new LookupQueue(2);
/** Variations one POST /api/flow_images/lookup may ask for (the server's limit). */
export const RECIPE_LOOKUP_MAX = 1000;

/** The flow-image calls Results makes (the app's shared client by default; tests pass their own). */
export interface FlowImageFinder {
  find(variationId: string): Promise<{ userImages: unknown[] }>;
  lookup(variationIds: string[]): Promise<{ userImages: unknown[] }>;
}

/** The recipe of a picture, as GET /api/flow_images/?variationId= records it (docs/api-generation.md). */
export interface Recipe {
  model: string;
  /** What the user typed (the engine got it with quality tags and trigger words). */
  prompt: string;
  negativePrompt: string;
  seed: number | null;
  steps: number | null;
  cfg: number | null;
  loras: { name: string; url: string; strength: number; baseModel: string }[];
  lightning: string;
  qualityTags: boolean;
  engine: string;
  kind: string;
}

/** The pictures of one generation waiting to be picked from, on one layer. */
export interface TrayState {
  layerId: string;
  imageIds: readonly string[];
}

type Lookup = Recipe | null | 'loading';

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Reads a flow image's generation data; null when it is not one of ours. */
export function recipeFrom(data: unknown): Recipe | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  const loras = Array.isArray(d.loras)
    ? d.loras.flatMap((l) => {
        const r = l as Record<string, unknown> | null;
        return r && typeof r.name === 'string' && typeof r.url === 'string'
          ? [{ name: r.name, url: r.url, strength: num(r.strength) ?? 1, baseModel: str(r.baseModel, 'none') }]
          : [];
      })
    : [];
  return {
    model: str(d.model_name),
    prompt: str(d.user_prompt, str(d.prompt)),
    negativePrompt: str(d.user_negative_prompt, str(d.negative_prompt)),
    seed: num(d.seed),
    steps: num(d.num_inference_steps),
    cfg: num(d.guidance_scale),
    loras,
    lightning: str(d.lightning, 'none'),
    qualityTags: d.quality_tags === true,
    engine: str(d.engine),
    kind: str(d.kind),
  };
}

export class Results {
  /** Bumped whenever something below changes, so components re-render. */
  readonly version = new Observable(0);
  readonly tray = new Observable<TrayState | null>(null);
  private readonly engines = new Map<string, string>();
  private readonly recipes = new Map<string, Lookup>();
  /** Variations asked for since the last flush (see recipe). */
  private pending: string[] = [];
  /** False once the server answered 404 to the batch call: it predates it. */
  private batchLookup = true;

  constructor(private readonly finder: FlowImageFinder = api.flowImages) {}

  private bump(): void {
    this.version.set(this.version.value + 1);
  }

  /** Notes the engine of each image of a job's output (`{ images: [{ id, engine }] }`). */
  noteOutput(output: unknown): void {
    const images = (output as { images?: unknown } | null)?.images;
    if (!Array.isArray(images)) return;
    let changed = false;
    for (const i of images) {
      const r = i as { id?: unknown; engine?: unknown } | null;
      if (typeof r?.id === 'string' && typeof r.engine === 'string') {
        this.engines.set(r.id, r.engine);
        changed = true;
      }
    }
    if (changed) this.bump();
  }

  /** The engine that drew a picture, when known (asks the server once when not). */
  engineOf(variationId: string): string | undefined {
    const known = this.engines.get(variationId);
    if (known !== undefined) return known;
    const recipe = this.recipe(variationId);
    return recipe && recipe !== 'loading' ? recipe.engine : undefined;
  }

  /**
   * A picture's recipe: loaded once from the server ('loading' meanwhile, null when there is none). The variations
   * asked for in one synchronous pass (the canvas asks for every picture of a page as it draws) go in one
   * POST /api/flow_images/lookup; ten lookups a page at once took the browser's connections from the page's
   * pictures. A server without that call (404) is asked one variation at a time, as the spec's call allows.
   */
  recipe(variationId: string): Lookup {
    const known = this.recipes.get(variationId);
    if (known !== undefined) return known;
    this.recipes.set(variationId, 'loading');
    this.pending.push(variationId);
    if (this.pending.length === 1) queueMicrotask(() => this.flush());
    return 'loading';
  }

  private flush(): void {
    const ids = this.pending.splice(0);
    if (!this.batchLookup) {
      for (const id of ids) this.lookupOne(id);
      return;
    }
    for (let i = 0; i < ids.length; i += RECIPE_LOOKUP_MAX) {
      const chunk = ids.slice(i, i + RECIPE_LOOKUP_MAX);
      lookups.add(() =>
        this.finder
          .lookup(chunk)
          .then((answer) => {
            for (const id of chunk) this.settle(id, answer.userImages);
            this.bump();
          })
          .catch((error: unknown) => {
            // An older server has no batch call; any other failure is retried one by one, as before the batch.
            if (isApiError(error) && (error.status === 404 || error.status === 405)) this.batchLookup = false;
            for (const id of chunk) this.lookupOne(id);
          }),
      );
    }
  }

  /** The spec's one-variation call (GET /api/flow_images/?variationId=). */
  private lookupOne(variationId: string): void {
    lookups.add(() =>
      this.finder
        .find(variationId)
        .then((answer) => this.settle(variationId, answer.userImages))
        .catch(() => this.recipes.set(variationId, null))
        .finally(() => this.bump()),
    );
  }

  private settle(variationId: string, userImages: unknown[]): void {
    const entry = userImages.find((u) => (u as { variationId?: unknown } | null)?.variationId === variationId) as
      { generationData?: unknown } | undefined;
    const recipe = recipeFrom(entry?.generationData);
    this.recipes.set(variationId, recipe);
    if (recipe?.engine) this.engines.set(variationId, recipe.engine);
  }

  openTray(layerId: string, imageIds: readonly string[]): void {
    this.tray.set(imageIds.length > 1 ? { layerId, imageIds: [...imageIds] } : null);
  }

  closeTray(): void {
    this.tray.set(null);
  }
}

const bySession = new WeakMap<EditorSession, Results>();

/** The results of a session's pictures. */
export function resultsOf(session: EditorSession): Results {
  let results = bySession.get(session);
  if (!results) {
    results = new Results();
    bySession.set(session, results);
  }
  return results;
}
