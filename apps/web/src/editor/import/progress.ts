import { useSyncExternalStore } from 'react';
import type { EditorSession } from '../session.ts';

export interface ImportItem {
  id: number;
  name: string;
  stage: 'preparing' | 'uploading';
  /** 0 to 1 of the upload. */
  fraction: number;
}

/** The imports under way in one editor, for the progress list over the canvas. */
export class ImportProgress {
  private items: readonly ImportItem[] = [];
  private next = 1;
  private readonly listeners = new Set<() => void>();

  get current(): readonly ImportItem[] {
    return this.items;
  }

  start(name: string): { upload(fraction: number): void; done(): void } {
    const id = this.next++;
    this.set([...this.items, { id, name, stage: 'preparing', fraction: 0 }]);
    return {
      upload: (fraction) =>
        this.set(this.items.map((item) => (item.id === id ? { ...item, stage: 'uploading', fraction } : item))),
      done: () => this.set(this.items.filter((item) => item.id !== id)),
    };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(items: readonly ImportItem[]): void {
    this.items = items;
    for (const listener of this.listeners) listener();
  }
}

const registry = new WeakMap<EditorSession, ImportProgress>();

export function importProgressOf(session: EditorSession): ImportProgress {
  let progress = registry.get(session);
  if (!progress) {
    progress = new ImportProgress();
    registry.set(session, progress);
  }
  return progress;
}

export function useImports(session: EditorSession): readonly ImportItem[] {
  const progress = importProgressOf(session);
  return useSyncExternalStore(
    (cb) => progress.subscribe(cb),
    () => progress.current,
  );
}
