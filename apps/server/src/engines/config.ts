/** The engine routing config file (docs/engines-config.md): schema, defaults and loading at start-up. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const zEngineId = z.enum(['builtin', 'comfyui', 'fal', 'openai']);
const zKind = z.enum([
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
]);
const zMs = z.number().int().positive();
const zUrl = z.url({ protocol: /^https?$/ });

const zRoute = z
  .strictObject({
    /** Catalogue ids, edit model ids (kontext-dev…) or video model ids (wan_i2v…). */
    models: z.array(z.string().min(1)).min(1).optional(),
    /** Catalogue model types (sdxl, fluxdev, fluxdevmanga, fluxpro, fluxschnell, gpt). */
    modelTypes: z.array(z.string().min(1)).min(1).optional(),
    kinds: z.array(zKind).min(1).optional(),
    engine: zEngineId,
  })
  .refine((r) => r.models || r.modelTypes || r.kinds, {
    message: 'A route needs at least one of models, modelTypes or kinds (use "default" for everything else)',
  });

const zEnvName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name such as FAL_KEY');

/**
 * A ComfyUI server: its URL, or its URL and the environment variable holding a bearer token (`tokenEnv`) or
 * `user:password` for basic auth (`basicAuthEnv`) of the proxy in front of it.
 */
const zComfyServer = z.union([
  zUrl,
  z
    .strictObject({ url: zUrl, tokenEnv: zEnvName.optional(), basicAuthEnv: zEnvName.optional() })
    .refine((s) => !(s.tokenEnv && s.basicAuthEnv), { message: 'Use either tokenEnv or basicAuthEnv, not both' }),
]);

const zComfy = z.strictObject({
  servers: z.array(zComfyServer).min(1),
  files: z
    .strictObject({
      flux: z.strictObject({ clipL: z.string().min(1), t5: z.string().min(1), vae: z.string().min(1) }).optional(),
      controlnets: z
        .strictObject({ 'controlnet-openpose': z.string().min(1), 'controlnet-anytest': z.string().min(1) })
        .optional(),
      upscaleModel: z.string().min(1).optional(),
      upscaleModelScale: z.number().positive().optional(),
      ipAdapterPreset: z.string().min(1).optional(),
      kontextUnet: z.string().min(1).optional(),
      sdxlSampler: z.strictObject({ sampler: z.string().min(1), scheduler: z.string().min(1) }).optional(),
      fluxSampler: z.strictObject({ sampler: z.string().min(1), scheduler: z.string().min(1) }).optional(),
      /** Catalogue model id → file name on the server (as the server lists it, or with / for subfolders). */
      models: z.record(z.string().min(1), z.string().min(1)).optional(),
      /** LoRA url or display name → file name in models/loras. */
      loras: z.record(z.string().min(1), z.string().min(1)).optional(),
    })
    .optional(),
  cleanup: z.enum(['temp', 'keep']).optional(),
  objectInfoTtlMs: zMs.optional(),
  requestTimeoutMs: zMs.optional(),
  probeTimeoutMs: zMs.optional(),
  idleTimeoutMs: zMs.optional(),
  jobTimeoutMs: zMs.optional(),
  previewIntervalMs: z.number().int().min(0).optional(),
  historyPollMs: zMs.optional(),
});

const zFal = z.strictObject({
  keyEnv: zEnvName.default('FAL_KEY'),
  baseUrl: zUrl.optional(),
  storageUrl: zUrl.optional(),
  pollIntervalMs: zMs.optional(),
  requestTimeoutMs: zMs.optional(),
  jobTimeoutMs: zMs.optional(),
  videoTimeoutMs: zMs.optional(),
});

const zOpenAi = z.strictObject({
  keyEnv: zEnvName.default('OPENAI_API_KEY'),
  baseUrl: zUrl.optional(),
  model: z.string().min(1).optional(),
  partialImages: z.number().int().min(0).max(3).optional(),
  jobTimeoutMs: zMs.optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
});

export const zEngineConfig = z
  .strictObject({
    default: zEngineId.default('builtin'),
    routes: z.array(zRoute).default([]),
    builtin: z.strictObject({ stepDelayMs: z.number().int().min(0).optional() }).optional(),
    comfyui: zComfy.optional(),
    fal: zFal.optional(),
    openai: zOpenAi.optional(),
  })
  .superRefine((config, ctx) => {
    const configured = (id: z.infer<typeof zEngineId>) => id === 'builtin' || config[id] !== undefined;
    if (!configured(config.default)) {
      ctx.addIssue({
        code: 'custom',
        path: ['default'],
        message: `"${config.default}" is used but has no settings section`,
      });
    }
    config.routes.forEach((route, i) => {
      if (!configured(route.engine)) {
        ctx.addIssue({
          code: 'custom',
          path: ['routes', i, 'engine'],
          message: `"${route.engine}" is used but has no settings section`,
        });
      }
    });
  });

export type EngineConfig = z.infer<typeof zEngineConfig>;
export type EngineRoute = EngineConfig['routes'][number];

/** Everything on the builtin engine: what runs when ENGINES_CONFIG is not set. */
export const DEFAULT_ENGINE_CONFIG: EngineConfig = zEngineConfig.parse({});

export class EngineConfigError extends Error {
  override readonly name = 'EngineConfigError';
}

/** Validates parsed JSON; the error lists every problem as `path: message`. */
export function parseEngineConfig(json: unknown, source = 'engine config'): EngineConfig {
  const parsed = zEngineConfig.safeParse(json);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(top level)'}: ${i.message}`);
  throw new EngineConfigError(`Invalid ${source}:\n${problems.join('\n')}`);
}

/** Reads the file named by ENGINES_CONFIG, or returns the all-builtin default when it is not set. */
export function loadEngineConfig(env: NodeJS.ProcessEnv = process.env): EngineConfig {
  const path = env.ENGINES_CONFIG?.trim();
  if (!path) return DEFAULT_ENGINE_CONFIG;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new EngineConfigError(`Cannot read the engine config ${path} (ENGINES_CONFIG): ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (err) {
    throw new EngineConfigError(`The engine config ${path} is not valid JSON: ${(err as Error).message}`);
  }
  return parseEngineConfig(json, `engine config ${path}`);
}
