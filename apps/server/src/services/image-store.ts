import sharp from 'sharp';
import { SCALED_IMAGE_SIDES as SCALED_SIDES, type ScaledImageSide as ScaledSide } from '@koma/domain';
import type { Database } from '../db/database.ts';
import { HttpError, invalidRequest } from '../http/errors.ts';
import { isId, newId } from '../ids.ts';
import type { BlobStore } from '../storage/blob-store.ts';

/** A scaled copy is a JPEG or a PNG (`makeScaled`); copies kept by an earlier version may be WebP. */
const scaledMime = (bytes: Buffer) =>
  bytes[0] === 0xff && bytes[1] === 0xd8
    ? 'image/jpeg'
    : bytes[0] === 0x89 && bytes[1] === 0x50
      ? 'image/png'
      : 'image/webp';
const scaledKey = (id: string, side: ScaledSide) => `${id}.s${side}`;

/** Image formats the server stores, by sharp's format name. */
const mimeByFormat: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** An image's bytes with what a reply needs to serve them. */
export interface StoredImage {
  bytes: Buffer;
  mime: string;
}

export interface ImageLimits {
  maxImageBytes: number;
  maxImagePixels: number;
  /** What `putUpload` lets a user's images add up to, in bytes; unlimited when absent. */
  storageQuotaBytes?: number;
}

/** Bytes as people read them: 1.5 GB, 20 MB, 300 KB. */
function size(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number(value.toFixed(1))} ${units[unit]}`;
}

/** True for a WebP whose image is VP8L (lossless), so re-encoding keeps it lossless. */
function isLosslessWebp(bytes: Buffer): boolean {
  // RIFF header (12 bytes), then the first chunk: VP8L for simple lossless, VP8X (extended) followed later by VP8L.
  return bytes.subarray(12, 256).includes('VP8L');
}

/** Strips an optional `data:…;base64,` prefix and decodes; refuses anything that is not base64. */
export function decodeBase64(encoded: string, field = 'encoded'): Buffer {
  const comma = encoded.startsWith('data:') ? encoded.indexOf(',') : -1;
  const body = (comma >= 0 ? encoded.slice(comma + 1) : encoded).replace(/\s+/g, '');
  if (body.length === 0) throw invalidRequest(`${field}: is empty`);
  // Buffer.from skips characters it does not know, so check first or garbage would decode to something.
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(body)) throw invalidRequest(`${field}: is not base64`);
  return Buffer.from(body, 'base64');
}

/**
 * Images owned by users: bytes in a BlobStore, metadata in the images table. Every image is decoded under the pixel
 * limit and encoded again before it is stored, so non-images, truncated files, decompression bombs and polyglots
 * (an image with a page or a script appended) never land.
 */
export class ImageStore {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly limits: ImageLimits,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Checks from the header that the bytes are a PNG, JPEG or WebP within the byte and pixel limits; returns its
   * format and size. The pixels are only decoded by `reencode`.
   */
  async inspect(bytes: Buffer, field = 'encoded'): Promise<{ mime: string; width: number; height: number }> {
    if (bytes.length > this.limits.maxImageBytes) {
      throw new HttpError(
        413,
        'payload_too_large',
        `${field}: image is ${bytes.length} bytes; the limit is ${this.limits.maxImageBytes} bytes (MAX_IMAGE_BYTES).`,
      );
    }
    let metadata: sharp.Metadata;
    try {
      // Header only, no pixel limit yet: an oversized image should be told apart from a non-image.
      metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    } catch {
      throw invalidRequest(`${field}: is not a PNG, JPEG or WebP image`);
    }
    const mime = metadata.format ? mimeByFormat[metadata.format] : undefined;
    if (!mime) throw invalidRequest(`${field}: image format ${metadata.format ?? 'unknown'} is not accepted`);
    const { width, height } = metadata;
    if (!width || !height) throw invalidRequest(`${field}: image has no size`);
    if (width * height > this.limits.maxImagePixels) {
      throw new HttpError(
        413,
        'payload_too_large',
        `${field}: image is ${width} × ${height} = ${width * height} pixels; the limit is ` +
          `${this.limits.maxImagePixels} pixels (MAX_IMAGE_PIXELS).`,
        { limit: this.limits.maxImagePixels },
      );
    }
    return { mime, width, height };
  }

  /**
   * Decodes the whole image under the pixel limit and encodes it again in its own format, so that only pixels are
   * kept: bytes after the image's end (an HTML page or a script appended to a PNG), metadata and text chunks, and
   * anything a browser might sniff as another type do not survive. Truncated or corrupt data fails the decode.
   */
  async reencode(
    bytes: Buffer,
    field = 'encoded',
  ): Promise<{ bytes: Buffer; mime: string; width: number; height: number }> {
    const info = await this.inspect(bytes, field);
    // EXIF orientation is applied to the pixels, since the metadata that carried it is dropped.
    const image = sharp(bytes, { limitInputPixels: this.limits.maxImagePixels, failOn: 'error' }).rotate();
    const encoder =
      info.mime === 'image/png'
        ? image.png()
        : info.mime === 'image/jpeg'
          ? image.jpeg({ quality: 92 })
          : image.webp(isLosslessWebp(bytes) ? { lossless: true } : { quality: 92 });
    try {
      const { data, info: out } = await encoder.toBuffer({ resolveWithObject: true });
      return { bytes: data, mime: info.mime, width: out.width, height: out.height };
    } catch {
      throw invalidRequest(`${field}: image data is corrupt`);
    }
  }

  /**
   * Validates, re-encodes (see `reencode`) and stores image bytes for a user; returns the new image id. When `mime`
   * is given the bytes must be of that type.
   */
  async putImage(userId: string, bytes: Buffer, mime?: string, field = 'encoded'): Promise<string> {
    const clean = await this.reencode(bytes, field);
    if (mime !== undefined && mime !== clean.mime) {
      throw invalidRequest(`${field}: expected ${mime} but the bytes are ${clean.mime}`);
    }
    const id = await this.store(userId, clean.bytes, clean);
    await this.makeDerived(id, clean);
    return id;
  }

  /**
   * Stores an image a user sent (an upload, an inline image of a request) like `putImage`, within the user's storage
   * quota: 403 storage_quota_exceeded naming the quota when the image would pass it. Results of paid jobs use
   * `putImage` and always land. Two uploads at the same instant may both pass a nearly full quota: it is a ceiling on
   * what one account can pile up, not an exact ledger.
   */
  async putUpload(userId: string, bytes: Buffer, field = 'encoded'): Promise<string> {
    const clean = await this.reencode(bytes, field);
    const quota = this.limits.storageQuotaBytes;
    if (quota !== undefined) {
      const used = await this.bytesUsed(userId);
      if (used + clean.bytes.length > quota) {
        throw new HttpError(
          403,
          'storage_quota_exceeded',
          `${field}: your images use ${size(used)} of your ${size(quota)} of storage and this one needs ` +
            `${size(clean.bytes.length)} more; delete images or workspaces you no longer need (STORAGE_QUOTA_BYTES).`,
          { field, used, quota },
        );
      }
    }
    const id = await this.store(userId, clean.bytes, clean);
    await this.makeDerived(id, clean);
    return id;
  }

  /** Bytes of every image the user has stored. */
  async bytesUsed(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('images')
      .select((eb) => eb.fn.sum<number | string | null>('byte_size').as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** Resizes a base64 thumbnail to exactly width×height WebP (quality 80) and stores it; returns its id. */
  async putThumbnail(userId: string, bytes: Buffer, width: number, height: number): Promise<string> {
    await this.inspect(bytes, 'thumbnail');
    let webp: Buffer;
    try {
      webp = await sharp(bytes, { limitInputPixels: this.limits.maxImagePixels, failOn: 'error' })
        .resize(width, height, { fit: 'cover' })
        .webp({ quality: 80 })
        .toBuffer();
    } catch {
      throw invalidRequest('thumbnail: image data is corrupt');
    }
    return this.store(userId, webp, { mime: 'image/webp', width, height });
  }

  /** The image if it exists and belongs to the user, else null (so others' images look absent). */
  async getImage(userId: string, id: string): Promise<StoredImage | null> {
    const row = await this.findOwned(userId, id);
    if (!row) return null;
    const bytes = await this.blobs.get(row.id);
    return bytes ? { bytes, mime: row.mime } : null;
  }

  /** Which of `ids` exist and belong to the user (one query; the others are left out, as if absent). */
  async ownedIds(userId: string, ids: readonly string[]): Promise<string[]> {
    const wanted = [...new Set(ids.filter(isId))];
    if (wanted.length === 0) return [];
    const rows = await this.db
      .selectFrom('images')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', 'in', wanted)
      .execute();
    return rows.map((row) => row.id);
  }

  /** True when the image exists and belongs to the user. */
  async exists(userId: string, id: string): Promise<boolean> {
    return (await this.findOwned(userId, id)) !== undefined;
  }

  /**
   * A 256×256 centre-cropped JPEG of the image (the layer list's picture), kept; null when not found. Uploads and
   * results have theirs made when they are stored (`putUpload`, `putImage`); older images get it on first request.
   */
  async getThumbnail(userId: string, id: string): Promise<Buffer | null> {
    const row = await this.findOwned(userId, id);
    if (!row) return null;
    const cached = await this.blobs.get(`${row.id}.thumb`);
    if (cached) return cached;
    const bytes = await this.blobs.get(row.id);
    return bytes ? this.makeThumbnail(row.id, bytes) : null;
  }

  /**
   * The image shrunk to fit `side` (one of SCALED_SIDES) on its longest side, kept; the image itself when it is no
   * larger; null when not found. What a page seen whole draws: downloading and decoding a 1024² picture to show it
   * 256 px wide cost a page's first visit most of its time (docs/how-it-works/chapter-memory.md). Made when the image
   * is stored (`putUpload`, `putImage`); older images get theirs on first request.
   */
  async getScaled(userId: string, id: string, side: ScaledSide): Promise<StoredImage | null> {
    const row = await this.findOwned(userId, id);
    if (!row) return null;
    if (Math.max(Number(row.width), Number(row.height)) <= side) return this.getImage(userId, id);
    const cached = await this.blobs.get(scaledKey(row.id, side));
    const scaled = cached ?? (await this.makeScaledFrom(row.id, side));
    return scaled ? { bytes: scaled, mime: scaledMime(scaled) } : null;
  }

  private async makeScaledFrom(id: string, side: ScaledSide): Promise<Buffer | null> {
    const bytes = await this.blobs.get(id);
    return bytes ? this.makeScaled(id, bytes, side) : null;
  }

  /** The thumbnail and the scaled copies larger than the image is not. */
  private async makeDerived(id: string, image: { bytes: Buffer; width: number; height: number }): Promise<void> {
    await this.makeThumbnail(id, image.bytes);
    for (const side of SCALED_SIDES) {
      if (Math.max(image.width, image.height) > side) await this.makeScaled(id, image.bytes, side);
    }
  }

  private async makeScaled(id: string, bytes: Buffer, side: ScaledSide): Promise<Buffer> {
    const image = sharp(bytes, { limitInputPixels: this.limits.maxImagePixels }).resize(side, side, {
      fit: 'inside',
      withoutEnlargement: true,
    });
    // A JPEG's copy is a JPEG (the picture is lossy already; quality as the re-encode's own: the copy is the picture
    // as a page seen whole shows it, not a preview). Any other picture's is a PNG, lossless as its source is: the flat
    // colours and hard black lines of comic art stay exact where a JPEG copy shifted them and rang around edges, and
    // alpha is kept. A 512 px PNG takes about 20 ms to encode against a JPEG's 14 (a WebP's 53, on every upload).
    const { format } = await image.metadata();
    const scaled = await (format === 'jpeg' ? image.jpeg({ quality: 90 }) : image.png()).toBuffer();
    await this.blobs.put(scaledKey(id, side), scaled, scaledMime(scaled));
    return scaled;
  }

  /**
   * Makes and keeps an image's thumbnail. Made when the image is stored rather than when the layer list first shows
   * it: opening a page of ten pictures otherwise had the server shrink ten 1024² pictures with sharp (about 100 ms of
   * both cores of the benchmark machine) while the page's own pictures were downloading.
   */
  private async makeThumbnail(id: string, bytes: Buffer): Promise<Buffer> {
    const thumbnail = await sharp(bytes, { limitInputPixels: this.limits.maxImagePixels })
      .resize(256, 256, { fit: 'cover', position: 'centre' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer();
    await this.blobs.put(`${id}.thumb`, thumbnail, 'image/jpeg');
    return thumbnail;
  }

  /** Copies an owned image to a new id (for duplicated workspaces); null when not found. */
  async copyImage(userId: string, id: string): Promise<string | null> {
    const row = await this.findOwned(userId, id);
    if (!row) return null;
    const bytes = await this.blobs.get(row.id);
    if (!bytes) return null;
    return this.store(userId, bytes, { mime: row.mime, width: Number(row.width), height: Number(row.height) });
  }

  /** Deletes an owned image and its cached thumbnail; missing images are ignored. */
  async deleteImage(userId: string, id: string): Promise<void> {
    const row = await this.findOwned(userId, id);
    if (!row) return;
    await this.db.deleteFrom('images').where('id', '=', row.id).execute();
    await this.blobs.delete(row.id);
    await this.blobs.delete(`${row.id}.thumb`);
    for (const side of SCALED_SIDES) await this.blobs.delete(scaledKey(row.id, side));
  }

  private async findOwned(userId: string, id: string) {
    if (!isId(id)) return undefined;
    return this.db
      .selectFrom('images')
      .select(['id', 'mime', 'width', 'height'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  private async store(
    userId: string,
    bytes: Buffer,
    info: { mime: string; width: number; height: number },
  ): Promise<string> {
    const id = newId();
    // Bytes first: a row never points at missing bytes; a crash in between leaves only an orphan blob.
    await this.blobs.put(id, bytes, info.mime);
    await this.db
      .insertInto('images')
      .values({
        id,
        user_id: userId,
        mime: info.mime,
        byte_size: bytes.length,
        width: info.width,
        height: info.height,
        created_at: this.now().toISOString(),
      })
      .execute();
    return id;
  }
}
