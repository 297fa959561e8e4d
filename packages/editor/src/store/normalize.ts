import { DOCUMENT_VERSION, type Layer, type WorkspaceData, type WorkspaceType } from '@koma/domain';
import type { DocState, LayerNode } from './state.ts';

/** Flattens a decoded workspace document into the editor's store. */
export function normalize(data: WorkspaceData, type: WorkspaceType): DocState {
  const layers: Record<string, LayerNode> = {};
  const add = (layer: Layer, parent: string | null): void => {
    const { children, ...rest } = layer;
    layers[layer.id] = { ...rest, parent, clipTarget: null, children: children.map((c) => c.id) };
    for (const child of children) add(child, layer.id);
  };
  add(data.rootLayer, null);
  for (const page of data.pages) add(page.rootLayer, null);
  for (const node of Object.values(layers)) {
    for (const id of node.clippedLayers) {
      const clipped = layers[id];
      if (clipped) clipped.clipTarget = node.id;
    }
  }
  return {
    type,
    comicConfiguration: { ...data.comicConfiguration },
    rootId: data.rootLayer.id,
    pages: data.pages.map((p) => ({
      uuid: p.uuid,
      rootId: p.rootLayer.id,
      viewTransform: { ...p.viewTransform },
      generatedStory: p.generatedStory,
      thumbnailUrl: p.thumbnailUrl,
      ...(p.gutter ? { gutter: { ...p.gutter } } : {}),
    })),
    lastPage: data.lastPage,
    viewTransform: { ...data.viewTransform },
    layers,
    regionalPrompts: structuredClone(data.regionalPrompts),
    sketchMap: structuredClone(data.sketchMap),
  };
}

/** Rebuilds the saved tree from the store. */
export function denormalize(doc: DocState): WorkspaceData {
  const build = (id: string): Layer => {
    const node = doc.layers[id];
    if (!node) throw new Error(`Layer ${id} is missing from the store`);
    return savedLayer(node, node.children.map(build));
  };
  const root = build(doc.rootId);
  if (root.type !== 'GROUP') throw new Error('The root layer must be a GROUP');
  return structuredClone({
    version: DOCUMENT_VERSION,
    viewTransform: doc.viewTransform,
    rootLayer: root,
    pages: doc.pages.map((p) => {
      const pageRoot = build(p.rootId);
      if (pageRoot.type !== 'GROUP') throw new Error('A page root must be a GROUP');
      return {
        uuid: p.uuid,
        viewTransform: p.viewTransform,
        rootLayer: pageRoot,
        generatedStory: p.generatedStory,
        thumbnailUrl: p.thumbnailUrl,
        ...(p.gutter ? { gutter: p.gutter } : {}),
      };
    }),
    comicConfiguration: doc.comicConfiguration,
    lastPage: doc.lastPage,
    regionalPrompts: doc.regionalPrompts,
    sketchMap: doc.sketchMap,
  });
}

/** One layer in its saved form (editor.md §3), with the given children. */
export function savedLayer(node: LayerNode, children: Layer[] = []): Layer {
  return {
    id: node.id,
    type: node.type,
    name: node.name,
    transform: node.transform,
    originalSize: node.originalSize,
    visible: node.visible,
    locked: node.locked,
    clippedLayers: node.clippedLayers,
    opacity: node.opacity ?? 1,
    blendMode: node.blendMode ?? 'normal',
    rotation: node.rotation ?? 0,
    flipX: node.flipX ?? false,
    flipY: node.flipY ?? false,
    children,
    data: node.data,
  } as Layer;
}
