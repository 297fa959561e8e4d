import type { StorageConfig } from '../config.ts';
import { LocalBlobStore } from './local-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';
import type { BlobStore } from './blob.ts';

export { assertBlobKey, type BlobStore } from './blob.ts';

/** The store the configuration asks for. */
export function createBlobStore(config: StorageConfig): BlobStore {
  return config.kind === 's3' ? new S3BlobStore(config) : new LocalBlobStore(config.dir);
}
