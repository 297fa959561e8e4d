import type { ModelCatalogueEntry } from './model-catalogue.ts';
import { MODEL_ROWS } from './models.data.ts';
import { QUALITY_TAG_FAMILIES } from './quality-tags.data.ts';

function toEntry(row: (typeof MODEL_ROWS)[number]): ModelCatalogueEntry {
  const tags = QUALITY_TAG_FAMILIES[row.tags];
  return {
    name: row.name,
    id: row.id,
    previewImage: `/models/${row.id}.webp`,
    scheduler: row.scheduler,
    path: row.path,
    ...(row.hfPath === undefined ? {} : { hfPath: row.hfPath }),
    ...(row.pastPaths === undefined ? {} : { pastPaths: [...row.pastPaths] }),
    modelType: row.modelType,
    qualityTagsPrefix: tags.prefix,
    qualityTagsSuffix: tags.suffix,
    negativeQualityTagsPrefix: tags.negativePrefix,
    negativeQualityTagsSuffix: tags.negativeSuffix,
    prefersTags: row.prefersTags,
    recommended: row.recommended,
    requiresSubscription: row.modelType === 'gpt',
    vpred: row.vpred,
    defaultSteps: row.defaultSteps,
    defaultGuidanceScale: row.defaultGuidanceScale,
  };
}

/** The model catalogue, in id order. */
export const MODEL_CATALOGUE: readonly ModelCatalogueEntry[] = Object.freeze(MODEL_ROWS.map(toEntry));

/** Ids of every catalogue model. */
export const MODEL_IDS: readonly string[] = MODEL_CATALOGUE.map((m) => m.id);

/** The entry returned for a path no catalogue model has or had (generation.md §3). */
export const UNKNOWN_MODEL: ModelCatalogueEntry = Object.freeze({
  name: 'Unknown',
  id: 'unknown',
  previewImage: '/models/unknown.webp',
  scheduler: 'Euler A',
  path: '',
  modelType: 'sdxl',
  qualityTagsPrefix: '',
  qualityTagsSuffix: '',
  negativeQualityTagsPrefix: '',
  negativeQualityTagsSuffix: '',
  prefersTags: false,
  recommended: false,
  requiresSubscription: false,
  vpred: false,
  defaultSteps: 20,
  defaultGuidanceScale: 7,
});

const byId = new Map(MODEL_CATALOGUE.map((m) => [m.id, m]));
const byPath = new Map<string, ModelCatalogueEntry>();
for (const m of MODEL_CATALOGUE) {
  byPath.set(m.path, m);
  for (const past of m.pastPaths ?? []) byPath.set(past, m);
}

/** The catalogue entry with this id, or undefined. */
export function findModelById(id: string): ModelCatalogueEntry | undefined {
  return byId.get(id);
}

/** The catalogue entry whose current or past path is `path`; UNKNOWN_MODEL when none matches. */
export function findModelByPath(path: string): ModelCatalogueEntry {
  return byPath.get(path) ?? UNKNOWN_MODEL;
}

/** True when a user without a subscription may not use this model. */
export function modelRequiresSubscription(id: string): boolean {
  return byId.get(id)?.requiresSubscription ?? false;
}

/** The model of the brush-based and regional pipelines, which take no model of their own: the recommended SDXL. */
export const PIPELINE_MODEL: ModelCatalogueEntry =
  MODEL_CATALOGUE.find((m) => m.modelType === 'sdxl' && m.recommended) ??
  MODEL_CATALOGUE.find((m) => m.modelType === 'sdxl') ??
  UNKNOWN_MODEL;
