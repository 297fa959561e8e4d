// Layer appearance (issue 17): opacity and blend mode on every drawable layer, rotation and flips on images, text
// and poses. Each change is one undo step over all the layers named; a bad value changes nothing.
import { BLEND_MODES, type BlendMode } from '@koma/domain';
import { CommandError, defineCommand } from './command.ts';
import { getLayer } from './helpers.ts';
import type { LayerNode } from '../store/state.ts';
import { TURNING_KINDS } from '../kinds/placement.ts';

function drawable(doc: Parameters<typeof getLayer>[0], ids: readonly string[]): LayerNode[] {
  if (ids.length === 0) throw new CommandError('Select a layer first');
  return ids.map((id) => {
    const node = getLayer(doc, id);
    if (node.type === 'GROUP') throw new CommandError('A group has no opacity or blend mode of its own');
    if (node.locked) throw new CommandError('Layer is locked');
    return node;
  });
}

function turning(doc: Parameters<typeof getLayer>[0], ids: readonly string[]): LayerNode[] {
  return drawable(doc, ids).map((node) => {
    if (!TURNING_KINDS.has(node.type)) throw new CommandError('Only images, text and poses can be rotated or flipped');
    return node;
  });
}

/** Degrees in (-180, 180]. */
export function normalizeRotation(degrees: number): number {
  const r = ((degrees % 360) + 360) % 360;
  return r > 180 ? r - 360 : r;
}

/** Snaps a free rotation to 15° steps (Shift while turning). */
export function snapRotation(degrees: number, step = 15): number {
  return normalizeRotation(Math.round(degrees / step) * step);
}

export const setAppearance = defineCommand(
  'Change appearance',
  (doc, args: { ids: string[]; opacity?: number; blendMode?: BlendMode }) => {
    if (args.opacity !== undefined && !(Number.isFinite(args.opacity) && args.opacity >= 0 && args.opacity <= 1)) {
      throw new CommandError('Opacity must be from 0 to 100 %');
    }
    if (args.blendMode !== undefined && !BLEND_MODES.includes(args.blendMode)) {
      throw new CommandError(`Blend mode must be one of ${BLEND_MODES.join(', ')}`);
    }
    for (const node of drawable(doc, args.ids)) {
      if (args.opacity !== undefined) node.opacity = args.opacity;
      if (args.blendMode !== undefined) node.blendMode = args.blendMode;
    }
  },
);

/** Turns layers by `by` degrees (clockwise), or to `to` degrees. */
export const rotateLayers = defineCommand('Rotate', (doc, args: { ids: string[]; by?: number; to?: number }) => {
  const value = args.to ?? args.by;
  if (value === undefined || !Number.isFinite(value)) throw new CommandError('Rotation must be a number of degrees');
  for (const node of turning(doc, args.ids)) {
    node.rotation = normalizeRotation(args.to !== undefined ? args.to : (node.rotation ?? 0) + value);
  }
});

export const flipLayers = defineCommand('Flip', (doc, args: { ids: string[]; axis: 'horizontal' | 'vertical' }) => {
  if (args.axis !== 'horizontal' && args.axis !== 'vertical') {
    throw new CommandError('Flip axis must be horizontal or vertical');
  }
  for (const node of turning(doc, args.ids)) {
    if (args.axis === 'horizontal') node.flipX = !(node.flipX ?? false);
    else node.flipY = !(node.flipY ?? false);
    // A flip is across the canvas's own axis, as the user sees it: mirroring a turned layer also mirrors its turn
    // (flip · rotate(θ) = rotate(−θ) · flip, and placements rotate after they flip).
    if (node.rotation) node.rotation = normalizeRotation(-node.rotation);
  }
});
