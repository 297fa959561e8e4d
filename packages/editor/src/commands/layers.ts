import { DUPLICATE_OFFSET } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { kindOf, registeredKinds } from '../kinds/lookup.ts';
import { CommandError, defineCommand } from './command.ts';
import { deleteLayer, getLayer, plainCopy, rootOf } from './helpers.ts';
import { clipInto } from './clip.ts';
import { nameBase, nextName } from './names.ts';

// The add commands live beside their kinds' needs (add.ts) and are part of this module's surface.
export * from './add.ts';

export const removeLayers = defineCommand('Remove layer', (doc, args: { ids: string[] }) => {
  if (args.ids.length === 0) throw new CommandError('No layer selected.');
  const roots = new Set<string>();
  for (const id of args.ids) {
    const node = doc.layers[id];
    if (!node) continue; // already removed with its group
    roots.add(rootOf(doc, id));
    kindOf(node).beforeRemove?.(doc, node);
    deleteLayer(doc, id);
  }
  for (const root of roots) for (const kind of registeredKinds()) kind.afterRootChange?.(doc, root);
});

export type RearrangeTarget = 'front' | 'back' | 'forward' | 'backward' | number;

/** Moves a layer within its parent; children run back to front, so the last child is drawn on top. */
export const rearrangeLayer = defineCommand('Rearrange layer', (doc, args: { id: string; to: RearrangeTarget }) => {
  const node = getLayer(doc, args.id);
  if (node.parent === null) throw new CommandError('The root layer cannot be moved');
  const parent = getLayer(doc, node.parent);
  const from = parent.children.indexOf(args.id);
  const last = parent.children.length - 1;
  const to =
    args.to === 'front'
      ? last
      : args.to === 'back'
        ? 0
        : args.to === 'forward'
          ? from + 1
          : args.to === 'backward'
            ? from - 1
            : args.to;
  if (!Number.isInteger(to)) throw new CommandError('The new index must be a whole number');
  const index = Math.min(Math.max(to, 0), last);
  if (index === from) return;
  parent.children.splice(from, 1);
  parent.children.splice(index, 0, args.id);
});

export const setVisibility = defineCommand('Change visibility', (doc, args: { ids: string[]; visible: boolean }) => {
  for (const id of args.ids) getLayer(doc, id).visible = args.visible;
});

export const setLocked = defineCommand('Lock layer', (doc, args: { ids: string[]; locked: boolean }) => {
  for (const id of args.ids) getLayer(doc, id).locked = args.locked;
});

export const renameLayer = defineCommand('Rename layer', (doc, args: { id: string; name: string }) => {
  const name = args.name.trim();
  if (name.length === 0 || name.length > 255) throw new CommandError('A layer name needs 1 to 255 characters');
  getLayer(doc, args.id).name = name;
});

/** Copies a layer (and, for a group, everything in it) 10 px down and right, just above the original. */
export const duplicateLayer = defineCommand('Duplicate layer', (doc: DocState, args: { id: string }, ctx) => {
  const source = getLayer(doc, args.id);
  if (source.parent === null) throw new CommandError('The root layer cannot be duplicated');
  const copy = (id: string, parent: string): string => {
    const node = getLayer(doc, id);
    const newId = ctx.ids();
    const clone: LayerNode = { ...plainCopy(node), children: [] };
    clone.id = newId;
    clone.parent = parent;
    clone.clippedLayers = [];
    clone.clipTarget = null;
    clone.transform.x += DUPLICATE_OFFSET;
    clone.transform.y += DUPLICATE_OFFSET;
    kindOf(clone).afterDuplicate?.(doc, clone, rootOf(doc, args.id));
    doc.layers[newId] = clone;
    clone.children = node.children.map((c) => copy(c, newId));
    return newId;
  };
  const parent = getLayer(doc, source.parent);
  const newId = copy(args.id, parent.id);
  getLayer(doc, newId).name = nextName(doc, rootOf(doc, args.id), nameBase(source.name));
  parent.children.splice(parent.children.indexOf(args.id) + 1, 0, newId);
  if (source.clipTarget !== null) clipInto(doc, newId, source.clipTarget);
  kindOf(source).afterRootChange?.(doc, rootOf(doc, newId));
  return newId;
});
