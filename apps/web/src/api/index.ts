export { ApiError, isApiError, CLIENT_ERROR_CODES } from './ApiError.ts';
export { createHttpClient, withQuery } from './http.ts';
export type { FetchLike, HttpClient, HttpClientOptions, HttpMethod } from './http.ts';
export {
  api,
  createApi,
  createKomaApi,
  createWorkspaceOrEmpty,
  onSessionExpired,
  saveWorkspaceOrNull,
} from './endpoints.ts';
export type { KomaApi } from './endpoints.ts';
export type * from './types.ts';
export {
  DOWNLOAD_ATTEMPTS,
  DOWNLOAD_RETRY_DELAY_MS,
  SAMPLE_IMAGE_ID,
  SAMPLE_IMAGE_URL,
  DEMO_ID_PREFIX,
  bytesToBase64,
  downloadFromUrl,
  downloadWithRetry,
  loadImageById,
  loadImageBytesById,
  loadImageBlobById,
  loadScaledImageBlobById,
  resolveImageUrls,
  localImageUrl,
  readBodyWithProgress,
  toDataUrl,
} from './imageLoader.ts';
export type { DownloadedImage, ImageLoaderDeps, ProgressCallback } from './imageLoader.ts';
export {
  ImageCache,
  IMAGE_CACHE_BUDGET_BYTES,
  IMAGE_CACHE_BUDGET_PHONE_BYTES,
  imageCacheBudget,
  isPhoneScreen,
} from './imageCache.ts';
