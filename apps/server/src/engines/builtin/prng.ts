import { mulberry32 } from '@koma/domain';

/** 32-bit FNV-1a: a stable hash so the same prompt always picks the same colours. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export type Rng = () => number;

/** mulberry32: tiny, fast and fully determined by its 32-bit seed, which is all the artwork needs. */
export const createRng: (seed: number) => Rng = mulberry32;

export function between(rng: Rng, min: number, max: number): number {
  return min + (max - min) * rng();
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
