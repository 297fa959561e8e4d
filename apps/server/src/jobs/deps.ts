import type { Database, DatabaseDialect } from '../db/database.ts';
import type { EngineRouter } from '../engines/router.ts';
import type { ImageStore } from '../services/image-store.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { Bbox, Detection, FaceCrop, FaceCropSize, PoseResult, Progress } from '../vision/index.ts';
import type { JobConfig } from './config.ts';

/** The vision operations jobs call (vision/index.ts); a seam so tests can count or fail them. */
export interface VisionOps {
  detectFaces(image: Uint8Array): Promise<Detection[]>;
  faceAt(faces: readonly Detection[], index: number): Detection;
  cropFace(image: Uint8Array, bbox: Bbox, size: FaceCropSize): Promise<FaceCrop>;
  estimatePose(image: Uint8Array): Promise<PoseResult>;
  removeBackground(image: Uint8Array, onProgress?: Progress, signal?: AbortSignal): Promise<Buffer>;
  upscale(image: Uint8Array, onProgress?: Progress, signal?: AbortSignal): Promise<Buffer>;
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
}
