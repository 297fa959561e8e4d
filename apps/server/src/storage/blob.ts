// What a blob store is, apart from blob-store.ts (which picks one) so the stores need not import their own factory.

/** Bytes by key. Keys are server-made ids (plus a suffix), never anything a client typed. */
export interface BlobStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the key; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored key with its last write (the orphan sweep reads it; order unspecified). */
  list(): AsyncIterable<{ key: string; modified: Date }>;
  close(): void;
}

const keyPattern = /^[A-Za-z0-9_-]{1,64}(\.[a-z0-9]{1,16})?$/;

/** Throws unless the key is one of ours; the stores call it so no path can escape their folder or prefix. */
export function assertBlobKey(key: string): void {
  if (!keyPattern.test(key)) throw new Error(`Invalid blob key "${key}"`);
}
