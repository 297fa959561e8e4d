/** Public surface of the engine layer, for the job queue. */
export type {
  Box,
  BrushTask,
  ControlNetInput,
  DiffusionParams,
  EditModelId,
  EditTask,
  Engine,
  EngineEvents,
  EngineId,
  EngineImage,
  EngineProbe,
  EngineProbeTarget,
  EngineProgress,
  EngineResult,
  EngineTask,
  EngineVideo,
  FaceEnhanceTask,
  Img2ImgTask,
  InpaintTask,
  IpAdapterInput,
  LoraRef,
  ModelRef,
  OutpaintTask,
  Padding,
  RegionalTask,
  TaskKind,
  Txt2ImgTask,
  UpscaleTask,
  VideoModelId,
  VideoTask,
} from './types.ts';
export { taskModelId, taskModelType } from './types.ts';
export { EngineError } from './errors.ts';
export type { EngineErrorCode } from './errors.ts';
export {
  DEFAULT_ENGINE_CONFIG,
  EngineConfigError,
  loadEngineConfig,
  parseEngineConfig,
  zEngineConfig,
} from './config.ts';
export type { EngineConfig } from './config.ts';
export { createEngineRouter } from './router.ts';
export type { ConfiguredEngineRouter, EngineRouter } from './router.ts';
export { BuiltinEngine } from './builtin/engine.ts';
export { ComfyUiEngine } from './comfyui/engine.ts';
export type { ComfyServerReport } from './comfyui/engine.ts';
export { FalEngine } from './fal/engine.ts';
export { OpenAiEngine } from './openai/engine.ts';
export { engineReachability } from './reachability.ts';
export type { EngineReachability, ReachabilityOptions } from './reachability.ts';
