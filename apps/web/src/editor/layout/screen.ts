import { useSyncExternalStore } from 'react';
import { PHONE_MAX_LONG_SIDE, PHONE_MAX_SHORT_SIDE } from '@koma/domain';

/**
 * How the editor lays itself out: a phone (editor.md §9: both sides at most 480 and 896) gets the canvas-first
 * layout; a touch screen larger than that gets the desktop layout with touch-sized targets.
 */
export type ScreenKind = 'phone' | 'touch' | 'desktop';

const PHONE_QUERY =
  `(max-width: ${PHONE_MAX_SHORT_SIDE}px) and (max-height: ${PHONE_MAX_LONG_SIDE}px), ` +
  `(max-width: ${PHONE_MAX_LONG_SIDE}px) and (max-height: ${PHONE_MAX_SHORT_SIDE}px)`;
const COARSE_QUERY = '(pointer: coarse)';

function screenKind(): ScreenKind {
  if (typeof window === 'undefined' || !window.matchMedia) return 'desktop';
  if (window.matchMedia(PHONE_QUERY).matches) return 'phone';
  // maxTouchPoints catches touch screens whose primary pointer the browser still calls fine.
  return window.matchMedia(COARSE_QUERY).matches || navigator.maxTouchPoints > 0 ? 'touch' : 'desktop';
}

function subscribe(callback: () => void): () => void {
  const lists = [window.matchMedia(PHONE_QUERY), window.matchMedia(COARSE_QUERY)];
  for (const list of lists) list.addEventListener('change', callback);
  // Rotating a tablet can cross the phone rule without a media-query change event in some browsers.
  window.addEventListener('resize', callback);
  return () => {
    for (const list of lists) list.removeEventListener('change', callback);
    window.removeEventListener('resize', callback);
  };
}

/** The current screen kind; re-renders when the window crosses a boundary (rotation, resizing, a docked tablet). */
export function useScreenKind(): ScreenKind {
  return useSyncExternalStore(subscribe, screenKind, () => 'desktop');
}
