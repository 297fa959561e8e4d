import { CommandError, defineCommand } from './command.ts';
import { getLayerOf } from './helpers.ts';

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Moves one joint to (x, y), given as fractions of the pose layer's size. */
export const moveJoint = defineCommand(
  'Move joint',
  (doc, args: { id: string; candidate: number; x: number; y: number }) => {
    const node = getLayerOf(doc, args.id, 'POSE');
    if (node.locked) throw new CommandError('Layer is locked');
    const joint = node.data.body.candidate[args.candidate];
    if (!joint) throw new CommandError(`Joint ${args.candidate} does not exist`);
    if (!Number.isFinite(args.x) || !Number.isFinite(args.y))
      throw new CommandError('The joint position must be finite');
    joint[0] = clamp01(args.x);
    joint[1] = clamp01(args.y);
  },
);

export const pairPose = defineCommand('Pair pose', (doc, args: { id: string; imageLayerId: string | null }) => {
  const node = getLayerOf(doc, args.id, 'POSE');
  if (args.imageLayerId !== null) getLayerOf(doc, args.imageLayerId, 'IMAGE');
  node.data.pairedLayerId = args.imageLayerId;
});
