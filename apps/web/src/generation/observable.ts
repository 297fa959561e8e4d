// A value that components and the controller share: read it, replace it, hear when it changes.
import { useSyncExternalStore } from 'react';

export class Observable<T> {
  private readonly listeners = new Set<() => void>();

  constructor(private current: T) {}

  get value(): T {
    return this.current;
  }

  set(next: T): void {
    if (Object.is(next, this.current)) return;
    this.current = next;
    for (const l of [...this.listeners]) l();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The observable's value, re-rendering on every change. */
export function useObservable<T>(observable: Observable<T>): T {
  return useSyncExternalStore(
    (cb) => observable.subscribe(cb),
    () => observable.value,
  );
}
