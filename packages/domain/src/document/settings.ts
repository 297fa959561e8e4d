import { z } from 'zod';
import { zColor, zStroke } from './geometry.ts';
import { DEFAULT_MODEL_ID, LIGHTNING_OPTIONS } from './generation-params.ts';
import { zLora } from '../generation/lora.ts';
import {
  DEFAULT_BATCH_SIZE,
  DEFAULT_CFG,
  DEFAULT_STEPS,
  DEFAULT_STRENGTH,
  FACE_FIX_STRENGTH,
  FPS_PREFERRED_DEFAULT,
  RANDOM_SEED,
  SKETCH_MAP_BRUSH_RADIUS,
} from '../constants.ts';

const zFraction = z.number().min(0).max(1);

/**
 * A region's box as fractions of the generation frame (0 = left or top edge, 1 = right or bottom edge), the same
 * convention as the regional request, so a region keeps its place whichever frame it is generated into.
 */
export const zRegionRect = z.object({ x0: zFraction, y0: zFraction, x1: zFraction, y1: zFraction });
export type RegionRect = z.infer<typeof zRegionRect>;

export const zRegionalPrompt = z.object({
  color: zColor,
  prompt: z.string(),
  negativePrompt: z.string().default(''),
  /** Null until the region is drawn on the canvas. */
  rect: zRegionRect.nullable().default(null),
});
export type RegionalPrompt = z.infer<typeof zRegionalPrompt>;

/**
 * A sketch-map brush. Its strokes' points are fractions of the generation frame (x of its width, y of its height);
 * `radius` (the brush's and each stroke's) is in pixels of the generated image.
 */
export const zSketchMapBrush = z.object({
  color: zColor,
  radius: z.number().positive().default(SKETCH_MAP_BRUSH_RADIUS),
  prompt: z.string(),
  negativePrompt: z.string().default(''),
  strokes: z.array(zStroke).default([]),
});
export type SketchMapBrush = z.infer<typeof zSketchMapBrush>;
export const zSketchMap = z.object({
  brushes: z.array(zSketchMapBrush).default([]),
  backgroundPrompt: z.string().default(''),
});
export type SketchMap = z.infer<typeof zSketchMap>;

export const zDimension = z.object({ width: z.number().int().positive(), height: z.number().int().positive() });

/** The generation settings of the prompt, model and settings tabs (editor.md §3, defaults of §9). */
export const zDiffusionSettings = z.object({
  model: z.string().min(1).default(DEFAULT_MODEL_ID),
  prompt: z.string().default(''),
  negativePrompt: z.string().default(''),
  steps: z.number().int().positive().default(DEFAULT_STEPS),
  cfg: z.number().min(0).default(DEFAULT_CFG),
  dimension: zDimension.default({ width: 832, height: 1216 }),
  inpaintStrength: z.number().min(0).max(1).default(DEFAULT_STRENGTH),
  img2imgStrength: z.number().min(0).max(1).default(DEFAULT_STRENGTH),
  sketchStrength: z.number().min(0).max(1).default(DEFAULT_STRENGTH),
  poseStrength: z.number().min(0).max(1).default(DEFAULT_STRENGTH),
  lightning: z.enum(LIGHTNING_OPTIONS).default('none'),
  batchSize: z.number().int().min(1).max(4).default(DEFAULT_BATCH_SIZE),
  seed: z.number().int().min(RANDOM_SEED).default(RANDOM_SEED),
  qualityTags: z.boolean().default(true),
  ipAdapterImage: z.string().nullable().default(null),
  ipAdapterStrength: z.number().min(0).default(DEFAULT_STRENGTH),
  loras: z.array(zLora).max(10).default([]),
});
export type DiffusionSettings = z.infer<typeof zDiffusionSettings>;

export const DEFAULT_FACE_PROMPT = 'detailed eyes, masterpiece, best quality, eyeliner, makeup';

export const zFaceSettings = z.object({
  prompt: z.string().default(DEFAULT_FACE_PROMPT),
  negativePrompt: z.string().default(''),
  strength: z.number().min(0).max(1).default(FACE_FIX_STRENGTH),
});
export type FaceSettings = z.infer<typeof zFaceSettings>;

export const zFlowImage = z.object({
  variationId: z.string().min(1),
  generationData: z.object({
    prompt: z.string(),
    negative_prompt: z.string(),
    seed: z.number().int(),
    image_size: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }),
    model_name: z.string(),
    num_inference_steps: z.number().int().positive(),
    guidance_scale: z.number().min(0),
  }),
});
export type FlowImage = z.infer<typeof zFlowImage>;

export const LOCALES = ['en', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];

/** The editor's sidebars on a desktop or tablet (phones show them as sheets): widths in CSS pixels, and open or not. */
export const SIDEBAR_WIDTHS = {
  left: { min: 200, max: 560, initial: 280 },
  right: { min: 260, max: 600, initial: 320 },
} as const;
export const zEditorLayout = z.object({
  leftWidth: z
    .number()
    .int()
    .min(SIDEBAR_WIDTHS.left.min)
    .max(SIDEBAR_WIDTHS.left.max)
    .default(SIDEBAR_WIDTHS.left.initial),
  rightWidth: z
    .number()
    .int()
    .min(SIDEBAR_WIDTHS.right.min)
    .max(SIDEBAR_WIDTHS.right.max)
    .default(SIDEBAR_WIDTHS.right.initial),
  leftOpen: z.boolean().default(true),
  rightOpen: z.boolean().default(true),
});
export type EditorLayout = z.infer<typeof zEditorLayout>;

/** Per-user preferences kept on the server and applied when the editor starts. */
export const zStoredPreferences = z.object({
  locale: z.enum(LOCALES).default('en'),
  preferredFont: z.string().min(1).max(100).default('Komika'),
  fps: z.number().int().min(1).max(240).default(FPS_PREFERRED_DEFAULT),
  loras: z.array(zLora).max(100).default([]),
  storyBasePrompt: z.string().max(4000).default(''),
  comicPreset: z.string().max(100).nullable().default(null),
  editorLayout: zEditorLayout.default(() => zEditorLayout.parse({})),
});
export type StoredPreferences = z.infer<typeof zStoredPreferences>;
