import sharp from 'sharp';
import type { Database } from '../db/database.ts';
import { HttpError, invalidRequest } from '../http/errors.ts';
import { isId, newId } from '../ids.ts';
import type { BlobStore } from '../storage/blob-store.ts';

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
 * Images owned by users: bytes in a BlobStore, metadata in the images table. Every image is fully
 * decoded before it is stored, so non-images, truncated files and decompression bombs never land.
 */
export class ImageStore {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly limits: ImageLimits,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Checks that the bytes are a whole PNG, JPEG or WebP within the limits; returns its format and size. */
  async inspect(bytes: Buffer, field = 'encoded'): Promise<{ mime: string; width: number; height: number }> {
    if (bytes.length > this.limits.maxImageBytes) {
      throw new HttpError(413, 'payload_too_large', `Image is larger than ${this.limits.maxImageBytes} bytes.`);
    }
    const options = { limitInputPixels: this.limits.maxImagePixels, failOn: 'error' as const };
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
      throw new HttpError(413, 'payload_too_large', `Image has more than ${this.limits.maxImagePixels} pixels.`);
    }
    try {
      // A full decode catches truncated and corrupt data that the header alone does not show.
      await sharp(bytes, options).stats();
    } catch {
      throw invalidRequest(`${field}: image data is corrupt`);
    }
    return { mime, width, height };
  }

  /**
   * Validates and stores image bytes for a user; returns the new image id. When `mime` is given the
   * bytes must be of that type.
   */
  async putImage(userId: string, bytes: Buffer, mime?: string): Promise<string> {
    const info = await this.inspect(bytes);
    if (mime !== undefined && mime !== info.mime) {
      throw invalidRequest(`encoded: expected ${mime} but the bytes are ${info.mime}`);
    }
    return this.store(userId, bytes, info);
  }

  /** Resizes a base64 thumbnail to exactly width×height WebP (quality 80) and stores it; returns its id. */
  async putThumbnail(userId: string, bytes: Buffer, width: number, height: number): Promise<string> {
    await this.inspect(bytes, 'thumbnail');
    const webp = await sharp(bytes, { limitInputPixels: this.limits.maxImagePixels })
      .resize(width, height, { fit: 'cover' })
      .webp({ quality: 80 })
      .toBuffer();
    return this.store(userId, webp, { mime: 'image/webp', width, height });
  }

  /** The image if it exists and belongs to the user, else null (so others' images look absent). */
  async getImage(userId: string, id: string): Promise<StoredImage | null> {
    const row = await this.findOwned(userId, id);
    if (!row) return null;
    const bytes = await this.blobs.get(row.id);
    return bytes ? { bytes, mime: row.mime } : null;
  }

  /** True when the image exists and belongs to the user. */
  async exists(userId: string, id: string): Promise<boolean> {
    return (await this.findOwned(userId, id)) !== undefined;
  }

  /** A 256×256 centre-cropped JPEG of the image, made once and kept; null when not found. */
  async getThumbnail(userId: string, id: string): Promise<Buffer | null> {
    const row = await this.findOwned(userId, id);
    if (!row) return null;
    const key = `${row.id}.thumb`;
    const cached = await this.blobs.get(key);
    if (cached) return cached;
    const bytes = await this.blobs.get(row.id);
    if (!bytes) return null;
    const thumbnail = await sharp(bytes, { limitInputPixels: this.limits.maxImagePixels })
      .resize(256, 256, { fit: 'cover', position: 'centre' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer();
    await this.blobs.put(key, thumbnail, 'image/jpeg');
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
