import type { Database, DatabaseDialect } from '../db/database.ts';
import type { EngineRouter } from '../engines/router.ts';
import type { ImageStore } from '../services/image-store.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { Bbox, Detection, FaceCrop, FaceCropSize, PoseResult, Progress } from '../vision/index.ts';
import type { JobConfig } from './config.ts';
import type { EstimateBook } from './estimates.ts';

/** The vision operations jobs call (vision/index.ts); a seam so tests can count or fail them. */
export interface VisionOps {
  detectFaces(image: Uint8Array): Promise<Detection[]>;
  faceAt(faces: readonly Detection[], index: number): Detection;
  cropFace(image: Uint8Array, bbox: Bbox, size: FaceCropSize): Promise<FaceCrop>;
  estimatePose(image: Uint8Array): Promise<PoseResult>;
  removeBackground(image: Uint8Array, onProgress?: Progress, signal?: AbortSignal): Promise<Buffer>;
  upscale(image: Uint8Array, onProgress?: Progress, signal?: AbortSignal): Promise<Buffer>;
}

/** Where the pipeline writes a line for every failed job (pino's shape; the HTTP app passes its logger). */
export interface JobLog {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/** What running and preparing jobs needs; built by the HTTP app and by each worker process alike. */
export interface JobDeps {
  db: Database;
  dialect: DatabaseDialect;
  images: ImageStore;
  blobs: BlobStore;
  router: EngineRouter;
  vision: VisionOps;
  config: JobConfig;
  now: () => Date;
  log: JobLog;
  /** Learned job durations of this process (estimates.ts). */
  estimates: EstimateBook;
}
