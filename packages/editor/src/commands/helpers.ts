import { current, isDraft, type Draft } from 'immer';
import type { LayerType, Size } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { CommandError } from './command.ts';
import { isContainer } from '../kinds/lookup.ts';
import { isDefaultName, nextName } from './names.ts';

export function getLayer(doc: DocState, id: string): LayerNode {
  const node = doc.layers[id];
  if (!node) throw new CommandError(`Layer ${id} not found`);
  return node;
}

export function getLayerOf<T extends LayerType>(doc: DocState, id: string, type: T): LayerNode<T> {
  const node = getLayer(doc, id);
  if (node.type !== type) throw new CommandError(`Layer ${id} is not a ${type} layer`);
  return node as LayerNode<T>;
}

export function assertUnlocked(node: LayerNode): void {
  if (node.locked) throw new CommandError('Layer is locked');
}

/** The root group a layer lives under (the infinite canvas root or a page root). */
export function rootOf(doc: DocState, id: string): string {
  let node = getLayer(doc, id);
  while (node.parent !== null) node = getLayer(doc, node.parent);
  return node.id;
}

/** The page bounds that panels under `rootId` must stay inside; null on the infinite canvas. */
export function pageBoundsFor(doc: DocState, rootId: string): Size | null {
  if (!doc.pages.some((p) => p.rootId === rootId)) return null;
  return { width: doc.comicConfiguration.width, height: doc.comicConfiguration.height };
}

/** Adds a new layer under a group; a layer nobody named gets its type's name with the next free number. */
export function insertChild(doc: DocState, parentId: string, node: LayerNode, index?: number): void {
  const parent = getLayer(doc, parentId);
  if (!isContainer(parent)) throw new CommandError('Layers can only be added to a group');
  if (isDefaultName(node.type, node.name)) node.name = nextName(doc, rootOf(doc, parentId), node.name);
  node.parent = parentId;
  doc.layers[node.id] = node;
  if (index === undefined || index >= parent.children.length) parent.children.push(node.id);
  else parent.children.splice(Math.max(0, index), 0, node.id);
}

/** Removes a layer and everything below it, releasing clip links in both directions. */
export function deleteLayer(doc: DocState, id: string): void {
  const node = getLayer(doc, id);
  if (node.parent === null) throw new CommandError('The root layer cannot be removed');
  for (const childId of [...node.children]) deleteLayer(doc, childId);
  for (const clippedId of node.clippedLayers) {
    const clipped = doc.layers[clippedId];
    if (clipped) clipped.clipTarget = null;
  }
  if (node.clipTarget !== null) {
    const target = doc.layers[node.clipTarget];
    if (target) target.clippedLayers = target.clippedLayers.filter((x) => x !== id);
  }
  const parent = getLayer(doc, node.parent);
  parent.children = parent.children.filter((x) => x !== id);
  delete doc.layers[id];
}

/** A plain deep copy of a value that may be (or hold) an immer draft; structuredClone alone refuses drafts. */
export function plainCopy<T>(value: T): T {
  return structuredClone(isDraft(value) ? current(value as Draft<T>) : value);
}
