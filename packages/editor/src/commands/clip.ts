import type { DocState } from '../store/state.ts';
import { CommandError, defineCommand } from './command.ts';
import { getLayer } from './helpers.ts';
import { isContainer } from '../kinds/lookup.ts';

/** Clips `id` to `targetId`, a sibling that is not itself clipped. */
export function clipInto(doc: DocState, id: string, targetId: string): void {
  const layer = getLayer(doc, id);
  const target = getLayer(doc, targetId);
  if (id === targetId) throw new CommandError('A layer cannot be clipped to itself');
  if (layer.parent !== target.parent)
    throw new CommandError('A layer can only be clipped to a layer in the same group');
  if (target.clipTarget !== null) throw new CommandError('Cannot clip to a layer that is itself clipped');
  if (layer.clippedLayers.length > 0) throw new CommandError('A layer with clipped layers cannot be clipped');
  if (isContainer(layer) || isContainer(target)) throw new CommandError('Groups cannot be clipped');
  if (layer.clipTarget === targetId) return;
  if (layer.clipTarget !== null) unclipFrom(doc, id);
  layer.clipTarget = targetId;
  target.clippedLayers.push(id);
}

export function unclipFrom(doc: DocState, id: string): void {
  const layer = getLayer(doc, id);
  if (layer.clipTarget === null) return;
  const target = getLayer(doc, layer.clipTarget);
  target.clippedLayers = target.clippedLayers.filter((x) => x !== id);
  layer.clipTarget = null;
}

export const clipLayer = defineCommand('Clip layer', (doc, args: { id: string; targetId: string }) => {
  clipInto(doc, args.id, args.targetId);
});

export const unclipLayer = defineCommand('Unclip layer', (doc, args: { id: string }) => {
  if (getLayer(doc, args.id).clipTarget === null) throw new CommandError('The layer is not clipped');
  unclipFrom(doc, args.id);
});
