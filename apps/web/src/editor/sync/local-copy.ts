// The unsaved document kept on this device (IndexedDB), so closing the tab while the server refuses or cannot be
// reached loses nothing. One record per workspace; cleared when a save is acknowledged.

const DB_NAME = 'koma-local-copies';
const STORE = 'workspaces';

export interface LocalCopy {
  workspaceId: string;
  /** The server revision the edits were made on. */
  baseRevision: number;
  /** When the copy was written (ms since the epoch). */
  savedAt: number;
  /** The document in its saved form. */
  data: unknown;
}

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'workspaceId' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened'));
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

function isLocalCopy(value: unknown): value is LocalCopy {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.workspaceId === 'string' && typeof v.baseRevision === 'number' && typeof v.savedAt === 'number';
}

/** The copy kept for this workspace, or null (also when IndexedDB is unavailable, e.g. private browsing). */
export async function readLocalCopy(workspaceId: string): Promise<LocalCopy | null> {
  try {
    const found = await run<unknown>('readonly', (store) => store.get(workspaceId));
    return isLocalCopy(found) ? found : null;
  } catch (error) {
    console.warn('Reading the local copy failed', error);
    return null;
  }
}

export async function writeLocalCopy(copy: LocalCopy): Promise<void> {
  try {
    await run('readwrite', (store) => store.put(copy));
  } catch (error) {
    console.warn('Keeping the local copy failed', error);
  }
}

export async function clearLocalCopy(workspaceId: string): Promise<void> {
  try {
    await run('readwrite', (store) => store.delete(workspaceId));
  } catch (error) {
    console.warn('Clearing the local copy failed', error);
  }
}
