import { z } from 'zod';

export const VIDEO_MODEL_IDS = ['wan22_i2v', 'wan_i2v', 'kling1.6_i2v', 'kling2.0_i2v', 'vidu_q1'] as const;
export type VideoModelId = (typeof VIDEO_MODEL_IDS)[number];
export const zVideoModelId = z.enum(VIDEO_MODEL_IDS);

/** An image-to-video model (generation.md §3): price per second of output and what it accepts. */
export const zVideoModel = z.object({
  id: z.enum(VIDEO_MODEL_IDS),
  name: z.string().min(1),
  providerModelId: z.string().min(1),
  credits_per_second: z.number().int().positive(),
  extra_params: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  supports_end_frame: z.boolean(),
  /** Durations in whole seconds the provider can produce; the first is the default. */
  durations: z.array(z.number().int().positive()).min(1).readonly(),
});
export type VideoModel = z.infer<typeof zVideoModel>;

/** Default Wan clip: 81 frames at 16 fps (generation.md §9), about 5 seconds. */
export const DEFAULT_VIDEO_FRAMES = 81;
export const DEFAULT_VIDEO_FPS = 16;

export const VIDEO_MODELS: readonly VideoModel[] = [
  {
    id: 'wan22_i2v',
    name: 'Wan 2.2',
    providerModelId: 'fal-ai/wan/v2.2-a14b/image-to-video/lora',
    credits_per_second: 50,
    extra_params: { num_frames: DEFAULT_VIDEO_FRAMES, frames_per_second: DEFAULT_VIDEO_FPS },
    supports_end_frame: false,
    durations: [5],
  },
  {
    id: 'wan_i2v',
    name: 'Wan 2.1',
    providerModelId: 'fal-ai/wan-i2v',
    credits_per_second: 50,
    extra_params: { num_frames: DEFAULT_VIDEO_FRAMES, frames_per_second: DEFAULT_VIDEO_FPS },
    supports_end_frame: false,
    durations: [5],
  },
  {
    id: 'kling1.6_i2v',
    name: 'Kling 1.6 Pro',
    providerModelId: 'fal-ai/kling-video/v1.6/pro/image-to-video',
    credits_per_second: 100,
    extra_params: {},
    supports_end_frame: true,
    durations: [5, 10],
  },
  {
    id: 'kling2.0_i2v',
    name: 'Kling 2.0 Master',
    providerModelId: 'fal-ai/kling-video/v2/master/image-to-video',
    credits_per_second: 300,
    extra_params: {},
    supports_end_frame: false,
    durations: [5, 10],
  },
  {
    id: 'vidu_q1',
    name: 'Vidu Q1',
    providerModelId: 'fal-ai/vidu/q1/image-to-video',
    credits_per_second: 100,
    extra_params: {},
    supports_end_frame: false,
    durations: [5],
  },
];

/** The video model with this id, or undefined. */
export function findVideoModel(id: string): VideoModel | undefined {
  return VIDEO_MODELS.find((m) => m.id === id);
}
