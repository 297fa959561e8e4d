// What a job kind declares beyond its domain operation (packages/domain/src/generation/operations): where it runs
// and how. The steps every kind shares (parse → moderate → check access → price → store inputs, then run → store
// outputs) are written once in pipeline.ts; a handler only fills in `target` and `run`.
import type { NormalizedRequest, OperationKind } from '@koma/domain';
import type { EngineProgress, EngineResult, EngineTask } from '../../engines/types.ts';
import type { JobDeps } from '../deps.ts';

/** Which engine runs a job and in which worker lane (concurrency is per lane). */
export interface Target {
  engine: string;
  lane: string;
}

/** A job as its handler sees it while running. */
export interface RunningJob {
  id: string;
  userId: string;
  kind: string;
  engine: string;
  inputs: unknown;
}

export type Report = (progress: EngineProgress) => void;

/** What a running handler may use: its job, progress, cancellation, stored images and the engines. */
export interface RunContext {
  readonly deps: JobDeps;
  readonly job: RunningJob;
  readonly report: Report;
  readonly signal: AbortSignal;
  /** The bytes of one of the user's stored images (an input stored at submit). */
  load(imageId: string): Promise<Buffer>;
  /**
   * Runs a task on the engine the router picks for it. A diffusion task counts steps × images as its units of
   * work for the estimate, unless the handler said otherwise with `expect`.
   */
  engine(task: EngineTask): Promise<EngineResult>;
  /** How many units of work the job has (tiles, steps × images): its time estimate is sent from this. */
  expect(units: number): void;
}

/** What a flow image records about the generation behind it (editor.md §3). */
export interface GenerationData {
  prompt: string;
  negative_prompt: string;
  seed: number;
  image_size: { width: number; height: number };
  model_name: string;
  num_inference_steps: number;
  guidance_scale: number;
  [key: string]: unknown;
}

/** The recipe stored with each generated image (flow images, editor.md §3): what produced it. */
export type Recipe = Omit<GenerationData, 'seed' | 'image_size'>;

/**
 * What a run produced: generated images, which the pipeline stores as the user's flow images with their recipe
 * (the output is then `{ images }`), or an output of its own (a video, faces, prompts, one processed image).
 */
export type Produced = { images: EngineResult; recipe: Recipe } | { output: unknown };

/** One entry of the job registry: the operation it serves, where it runs and how. */
export interface JobHandler<K extends OperationKind> {
  readonly kind: K;
  /** The engine and lane, decided at submit from the request (400 when no configured engine can run it). */
  target(deps: JobDeps, request: NormalizedRequest<K>): Target;
  /**
   * Refuses, before anything is charged, a request whose stored inputs cannot work (an image too large for the
   * operation); throws HttpError. Runs after the inputs are stored, so it can read them.
   */
  admit?(deps: JobDeps, userId: string, request: NormalizedRequest<K>): Promise<void>;
  /** Runs the job from its stored inputs (images are stored ids, loaded through `ctx.load`). */
  run(ctx: RunContext, request: NormalizedRequest<K>): Promise<Produced>;
}

/** Any handler, whatever its kind. */
export type AnyJobHandler = { [K in OperationKind]: JobHandler<K> }[OperationKind];

/** Types a handler by its kind (the identity). */
export function defineHandler<K extends OperationKind>(handler: JobHandler<K>): JobHandler<K> {
  return handler;
}
