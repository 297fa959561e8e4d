import type { StorageConfig } from '../config.ts';
import { LocalBlobStore } from './local-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

/** Bytes by key. Keys are server-made ids (plus a suffix), never anything a client typed. */
export interface BlobStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the key; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  close(): void;
}

const keyPattern = /^[A-Za-z0-9_-]{1,64}(\.[a-z0-9]{1,16})?$/;

/** Throws unless the key is one of ours; the stores call it so no path can escape their folder or prefix. */
export function assertBlobKey(key: string): void {
  if (!keyPattern.test(key)) throw new Error(`Invalid blob key "${key}"`);
}

/** The store the configuration asks for. */
export function createBlobStore(config: StorageConfig): BlobStore {
  return config.kind === 's3' ? new S3BlobStore(config) : new LocalBlobStore(config.dir);
}
