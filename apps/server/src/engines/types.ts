/**
 * The one interface between the job queue and every image/video engine.
 *
 * A task is fully resolved before it reaches an engine: the seed is concrete (the queue turns -1 into a random seed),
 * lightning overrides are already applied to steps/cfg, and quality tags are already merged into the prompts.
 * Engines never see request JSON, only these shapes.
 */

export type EngineId = 'builtin' | 'comfyui' | 'fal' | 'openai';

/** A catalogue entry reduced to what engines need (kept local so engines do not depend on the catalogue module). */
export interface ModelRef {
  id: string;
  /** Checkpoint file name for ComfyUI, HF id or endpoint hint for hosted engines. */
  path: string;
  modelType: string;
}

export interface LoraRef {
  /** File name as installed on a ComfyUI worker (`loras/` folder). */
  name: string;
  /** Download URL; hosted engines (fal) load LoRAs by URL. */
  url?: string;
  strength: number;
}

export type ControlNetModel = 'controlnet-openpose' | 'controlnet-anytest';

export interface ControlNetInput {
  model: ControlNetModel;
  image: Buffer;
  strength: number;
}

export interface IpAdapterInput {
  image: Buffer;
  strength: number;
}

/** Fields shared by every diffusion task (the spec's generation parameters). */
export interface DiffusionParams {
  model: ModelRef;
  prompt: string;
  negativePrompt: string;
  steps: number;
  cfg: number;
  /** Concrete seed, 0..2147483646. Image i of a batch uses seed + i where the engine can honour it. */
  seed: number;
  numImages: number;
  loras: LoraRef[];
  controlnets?: ControlNetInput[];
  ipAdapter?: IpAdapterInput;
}

export interface Txt2ImgTask extends DiffusionParams {
  kind: 'txt2img';
  width: number;
  height: number;
}

export interface Img2ImgTask extends DiffusionParams {
  kind: 'img2img';
  width: number;
  height: number;
  image: Buffer;
  /** 0 keeps the input, 1 ignores it. */
  strength: number;
}

export interface InpaintTask extends DiffusionParams {
  kind: 'inpaint';
  image: Buffer;
  /** Greyscale (or RGB, red channel read): white = change, black = keep. Resized to the image if it differs. */
  mask: Buffer;
  strength: number;
  /** Mask blur in pixels (spec default 10). */
  maskBlur: number;
}

export interface Padding {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface OutpaintTask extends DiffusionParams {
  kind: 'outpaint';
  image: Buffer;
  padding: Padding;
  /** Fraction of the original blended into the new area (spec default 0.05). */
  overlap: number;
  /** Feather width in pixels (spec default 20). */
  blur: number;
}

export interface FaceEnhanceTask extends DiffusionParams {
  kind: 'face_enhance';
  /** The enhance crop (spec: 1024x1024), cut out and pasted back by the caller. */
  image: Buffer;
  mask: Buffer;
  /** Spec default 0.5. */
  strength: number;
  maskBlur: number;
}

/** A rectangle of the canvas in pixels, x1/y1 exclusive. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Regional prompting: the task's prompt paints the whole canvas, each region's prompt its box. */
export interface RegionalTask extends DiffusionParams {
  kind: 'regional';
  width: number;
  height: number;
  regions: (Box & { prompt: string; negativePrompt: string })[];
}

/** Brush-based generation (spec "smd"): the task's prompt is the background, each brush paints its own mask. */
export interface BrushTask extends DiffusionParams {
  kind: 'smd';
  width: number;
  height: number;
  /** Masks as in InpaintTask (white = this brush), stretched to the canvas. */
  brushes: { prompt: string; negativePrompt: string; mask: Buffer }[];
}

export type EditModelId = 'kontext-dev' | 'kontext-pro' | 'kontext-max' | 'nano-banana';

export interface EditTask {
  kind: 'edit';
  model: EditModelId;
  prompt: string;
  image: Buffer;
  mask?: Buffer;
  seed: number;
}

export interface UpscaleTask {
  kind: 'upscale';
  image: Buffer;
  scale: number;
}

export type VideoModelId = 'wan22_i2v' | 'wan_i2v' | 'kling1.6_i2v' | 'kling2.0_i2v' | 'vidu_q1';

export interface VideoTask {
  kind: 'video';
  model: VideoModelId;
  prompt: string;
  negativePrompt?: string;
  image: Buffer;
  endImage?: Buffer;
  durationSeconds: number;
  seed: number;
}

export type EngineTask =
  | Txt2ImgTask
  | Img2ImgTask
  | InpaintTask
  | OutpaintTask
  | FaceEnhanceTask
  | RegionalTask
  | BrushTask
  | EditTask
  | UpscaleTask
  | VideoTask;

export type TaskKind = EngineTask['kind'];

export interface EngineProgress {
  /** Human log lines; a sampler step is reported as `Progress: n/m` (spec §4 parses that prefix). */
  logs?: string[];
  /** 0..1 when the engine knows it. */
  progress?: number;
  /** Jobs ahead of this one on the engine's own queue (0 = next), while it waits. */
  queuePosition?: number;
  preview?: { bytes: Buffer; mime: string };
}

export interface EngineEvents {
  onProgress(event: EngineProgress): void;
}

export interface EngineImage {
  bytes: Buffer;
  mime: string;
  width: number;
  height: number;
  seed: number;
}

export interface EngineVideo {
  bytes: Buffer;
  mime: string;
}

export interface EngineResult {
  images: EngineImage[];
  videos?: EngineVideo[];
  metadata: { engine: EngineId; model: string; note?: string };
}

export interface Engine {
  readonly id: EngineId;
  /** True when this engine, as configured, can run the task (model family and kind). */
  supports(task: EngineTask): boolean;
  /** Runs the task to completion; rejects with an EngineError (code `cancelled` once `signal` aborts). */
  run(task: EngineTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult>;
  /** A cheap check that the engine answers (no job, no charge); engines without a remote end leave it out. */
  probe?(signal: AbortSignal): Promise<EngineProbe>;
}

/** Why a probe failed: the job failure codes an engine that cannot be used would fail with. */
export type EngineProbeCode = 'engine_unreachable' | 'engine_auth' | 'timeout' | 'engine_failed';

/** One remote end's answer to a probe (a ComfyUI server, or the hosted API itself). */
export interface EngineProbeTarget {
  url: string;
  reachable: boolean;
  code?: EngineProbeCode;
  detail?: string;
}

/** Reachable when the engine can take a job now: some ComfyUI server answers, the hosted API answers. */
export interface EngineProbe {
  reachable: boolean;
  code?: EngineProbeCode;
  detail?: string;
  targets: EngineProbeTarget[];
}

/** The model id a task names, whatever its kind (catalogue id, edit model or video model); upscale has none. */
export function taskModelId(task: EngineTask): string | undefined {
  switch (task.kind) {
    case 'edit':
    case 'video':
      return task.model;
    case 'upscale':
      return undefined;
    default:
      return task.model.id;
  }
}

export function taskModelType(task: EngineTask): string | undefined {
  return 'model' in task && typeof task.model === 'object' ? task.model.modelType : undefined;
}
