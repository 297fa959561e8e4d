// The vision operations: upscale, background removal, pose estimation and face detection. They read no prompt.
import { costOf } from '../costs.ts';
import {
  zFaceDetectionRequest,
  zImageOnlyRequest,
  zUpscaleRequest,
  type FaceDetectionRequest,
  type ImageOnlyRequest,
  type UpscaleRequest,
} from '../requests/other-requests.ts';
import { defineOperation, type StoreImage } from './define.ts';

const noPrompts = () => [];
const storeImage = async <R extends { image: string }>(r: R, store: StoreImage): Promise<R> => ({
  ...r,
  image: await store(r.image, 'image'),
});

/** Upscale an image ×2 (POST /api/upscale). */
export const upscale = defineOperation({
  kind: 'upscale',
  endpoint: '/api/upscale',
  schema: zUpscaleRequest,
  normalize: (r: UpscaleRequest) => r,
  price: () => costOf({ kind: 'upscale' }),
  prompts: noPrompts,
  storeImages: storeImage,
  // ×2 runs on Koma's own upscaler; other factors go to an engine.
  engineKey: (r) => (r.scale === 2 ? null : { task: 'upscale', model: '' }),
});

/** Remove an image's background (POST /api/background). */
export const background = defineOperation({
  kind: 'background',
  endpoint: '/api/background',
  schema: zImageOnlyRequest,
  normalize: (r: ImageOnlyRequest) => r,
  price: () => costOf({ kind: 'background' }),
  prompts: noPrompts,
  storeImages: storeImage,
});

/** Estimate the pose of the people in an image (POST /api/pose); free. */
export const pose = defineOperation({
  kind: 'pose',
  endpoint: '/api/pose',
  schema: zImageOnlyRequest,
  normalize: (r: ImageOnlyRequest) => r,
  price: () => costOf({ kind: 'pose' }),
  prompts: noPrompts,
  storeImages: storeImage,
});

/** Find the faces of an image (POST /api/face_detection); free. */
export const faceDetection = defineOperation({
  kind: 'face_detection',
  endpoint: '/api/face_detection',
  schema: zFaceDetectionRequest,
  normalize: (r: FaceDetectionRequest) => r,
  price: () => costOf({ kind: 'face_detection' }),
  prompts: noPrompts,
  async storeImages(r, store) {
    return { ...r, variationId: await store(r.variationId, 'variationId') };
  },
});
