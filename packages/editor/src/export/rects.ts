import type { Rect } from './raster.ts';

/** PSD layer names are Pascal strings of at most 255 characters (generation.md §5). */
export function clampName(name: string): string {
  return name.length > 255 ? name.slice(0, 254) + '…' : name;
}

export function grow(r: Rect, by: number): Rect {
  return { x: r.x - by, y: r.y - by, width: r.width + 2 * by, height: r.height + 2 * by };
}

/** The whole pixels a rectangle touches (edges within 1e-6 of a pixel line do not spill over). */
export function pixelRect(r: Rect): Rect {
  const x = Math.floor(r.x + 1e-6);
  const y = Math.floor(r.y + 1e-6);
  return { x, y, width: Math.ceil(r.x + r.width - 1e-6) - x, height: Math.ceil(r.y + r.height - 1e-6) - y };
}

export function intersect(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return { x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
}
