import type { ReactNode } from 'react';

/** The SVG every drawn thumbnail sits in: the layer's own size as the view box, scaled to the row's square. */
export function ThumbSvg({ w, h, viewBox, children }: { w: number; h: number; viewBox?: string; children: ReactNode }) {
  return (
    <svg viewBox={viewBox ?? `0 0 ${w} ${h}`} preserveAspectRatio="xMidYMid meet" aria-hidden="true">
      {children}
    </svg>
  );
}

/** Width and height of a layer for its thumbnail, never zero (a zero view box draws nothing). */
export function thumbSize(size: { width: number; height: number }): { w: number; h: number } {
  return { w: Math.max(size.width, 1), h: Math.max(size.height, 1) };
}
