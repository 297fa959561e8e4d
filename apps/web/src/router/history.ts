import { useSyncExternalStore } from 'react';
import type { MouseEvent } from 'react';

// A tiny router over the History API: the app has six routes and no nested layouts, which does not need a
// router package.

export interface Location {
  pathname: string;
  search: string;
}

const listeners = new Set<() => void>();
let snapshot: Location = read();

function read(): Location {
  return { pathname: window.location.pathname, search: window.location.search };
}

function notify(): void {
  const next = read();
  if (next.pathname === snapshot.pathname && next.search === snapshot.search) return;
  snapshot = next;
  for (const listener of listeners) listener();
}

window.addEventListener('popstate', notify);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLocation(): Location {
  return useSyncExternalStore(subscribe, () => snapshot);
}

/** Goes to an in-app path; `replace` rewrites the current entry (redirects, the flow-image entry). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  notify();
}

/** Click handler for in-app links: plain left clicks navigate in place, modified clicks keep browser behaviour. */
export function linkClick(to: string) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
}
