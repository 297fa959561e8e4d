import { SCALED_IMAGE_SIDES } from '@koma/domain';
import { jpegSize, scaledDecodeSize } from '@koma/editor';
import {
  ImageCache,
  imageCacheBudget,
  loadImageBlobById,
  loadScaledImageBlobById,
  resolveImageUrls,
} from '../api/index.ts';
import { DownloadShelf } from './download-shelf.ts';

/**
 * A decoded picture. An ImageBitmap, not an <img>: createImageBitmap decodes off the main thread and the bitmap
 * stays decoded, where an <img> may drop its pixels and decode again, on the main thread, when a canvas draws it.
 */
export type DecodedImage = ImageBitmap;

type Entry = { status: 'loading' } | { status: 'failed' };

/** What the cache holds: a picture at full size (keyed by its id) or scaled down (keyed `id@level`). */
type Held = ImageBitmap | HTMLCanvasElement;

/** The longest side of a scaled copy for a picture drawn `side` pixels wide on screen: a power of two, at least 64. */
export function levelFor(side: number): number {
  return Math.max(64, 2 ** Math.ceil(Math.log2(Math.max(1, side))));
}

const scaledKey = (id: string, level: number) => `${id}@${level}`;

/**
 * The server's scaled copy that serves `level` (the smallest kept side at least that), or null when the view needs
 * more than the largest: then the whole picture is downloaded and decoded at the level.
 */
export function servedSideFor(level: number): number | null {
  return SCALED_IMAGE_SIDES.find((side) => side >= level) ?? null;
}

type Served = { blob: Blob; scaled: boolean } | null;

/** Downloads kept waiting for their decode: four pages of ten pictures fetched ahead. */
const DOWNLOADS_KEPT = 40;

/** How much of a JPEG is read to find its size before decoding it scaled (its header, EXIF included, is smaller). */
const JPEG_HEAD_BYTES = 64 * 1024;

/**
 * Diagnostic override of the decoded-image budget, in MiB (browser specs set a small one to watch eviction work;
 * docs/how-it-works/chapter-memory.md). Ignored unless a positive number.
 */
export const IMAGE_BUDGET_STORAGE_KEY = 'koma.imageBudgetMiB';

function defaultBudget(): number {
  const override = Number(globalThis.localStorage?.getItem(IMAGE_BUDGET_STORAGE_KEY) ?? NaN);
  if (Number.isFinite(override) && override > 0) return override * 1024 * 1024;
  return imageCacheBudget(window.innerWidth, window.innerHeight);
}

/** Refused images waiting for their `get`: a page's worth at most. */
const HANDOFF_LIMIT = 10;

export interface ImageStoreStats {
  budgetBytes: number;
  bytesUsed: number;
  peakBytes: number;
  pinnedBytes: number;
  images: number;
  evicted: number;
  loading: number;
}

/**
 * Decoded images for the canvas, by image id: loaded once through the shared loader, kept in an LRU cache with a
 * memory budget, and announced to listeners when they arrive. Whoever draws pins what it draws (the view pins the
 * open page and its neighbours, an export the page it is drawing) so the budget never takes an image from under it.
 *
 * A view seen from afar asks for pictures at the size it draws them (`getScaled`): a JPEG is then decoded straight at
 * that size, off the main thread, and the full-size picture is only decoded for whoever asks for it (`get`: zoomed
 * in, an export, a thumbnail). Full-size and scaled copies share the one budget.
 */
export class ImageStore {
  private readonly cache: ImageCache<Held>;
  /** Loads under way or failed, by cache key (an id, or `id@level` for a scaled decode); failures by id. */
  private readonly pending = new Map<string, Entry>();
  /**
   * Images decoded but refused by the cache (no room beside the pinned ones): handed to the next `get` once, so a
   * request for an unpinned image is answered instead of reloading it forever.
   */
  private readonly handoff = new Map<string, Held>();
  private readonly listeners = new Set<(id: string) => void>();
  /** Image URLs by id: an evicted image coming back is downloaded again (from the HTTP cache) without asking for it. */
  private readonly urls = new Map<string, string>();
  /**
   * Downloads under way or done and not yet decoded, by id: a full and a scaled decode of one picture share one
   * download, and a picture fetched ahead (`fetchAhead`) waits here for its decode. At most `DOWNLOADS_KEPT`.
   */
  private readonly downloads = new DownloadShelf<Blob | null>(DOWNLOADS_KEPT);
  /** Like `downloads`, for the server's scaled copies, by `id@side`. */
  private readonly servedDownloads = new DownloadShelf<Served>(DOWNLOADS_KEPT);
  /** URL lookups of many ids at once under way, by id (`resolveUrls`). */
  private readonly resolving = new Map<string, Promise<void>>();
  /** The scaled level the view last asked for, by id (what `settled` waits for). */
  private readonly wanted = new Map<string, number>();
  /** Scaled levels held, by id (so pinning an id pins its scaled copies). */
  private readonly levels = new Map<string, Set<number>>();
  /** Ids the view asked for and that are not here, to load once its synchronous work is done (`startAsked`). */
  private readonly asked = new Set<string>();
  /** Ids pinned, by owner. */
  private readonly pinned = new Map<string, ReadonlySet<string>>();

  constructor(budgetBytes = defaultBudget()) {
    this.cache = new ImageCache<Held>(budgetBytes, (key) => this.forget(key));
  }

  /** The image at full size if it is ready; otherwise starts loading it and returns null. */
  get(id: string): DecodedImage | null {
    const cached = this.cache.get(id);
    if (cached) return cached as DecodedImage;
    const handed = this.handoff.get(id);
    if (handed) {
      this.handoff.delete(id);
      return handed as DecodedImage;
    }
    if (!this.pending.has(id)) void this.load(id);
    return null;
  }

  /**
   * Starts loading images not yet here, without marking those that are as recently used: at the scaled level for
   * `side` pixels on screen when one is given for the id (what the view will ask for), else at full size.
   */
  prefetch(ids: Iterable<string>, sides?: ReadonlyMap<string, number>): void {
    for (const id of ids) {
      const side = sides?.get(id);
      if (side === undefined) {
        if (!this.cache.has(id) && !this.pending.has(id)) void this.load(id);
        continue;
      }
      const level = levelFor(side);
      this.wanted.set(id, level);
      if (!this.drawable(id, level)) this.startScaled(id, level);
    }
  }

  /**
   * Resolves the URLs of `ids` not known yet in one call (POST /api/image/urls), so that loading each of them is then
   * a single request; a load that starts meanwhile waits for it. If the call fails, each id is looked up alone, as
   * before.
   */
  resolveUrls(ids: Iterable<string>): void {
    const unknown = [...new Set(ids)].filter((id) => !this.urls.has(id) && !this.resolving.has(id));
    if (unknown.length === 0) return;
    const done = resolveImageUrls(unknown)
      .then((found) => {
        for (const [id, url] of found) this.urls.set(id, url);
      })
      .catch((error: unknown) => console.warn('Image URLs could not be resolved at once; one by one instead', error))
      .finally(() => {
        for (const id of unknown) this.resolving.delete(id);
      });
    for (const id of unknown) this.resolving.set(id, done);
  }

  /**
   * Starts downloading (not decoding) pictures about to be needed, once the caller's synchronous work is over (so the
   * open page's own downloads are asked for first): turning to the next page then finds its bytes here and only
   * decodes them. Not at fetch priority `low`: Chrome then sent them one at a time, and a page turned to before its
   * bytes had arrived waited for that queue (p95 207–300 ms against 169–193 ms in the benchmark). With the pictures'
   * sizes on screen (`sidesOf`), what is downloaded is the server's scaled copy the view will draw, when one serves.
   */
  fetchAhead(ids: Iterable<string>, sidesOf?: () => ReadonlyMap<string, number>): void {
    const wanted = [...ids];
    queueMicrotask(() => {
      // The sizes too are read then: the editor opens at the stored view and fits the page in the same task.
      const sides = sidesOf?.();
      for (const id of wanted) {
        const side = sides?.get(id);
        const level = side === undefined ? this.wanted.get(id) : levelFor(side);
        const ready = level === undefined ? this.cache.has(id) : this.drawable(id, level);
        if (ready || this.pending.get(id)?.status === 'failed') continue;
        // The server's scaled copy when the view will draw one (what `loadScaled` then decodes), else the picture.
        const served = level === undefined ? null : servedSideFor(level);
        if (served !== null) void this.downloadServed(id, served);
        else if (!this.downloads.has(id)) void this.download(id);
      }
    });
  }

  /**
   * Whether every one of `ids` is ready to draw (or failed), nothing left loading: at the level the view last asked
   * for (`getScaled`, `prefetch` with a side), else at full size.
   */
  settled(ids: Iterable<string>): boolean {
    for (const id of ids) {
      if (this.pending.get(id)?.status === 'failed') continue;
      const level = this.wanted.get(id);
      if (!(level === undefined ? this.cache.has(id) : this.drawable(id, level))) return false;
    }
    return true;
  }

  /** Replaces the images `owner` keeps from eviction (see ImageCache.pin), scaled copies included. */
  pin(owner: string, ids: Iterable<string>): void {
    const set = new Set(ids);
    if (set.size === 0) this.pinned.delete(owner);
    else this.pinned.set(owner, set);
    this.cache.pin(owner, this.keysOf(set));
  }

  unpin(owner: string): void {
    this.pin(owner, []);
  }

  /** Whether the full-size image of `id` is held (decoded and cached). */
  holds(id: string): boolean {
    return this.cache.has(id);
  }

  /**
   * Lets go of the full-size images of `ids`; their scaled copies stay. An export decodes each page's pictures whole
   * and needs them no more once the page is read back: left in the cache they would fill the whole budget (512 MiB)
   * and evict the view's small copies of the chapter on the way. Even the view's pinned pages lose their whole
   * pictures (it draws them from their scaled copies, which stay), but only unpinned bitmaps are closed, so their
   * memory goes now rather than at the main thread's next garbage collection: nobody else draws them (the view draws
   * only what it pins), and a pinned one the view may hold goes when the view lets it go.
   */
  release(ids: Iterable<string>): void {
    for (const id of ids) {
      const image = this.cache.get(id) ?? this.handoff.get(id);
      this.cache.delete(id);
      this.handoff.delete(id);
      if (image instanceof ImageBitmap && !this.cache.isPinned(id)) image.close();
    }
  }

  stats(): ImageStoreStats {
    return {
      budgetBytes: this.cache.budgetBytes,
      bytesUsed: this.cache.bytesUsed,
      peakBytes: this.cache.peakBytes,
      pinnedBytes: this.cache.pinnedBytes,
      images: this.cache.size,
      evicted: this.cache.evicted,
      loading: this.loadingIds().length,
    };
  }

  /**
   * The image scaled down to fit `side` pixels on its longest side (`levelFor`), so a page seen from afar draws
   * small bitmaps instead of full-size ones. Made from the full-size image when it is here; otherwise decoded at that
   * size (JPEG; other formats decode whole, then shrink). The full image is returned while it is small enough.
   * The view's requests (`forView`) set what `settled` waits for; a picture's (the dashboard thumbnail) do not.
   */
  getScaled(id: string, side: number, forView = true): ImageBitmap | HTMLCanvasElement | null {
    const level = levelFor(side);
    if (forView) this.wanted.set(id, level);
    const full = this.cache.get(id) ?? this.handoff.get(id);
    if (!full) {
      const decoded = this.cache.get(scaledKey(id, level));
      if (decoded) return decoded;
      if (!forView) this.startScaled(id, level);
      else {
        // Started once the caller's synchronous work is over, and only if the view still wants that size: opening
        // the editor or a page draws once at the stored view before fitting the page, and those sizes are never seen.
        this.asked.add(id);
        if (this.asked.size === 1) queueMicrotask(() => this.startAsked());
      }
      return null;
    }
    const longest = Math.max(full.width, full.height);
    if (level >= longest) return full;
    const key = scaledKey(id, level);
    const held = this.cache.get(key);
    if (held) return held;
    const ratio = level / longest;
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(full.width * ratio));
    canvas.height = Math.max(1, Math.round(full.height * ratio));
    const context = canvas.getContext('2d');
    if (!context) return full;
    context.imageSmoothingQuality = 'high';
    context.drawImage(full, 0, 0, canvas.width, canvas.height);
    this.hold(key, id, level, canvas);
    return canvas;
  }

  /**
   * A decoded copy of `id` already held, without loading anything or marking it used: the smallest whose longest
   * side reaches `side`, else the largest (the full picture counts). For the layer list's thumbnail, which draws from
   * what the view decoded instead of asking the server for a thumbnail of its own.
   */
  peek(id: string, side: number): ImageBitmap | HTMLCanvasElement | null {
    const copies: Held[] = [];
    const full = this.cache.peek(id) ?? this.handoff.get(id);
    if (full) copies.push(full);
    for (const level of this.levels.get(id) ?? []) {
      const copy = this.cache.peek(scaledKey(id, level)) ?? this.handoff.get(scaledKey(id, level));
      if (copy) copies.push(copy);
    }
    const longest = (image: Held) => Math.max(image.width, image.height);
    copies.sort((a, b) => longest(a) - longest(b));
    return copies.find((image) => longest(image) >= side) ?? copies.at(-1) ?? null;
  }

  /** Whether a decode of `id` is under way or asked for (the view drew it and it will arrive: `onLoad`). */
  expecting(id: string): boolean {
    if (this.asked.has(id)) return true;
    for (const [key, entry] of this.pending) {
      if (entry.status === 'loading' && (key === id || key.startsWith(`${id}@`))) return true;
    }
    return false;
  }

  failed(id: string): boolean {
    return this.pending.get(id)?.status === 'failed';
  }

  /** Ids still loading (at any size). */
  loadingIds(): string[] {
    const ids = new Set<string>();
    for (const [key, entry] of this.pending) if (entry.status === 'loading') ids.add(key.split('@')[0]!);
    return [...ids];
  }

  onLoad(listener: (id: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private startAsked(): void {
    const ids = [...this.asked];
    this.asked.clear();
    for (const id of ids) {
      const level = this.wanted.get(id);
      if (level !== undefined && !this.drawable(id, level)) this.startScaled(id, level);
    }
  }

  private startScaled(id: string, level: number): void {
    if (this.pending.has(scaledKey(id, level)) || this.pending.get(id)?.status === 'failed') return;
    void this.loadScaled(id, level);
  }

  /** Whether the view can draw `id` at `level` now: its scaled copy, or the full image to make it from. */
  private drawable(id: string, level: number): boolean {
    return this.cache.has(id) || this.cache.has(scaledKey(id, level));
  }

  /** Every cache key of the ids: the full image and the scaled copies held. */
  private keysOf(ids: Iterable<string>): string[] {
    const keys: string[] = [];
    for (const id of ids) {
      keys.push(id);
      for (const level of this.levels.get(id) ?? []) keys.push(scaledKey(id, level));
    }
    return keys;
  }

  /** Stores a scaled copy, pinned first when its id is (so a pinned page's copies are never evicted). */
  private hold(key: string, id: string, level: number, image: Held): void {
    let held = this.levels.get(id);
    if (!held) this.levels.set(id, (held = new Set()));
    held.add(level);
    for (const [owner, ids] of this.pinned) if (ids.has(id)) this.cache.pin(owner, this.keysOf(ids));
    if (!this.cache.set(key, image, ImageCache.rgbaBytes(image.width, image.height))) this.handOff(key, image);
  }

  /** Forgets an evicted scaled copy's level (the cache's eviction callback). */
  private forget(key: string): void {
    const at = key.lastIndexOf('@');
    if (at < 0) return;
    const id = key.slice(0, at);
    const held = this.levels.get(id);
    held?.delete(Number(key.slice(at + 1)));
    if (held?.size === 0) this.levels.delete(id);
  }

  private handOff(key: string, image: Held): void {
    this.handoff.set(key, image);
    // Only the latest few: an image nobody asks for again must not live outside the budget for good.
    const oldest = this.handoff.keys().next().value;
    if (this.handoff.size > HANDOFF_LIMIT && oldest !== undefined) this.handoff.delete(oldest);
  }

  /** The picture's bytes, downloaded once however many decodes wait for them (see `downloads`). */
  private download(id: string): Promise<Blob | null> {
    return this.downloads.get(id, () => this.downloadFrom(id, () => loadImageBlobById(id, undefined, this.urls)));
  }

  /** The server's copy of the picture scaled to `side`, downloaded once however many decodes wait for it. */
  private downloadServed(id: string, side: number): Promise<Served> {
    return this.servedDownloads.get(`${id}@${side}`, () =>
      this.downloadFrom(id, () => loadScaledImageBlobById(id, side, undefined, this.urls)),
    );
  }

  /** A download once the URL lookup that includes `id` (`resolveUrls`), if one is under way, is done. */
  private async downloadFrom<T>(id: string, load: () => Promise<T>): Promise<T> {
    await this.resolving.get(id);
    return load();
  }

  private servedBytesFor(id: string, side: number): Promise<Served> {
    return this.servedDownloads.take(`${id}@${side}`, () => this.downloadServed(id, side));
  }

  /** A decode's bytes: the download is let go once it is used (the decoded picture is what is kept). */
  private bytesFor(id: string): Promise<Blob | null> {
    return this.downloads.take(id, () => this.download(id));
  }

  private fail(key: string, id: string): void {
    this.pending.delete(key);
    this.pending.set(id, { status: 'failed' });
    for (const l of this.listeners) l(id);
  }

  private async load(id: string): Promise<void> {
    this.pending.set(id, { status: 'loading' });
    const blob = await this.bytesFor(id);
    if (!blob) return this.fail(id, id);
    try {
      const image = await decodeImage(blob);
      if (!this.cache.set(id, image, ImageCache.rgbaBytes(image.width, image.height))) this.handOff(id, image);
      this.pending.delete(id);
    } catch (error) {
      console.error('Failed to load image', error);
      return this.fail(id, id);
    }
    for (const l of this.listeners) l(id);
  }

  /**
   * Loads the picture at `level`: the server's scaled copy when one serves it (`servedSideFor`: a page seen whole
   * downloads and decodes a 256 or 512 px copy instead of the whole picture), else a JPEG decoded at `level` (its
   * longest side at least that) where the browser can (WebCodecs' ImageDecoder with a desired size); anything else is
   * loaded at full size, which `getScaled` then shrinks.
   */
  private async loadScaled(id: string, level: number): Promise<void> {
    const key = scaledKey(id, level);
    this.pending.set(key, { status: 'loading' });
    const side = servedSideFor(level);
    const served = side === null ? null : await this.servedBytesFor(id, side);
    if (side !== null && !served) return this.fail(key, id);
    const blob = served ? served.blob : await this.bytesFor(id);
    if (!blob) return this.fail(key, id);
    try {
      // The server's scaled copy is drawn as it comes (decoded whole: it is already the size the view needs).
      const scaled = served?.scaled ? await decodeImage(blob) : await decodeScaled(blob, level);
      if (scaled) this.hold(key, id, level, scaled);
      else if (!this.cache.has(id)) {
        const image = await decodeImage(blob);
        if (!this.cache.set(id, image, ImageCache.rgbaBytes(image.width, image.height))) this.handOff(id, image);
      }
      this.pending.delete(key);
    } catch (error) {
      console.error('Failed to load image', error);
      return this.fail(key, id);
    }
    for (const l of this.listeners) l(id);
  }
}

/** The WebCodecs image decoder where the browser has one (Chrome, Edge, Firefox 133+; not Safari yet). */
type ImageDecoderLike = new (init: {
  data: ReadableStream<Uint8Array>;
  type: string;
  desiredWidth: number;
  desiredHeight: number;
}) => { decode(): Promise<{ image: VideoFrame }>; close(): void };

/**
 * A JPEG decoded with its longest side at `level` or a little above (the decoder scales by eighths), or null when it
 * cannot be (not a JPEG, no ImageDecoder, or `level` not below the picture's size): then decode it whole.
 */
async function decodeScaled(blob: Blob, level: number): Promise<ImageBitmap | null> {
  const Decoder = (globalThis as { ImageDecoder?: ImageDecoderLike }).ImageDecoder;
  if (!Decoder || blob.type !== 'image/jpeg') return null;
  const size = jpegSize(new Uint8Array(await blob.slice(0, JPEG_HEAD_BYTES).arrayBuffer()));
  const plan = size && scaledDecodeSize(size.width, size.height, level);
  if (!plan) return null;
  const decoder = new Decoder({
    data: blob.stream(),
    type: blob.type,
    desiredWidth: plan.width,
    desiredHeight: plan.height,
  });
  try {
    const { image: frame } = await decoder.decode();
    try {
      // A decoder that ignored the size, or scaled below it, is no use here: decode whole instead.
      if (Math.max(frame.displayWidth, frame.displayHeight) < level) return null;
      return await createImageBitmap(frame);
    } finally {
      frame.close();
    }
  } finally {
    decoder.close();
  }
}

/**
 * A blob to a bitmap, decoded off the main thread. SVG (the bundled demo pictures) cannot be decoded from a blob by
 * createImageBitmap: it goes through an <img> first.
 */
async function decodeImage(blob: Blob): Promise<DecodedImage> {
  if (!blob.type.includes('svg')) return createImageBitmap(blob);
  const url = URL.createObjectURL(blob);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return await createImageBitmap(image);
  } finally {
    URL.revokeObjectURL(url);
  }
}

let shared: ImageStore | null = null;

/**
 * The tab's one store: the canvas, thumbnails and exports share it, so the budget bounds the whole tab's decoded
 * images rather than each user's (an export beside an open chapter would otherwise double it).
 */
export function sharedImageStore(): ImageStore {
  shared ??= new ImageStore();
  return shared;
}
