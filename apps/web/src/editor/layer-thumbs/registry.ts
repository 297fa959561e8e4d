import type { ComponentType } from 'react';
import { LAYER_TYPES, type LayerType } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import { ImageLayerThumb } from './image.tsx';
import { PanelLayerThumb } from './panel.tsx';
import { PoseLayerThumb } from './pose.tsx';
import { FillLayerThumb, GroupLayerThumb } from './simple.tsx';
import { SketchLayerThumb } from './sketch.tsx';
import { TextLayerThumb } from './text.tsx';

/**
 * The layer-list thumbnail of every layer kind, by type. A new kind adds a file here and a line below; the mapped
 * type refuses a kind left out at compile time, and the loop below at start-up.
 */
export const LAYER_THUMBS: { readonly [T in LayerType]: ComponentType<{ node: LayerNode<T> }> } = {
  GROUP: GroupLayerThumb,
  IMAGE: ImageLayerThumb,
  TEXT: TextLayerThumb,
  PANEL: PanelLayerThumb,
  POSE: PoseLayerThumb,
  SKETCH: SketchLayerThumb,
  FILL: FillLayerThumb,
};

for (const type of LAYER_TYPES) {
  if (typeof LAYER_THUMBS[type] !== 'function') throw new Error(`Layer type ${type} has no layer-list thumbnail`);
}

/** The thumbnail component of a layer (it accepts that layer). */
export function thumbOf(node: LayerNode): ComponentType<{ node: LayerNode }> {
  return LAYER_THUMBS[node.type] as ComponentType<{ node: LayerNode }>;
}
