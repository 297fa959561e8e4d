// Image downloads as generation.md §7–§8 describe them: GET /api/image?id= for a URL, then the bytes with
// progress, retried; a failed load by id is logged and yields ''. Dependencies are injected so tests control
// the network and the clock.
import type { FetchLike } from './http.ts';

export const DOWNLOAD_ATTEMPTS = 5;
export const DOWNLOAD_RETRY_DELAY_MS = 2000;
/** The fixed sample id: it loads the bundled wave picture without calling the API. */
export const SAMPLE_IMAGE_ID = 'sample-wave';
export const SAMPLE_IMAGE_URL = '/demo/sample-wave.svg';
/** Ids of the form `demo:{file}` load `{file}` from the bundled demo folder. */
export const DEMO_ID_PREFIX = 'demo:';
export const DEMO_FOLDER = '/demo/';

export type ProgressCallback = (loaded: number, total: number | null) => void;

export interface ImageLoaderDeps {
  fetch: FetchLike;
  sleep: (ms: number) => Promise<void>;
  log: (message: string, cause?: unknown) => void;
  baseUrl: string;
}

export interface DownloadedImage {
  bytes: Uint8Array;
  contentType: string;
}

const defaultDeps: ImageLoaderDeps = {
  fetch: (input, init) => fetch(input, init),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  log: (message, cause) => console.error(message, cause),
  baseUrl: '',
};

function resolveDeps(deps: Partial<ImageLoaderDeps> | undefined): ImageLoaderDeps {
  return { ...defaultDeps, ...deps };
}

/** Reads a response body chunk by chunk so a caller can show a progress bar; total is null without Content-Length. */
export async function readBodyWithProgress(response: Response, onProgress?: ProgressCallback): Promise<Uint8Array> {
  const header = response.headers.get('Content-Length');
  const parsed = header === null ? NaN : Number(header);
  const total = Number.isFinite(parsed) && parsed >= 0 ? parsed : null;
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    onProgress?.(bytes.byteLength, total ?? bytes.byteLength);
    return bytes;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress?.(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** One GET of an image, its body read by `read`; throws 'HTTP error! status: {code}' or 'Network error occurred'. */
async function fetchOnce<T>(url: string, deps: ImageLoaderDeps, read: (response: Response) => Promise<T>): Promise<T> {
  let response: Response;
  try {
    response = await deps.fetch(url, { method: 'GET' });
  } catch (cause) {
    throw new Error('Network error occurred', { cause });
  }
  if (!response.ok) throw new Error(`HTTP error! status: ${response.status}`);
  try {
    return await read(response);
  } catch (cause) {
    throw new Error('Network error occurred', { cause });
  }
}

/** One GET of an image as bytes, with progress. */
function downloadOnce(url: string, deps: ImageLoaderDeps, onProgress?: ProgressCallback): Promise<DownloadedImage> {
  return fetchOnce(url, deps, async (response) => ({
    bytes: await readBodyWithProgress(response, onProgress),
    contentType: response.headers.get('Content-Type') ?? 'application/octet-stream',
  }));
}

/** Tries `attempt` up to 5 times, 2,000 ms apart, logging each failure; then throws the spec's message. */
async function withRetry<T>(d: ImageLoaderDeps, attempt: () => Promise<T>): Promise<T> {
  let lastError: unknown;
  for (let n = 1; n <= DOWNLOAD_ATTEMPTS; n++) {
    try {
      return await attempt();
    } catch (error) {
      lastError = error;
      d.log(`Image download attempt ${n} of ${DOWNLOAD_ATTEMPTS} failed`, error);
      if (n < DOWNLOAD_ATTEMPTS) await d.sleep(DOWNLOAD_RETRY_DELAY_MS);
    }
  }
  throw new Error(`Failed to download image after ${DOWNLOAD_ATTEMPTS} attempts`, { cause: lastError });
}

/**
 * Downloads with up to 5 attempts, 2,000 ms apart. Each failed attempt is logged with its own message;
 * after the last one it throws 'Failed to download image after 5 attempts' (the last error as its cause).
 */
export async function downloadWithRetry(
  url: string,
  onProgress?: ProgressCallback,
  deps?: Partial<ImageLoaderDeps>,
): Promise<DownloadedImage> {
  const d = resolveDeps(deps);
  return withRetry(d, () => downloadOnce(url, d, onProgress));
}

/** The second loader: fetches a URL directly, once, failing with 'Failed to download image'. */
export async function downloadFromUrl(
  url: string,
  onProgress?: ProgressCallback,
  deps?: Partial<ImageLoaderDeps>,
): Promise<DownloadedImage> {
  const d = resolveDeps(deps);
  try {
    return await downloadOnce(url, d, onProgress);
  } catch (cause) {
    throw new Error('Failed to download image', { cause });
  }
}

export function bytesToBase64(bytes: Uint8Array): string {
  // String.fromCharCode over the whole array overflows the call stack on large images; go in slices.
  let binary = '';
  const slice = 0x8000;
  for (let i = 0; i < bytes.length; i += slice) {
    binary += String.fromCharCode(...bytes.subarray(i, i + slice));
  }
  return btoa(binary);
}

export function toDataUrl(image: DownloadedImage): string {
  const type = image.contentType.split(';')[0]?.trim() || 'application/octet-stream';
  return `data:${type};base64,${bytesToBase64(image.bytes)}`;
}

/** Where a bundled (non-API) image id lives, or null when the id must be resolved by the API. */
export function localImageUrl(id: string): string | null {
  if (id === SAMPLE_IMAGE_ID) return SAMPLE_IMAGE_URL;
  if (id.startsWith(DEMO_ID_PREFIX)) {
    const file = id.slice(DEMO_ID_PREFIX.length);
    // Only plain file names: a demo id must never walk out of the demo folder.
    if (/^[\w.-]+$/.test(file) && !file.startsWith('.')) return `${DEMO_FOLDER}${file}`;
  }
  return null;
}

async function resolveImageUrl(id: string, d: ImageLoaderDeps): Promise<string> {
  const local = localImageUrl(id);
  if (local !== null) return `${d.baseUrl}${local}`;
  const response = await d.fetch(`${d.baseUrl}/api/image?id=${encodeURIComponent(id)}`, {
    method: 'GET',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    credentials: 'same-origin',
  });
  if (!response.ok) throw new Error(`HTTP error! status: ${response.status}`);
  const body = (await response.json()) as { url?: unknown };
  if (typeof body.url !== 'string' || body.url === '') throw new Error('Image URL missing from /api/image');
  return body.url;
}

/**
 * Downloads a stored image by id as its bytes (the canvas decodes them straight into a bitmap, without the base64
 * round trip of a data URL). Any failure is logged as "Failed to load image" and yields null.
 */
export async function loadImageBytesById(
  id: string,
  onProgress?: ProgressCallback,
  deps?: Partial<ImageLoaderDeps>,
  /** Ids already resolved to their URL (an image's URL never changes), filled as ids are resolved. */
  urls?: Map<string, string>,
): Promise<DownloadedImage | null> {
  const d = resolveDeps(deps);
  try {
    const url = urls?.get(id) ?? (await resolveImageUrl(id, d));
    urls?.set(id, url);
    return await downloadWithRetry(url, onProgress, d);
  } catch (error) {
    d.log('Failed to load image', error);
    return null;
  }
}

/** Ids one POST /api/image/urls may resolve (the server's limit). */
export const IMAGE_URLS_MAX = 1000;

/**
 * Resolves many stored image ids to their URLs with POST /api/image/urls, a call beside the spec's one-id
 * GET /api/image?id= (docs/decisions/web.md): the editor asks once for every picture of a document, so each picture
 * is then one request. Bundled (demo) ids are answered locally; ids the server does not know are left out (their
 * one-id lookup then fails as before). Throws on an HTTP or network error.
 */
export async function resolveImageUrls(
  ids: Iterable<string>,
  deps?: Partial<ImageLoaderDeps>,
): Promise<Map<string, string>> {
  const d = resolveDeps(deps);
  const urls = new Map<string, string>();
  const remote: string[] = [];
  for (const id of new Set(ids)) {
    const local = localImageUrl(id);
    if (local !== null) urls.set(id, `${d.baseUrl}${local}`);
    else remote.push(id);
  }
  for (let i = 0; i < remote.length; i += IMAGE_URLS_MAX) {
    const response = await d.fetch(`${d.baseUrl}/api/image/urls`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({ ids: remote.slice(i, i + IMAGE_URLS_MAX) }),
    });
    if (!response.ok) throw new Error(`HTTP error! status: ${response.status}`);
    const body = (await response.json()) as { urls?: Record<string, unknown> };
    for (const [id, url] of Object.entries(body.urls ?? {})) if (typeof url === 'string' && url) urls.set(id, url);
  }
  return urls;
}

/**
 * Downloads a stored image by id as a Blob (typed by the response), for createImageBitmap or an ImageDecoder: the
 * body is never copied into script memory, where reading it as bytes and wrapping them in a Blob again cost a
 * chapter's page switch about 25 ms of main thread in a CPU profile of the chapter benchmark. Retried and logged as
 * `loadImageBytesById`; null on failure.
 */
export async function loadImageBlobById(
  id: string,
  deps?: Partial<ImageLoaderDeps>,
  urls?: Map<string, string>,
): Promise<Blob | null> {
  const d = resolveDeps(deps);
  try {
    const url = urls?.get(id) ?? (await resolveImageUrl(id, d));
    urls?.set(id, url);
    return await withRetry(d, () => fetchOnce(url, d, (response) => response.blob()));
  } catch (error) {
    d.log('Failed to load image', error);
    return null;
  }
}

/**
 * The URL of a stored picture's copy scaled to fit `side` (GET /api/images/{id}/scaled/{side}), or null for a picture
 * served from elsewhere (the bundled demo and sample pictures), which has none.
 */
export function scaledImageUrl(url: string, side: number): string | null {
  return /\/api\/images\/[A-Za-z0-9_-]+$/.test(url) ? `${url}/scaled/${side}` : null;
}

/**
 * Downloads a stored picture's copy scaled to fit `side` (`scaled`), or the whole picture when it has no such copy
 * (`scaled: false`); as `loadImageBlobById` otherwise (a Blob, retried, null on failure).
 */
export async function loadScaledImageBlobById(
  id: string,
  side: number,
  deps?: Partial<ImageLoaderDeps>,
  urls?: Map<string, string>,
): Promise<{ blob: Blob; scaled: boolean } | null> {
  const d = resolveDeps(deps);
  try {
    const url = urls?.get(id) ?? (await resolveImageUrl(id, d));
    urls?.set(id, url);
    const scaled = scaledImageUrl(url, side);
    const blob = await withRetry(d, () => fetchOnce(scaled ?? url, d, (response) => response.blob()));
    return { blob, scaled: scaled !== null };
  } catch (error) {
    d.log('Failed to load image', error);
    return null;
  }
}

/**
 * Loads a stored image by id as a data URL (bytes → base64). Any failure is logged as "Failed to load image"
 * and yields '' so a caller can drop just that variation.
 */
export async function loadImageById(
  id: string,
  onProgress?: ProgressCallback,
  deps?: Partial<ImageLoaderDeps>,
): Promise<string> {
  const image = await loadImageBytesById(id, onProgress, deps);
  return image ? toDataUrl(image) : '';
}
