import { LAYER_TYPES, type LayerType } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import type { LayerAdapter } from './types.ts';
import { groupAdapter } from './group.ts';
import { imageAdapter } from './image.ts';
import { textAdapter } from './text.ts';
import { panelAdapter } from './panel.ts';
import { poseAdapter } from './pose.ts';
import { sketchAdapter } from './sketch.ts';
import { fillAdapter } from './fill.ts';

/**
 * The Konva adapter of every layer kind, by type: the screen (canvas/scene.ts), the dashboard thumbnail and the
 * export's rasters all draw through it. Adding a kind: a file beside this one and a line here (see
 * docs/how-it-works/layer-kinds.md); the type below and adapters.test.ts refuse a kind left out.
 */
export const LAYER_ADAPTERS: { readonly [T in LayerType]: LayerAdapter<T> } = {
  GROUP: groupAdapter,
  IMAGE: imageAdapter,
  TEXT: textAdapter,
  PANEL: panelAdapter,
  POSE: poseAdapter,
  SKETCH: sketchAdapter,
  FILL: fillAdapter,
};

for (const type of LAYER_TYPES) {
  if (LAYER_ADAPTERS[type]?.type !== type) throw new Error(`Layer type ${type} has no canvas adapter`);
}

/** The adapter of a layer (its hooks accept that layer). */
export function adapterOf(layer: LayerNode): LayerAdapter {
  return LAYER_ADAPTERS[layer.type];
}
