import { MAX_REGIONS, zColor, zRegionRect, type RegionRect } from '@koma/domain';
import { CommandError, defineCommand } from './command.ts';

export interface RegionPatch {
  color?: string;
  prompt?: string;
  negativePrompt?: string;
  rect?: RegionRect | null;
}

function checkPatch(patch: RegionPatch): void {
  if (patch.color !== undefined && !zColor.safeParse(patch.color).success) {
    throw new CommandError(`Not a colour: ${patch.color}`);
  }
  if (patch.rect && !zRegionRect.safeParse(patch.rect).success) {
    throw new CommandError('A region must lie inside the frame (fractions 0 to 1)');
  }
}

function checkIndex(count: number, index: number, what: string): void {
  if (!Number.isInteger(index) || index < 0 || index >= count) throw new CommandError(`No ${what} ${index + 1}`);
}

/** Adds a regional prompt (not drawn yet unless a rect is given); returns its index. */
export const addRegion = defineCommand('Add region', (doc, args: RegionPatch & { color: string }) => {
  if (doc.regionalPrompts.length >= MAX_REGIONS) throw new CommandError(`At most ${MAX_REGIONS} regions`);
  checkPatch(args);
  doc.regionalPrompts.push({
    color: args.color,
    prompt: args.prompt ?? '',
    negativePrompt: args.negativePrompt ?? '',
    rect: args.rect ?? null,
  });
  return doc.regionalPrompts.length - 1;
});

export const updateRegion = defineCommand('Edit region', (doc, args: { index: number; patch: RegionPatch }) => {
  checkIndex(doc.regionalPrompts.length, args.index, 'region');
  checkPatch(args.patch);
  Object.assign(doc.regionalPrompts[args.index]!, args.patch);
});

export const removeRegion = defineCommand('Remove region', (doc, args: { index: number }) => {
  checkIndex(doc.regionalPrompts.length, args.index, 'region');
  doc.regionalPrompts.splice(args.index, 1);
});

/**
 * Draws, moves or resizes a region's box; an index one past the last adds the region (in `color`, with
 * `negativePrompt`) in the same step, so drawing a new region is one undo step. Made for gestures: the args carry
 * the whole box so far.
 */
export const drawRegion = defineCommand(
  'Draw region',
  (doc, args: { index: number; rect: RegionRect; color: string; negativePrompt?: string }, ctx) => {
    if (args.index === doc.regionalPrompts.length) {
      addRegion.run(doc, { color: args.color, rect: args.rect, negativePrompt: args.negativePrompt ?? '' }, ctx);
      return;
    }
    updateRegion.run(doc, { index: args.index, patch: { rect: args.rect } }, ctx);
  },
);
