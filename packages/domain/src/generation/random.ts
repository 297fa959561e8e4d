import { MAX_SEED, RANDOM_SEED } from '../constants.ts';

/** A source of uniform random numbers in [0, 1); injected so the domain never calls Math.random. */
export type RandomSource = () => number;

/** Draws a seed in 0..MAX_SEED from the given random source. */
export function randomSeed(random: RandomSource): number {
  const r = random();
  if (!(r >= 0 && r < 1)) throw new RangeError(`random source must return a number in [0, 1), got ${String(r)}`);
  return Math.floor(r * (MAX_SEED + 1));
}

/** Resolves -1 to a random seed and keeps any other seed. */
export function resolveSeed(seed: number, random: RandomSource): number {
  return seed === RANDOM_SEED ? randomSeed(random) : seed;
}
