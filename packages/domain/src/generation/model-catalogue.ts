import { z } from 'zod';
import { SCHEDULERS, zModelType } from './model-types.ts';

/** One entry of the model catalogue (generation.md §3). */
export const zModelCatalogueEntry = z.object({
  name: z.string().min(1),
  id: z.string().min(1),
  previewImage: z.string().min(1),
  scheduler: z.enum(SCHEDULERS),
  path: z.string().min(1),
  hfPath: z.string().min(1).optional(),
  pastPaths: z.array(z.string().min(1)).optional(),
  modelType: zModelType,
  qualityTagsPrefix: z.string(),
  qualityTagsSuffix: z.string(),
  negativeQualityTagsPrefix: z.string(),
  negativeQualityTagsSuffix: z.string(),
  prefersTags: z.boolean(),
  recommended: z.boolean(),
  requiresSubscription: z.boolean(),
  vpred: z.boolean(),
  defaultSteps: z.number().int().min(1).max(30),
  defaultGuidanceScale: z.number().min(0).max(20),
});
export type ModelCatalogueEntry = z.infer<typeof zModelCatalogueEntry>;
