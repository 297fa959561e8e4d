import type Konva from 'konva';
import type { DocState, LayerNode, UiState } from '@koma/editor';
import type { ImageStore } from '../images.ts';

export interface RenderContext {
  images: ImageStore;
  doc: DocState;
  ui: UiState;
  zoom: number;
}

/** Draws one layer type: builds its Konva nodes once, then updates them from the layer's data. */
export interface LayerAdapter {
  /** Children for a group already positioned at the layer's transform (content is drawn in local coordinates). */
  build(group: Konva.Group, layer: LayerNode, ctx: RenderContext): void;
  /** Image-backed layers redraw when their image arrives. */
  imageIds?(layer: LayerNode): string[];
}
