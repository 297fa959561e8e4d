import { pino } from 'pino';
import type { DatabaseHandle } from '../db/database.ts';
import { createEngineRouter, loadEngineConfig, type EngineRouter } from '../engines/index.ts';
import type { ImageStore } from '../services/image-store.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import * as vision from '../vision/index.ts';
import { loadJobConfig, type JobConfig } from './config.ts';
import type { JobDeps, JobLog, VisionOps } from './deps.ts';
import { EstimateBook } from './estimates.ts';
import { JobService } from './service.ts';

export { JobService } from './service.ts';
export type { JobConfig } from './config.ts';
export type { JobDeps, JobLog, VisionOps } from './deps.ts';

/** Seams for tests and embedding: the job settings, the engine router and the vision operations. */
export interface JobOptions {
  config?: Partial<JobConfig>;
  router?: EngineRouter;
  vision?: VisionOps;
  /** Where failed jobs are logged (the HTTP app passes its own logger). */
  log?: JobLog;
}

/** Pino at LOG_LEVEL: the log of a pipeline built without a logger (the worker passes its own). */
export const defaultJobLog: JobLog = pino({ level: process.env.LOG_LEVEL ?? 'info' });

/** The real vision operations (vision/index.ts). */
export const realVision: VisionOps = {
  detectFaces: (image) => vision.detectFaces(image),
  faceAt: (faces, index) => vision.faceAt(faces, index),
  cropFace: (image, bbox, size) => vision.cropFace(image, bbox, size),
  estimatePose: (image) => vision.estimatePose(image),
  removeBackground: (image, onProgress, signal) => vision.removeBackground(image, onProgress, signal),
  upscale: (image, onProgress, signal) => vision.upscale(image, onProgress, signal),
};

/** Builds the job dependencies from the server's pieces (the HTTP app and `npm run worker` alike). */
export function createJobDeps(
  parts: { database: DatabaseHandle; images: ImageStore; blobs: BlobStore; now: () => Date },
  options: JobOptions = {},
): JobDeps {
  const config = { ...loadJobConfig(), ...options.config };
  // A redisUrl given without runLocally decides it, as REDIS_URL does in the environment.
  if (options.config && 'redisUrl' in options.config && options.config.runLocally === undefined) {
    config.runLocally = config.redisUrl === undefined;
  }
  return {
    db: parts.database.db,
    dialect: parts.database.dialect,
    images: parts.images,
    blobs: parts.blobs,
    router: options.router ?? createEngineRouter(loadEngineConfig()),
    vision: options.vision ?? realVision,
    config,
    now: parts.now,
    log: options.log ?? defaultJobLog,
    estimates: new EstimateBook(),
  };
}

export function createJobService(
  parts: { database: DatabaseHandle; images: ImageStore; blobs: BlobStore; now: () => Date },
  options: JobOptions = {},
): JobService {
  return new JobService(createJobDeps(parts, options));
}
