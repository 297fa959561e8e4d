import type { BrushTask, DiffusionParams, RegionalTask } from '../types.ts';
import { EngineError } from '../errors.ts';

/** Engine-level sanity limits; the request schemas of the spec are stricter and checked before a job exists. */
export function assertSize(width: number, height: number, max = 8192): void {
  if (
    !Number.isInteger(width) ||
    !Number.isInteger(height) ||
    width < 16 ||
    height < 16 ||
    width > max ||
    height > max
  ) {
    throw new EngineError('validation', `Image size ${width}x${height} is outside 16 to ${max} pixels per side`);
  }
}

export function assertDiffusionParams(p: DiffusionParams): void {
  if (!Number.isInteger(p.numImages) || p.numImages < 1 || p.numImages > 10) {
    throw new EngineError('validation', 'Number of images must be between 1 and 10');
  }
  if (!Number.isInteger(p.steps) || p.steps < 1 || p.steps > 150) {
    throw new EngineError('validation', 'Steps must be a whole number between 1 and 150');
  }
  if (!Number.isInteger(p.seed) || p.seed < 0 || p.seed > 2 ** 32 - 1) {
    throw new EngineError(
      'validation',
      'Seed must be a whole number of 0 or more (resolve -1 before calling an engine)',
    );
  }
}

/** Regions are whole-pixel boxes inside the canvas with a prompt each. */
export function assertRegions(regions: RegionalTask['regions'], width: number, height: number): void {
  if (regions.length === 0) throw new EngineError('validation', 'Regional prompting needs at least one region');
  regions.forEach((r, i) => {
    const ok =
      [r.x0, r.y0, r.x1, r.y1].every(Number.isInteger) &&
      r.x0 >= 0 &&
      r.y0 >= 0 &&
      r.x0 < r.x1 &&
      r.y0 < r.y1 &&
      r.x1 <= width &&
      r.y1 <= height;
    if (!ok)
      throw new EngineError(
        'validation',
        `Region ${i + 1} must be a box of whole pixels inside the ${width}x${height} canvas`,
      );
    if (r.prompt.trim() === '') throw new EngineError('validation', `Region ${i + 1} needs a prompt`);
  });
}

export function assertBrushes(brushes: BrushTask['brushes']): void {
  if (brushes.length === 0) throw new EngineError('validation', 'Brush generation needs at least one brush');
  brushes.forEach((b, i) => {
    if (b.prompt.trim() === '') throw new EngineError('validation', `Brush ${i + 1} needs a prompt`);
  });
}
