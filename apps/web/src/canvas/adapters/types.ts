import type Konva from 'konva';
import type { LayerType } from '@koma/domain';
import type { DocState, LayerNode, UiState } from '@koma/editor';
import type { ImageStore } from '../images.ts';

export interface RenderContext {
  images: ImageStore;
  doc: DocState;
  ui: UiState;
  zoom: number;
}

/**
 * What a picture made from the document (not the editor's screen) is for: the dashboard thumbnail (its `frame`
 * part is what the layer draws above its clipped layers, as `frame` does on screen), or one raster of an export
 * plan (`role` is the plan node's role, e.g. a text's glyphs apart from its bubble).
 */
export type PictureUse = { for: 'thumbnail'; part: 'body' | 'frame' } | { for: 'export'; role: string };

/**
 * Draws one layer kind in Konva (the web side of packages/editor's LayerKind; registered in adapters/registry.ts).
 * The scene calls `build` only for layers whose data changed since the last frame (immer keeps unchanged layers
 * identical) or whose `dependsOn` values changed, so an adapter is a pure function of its inputs. Everything every
 * layer shares — position, visibility, clipping, and later opacity/blend/rotation/flip — is applied around the
 * adapter by canvas/common.ts, never inside it.
 */
export interface LayerAdapter<T extends LayerType = LayerType> {
  readonly type: T;
  /** Children for a group already positioned at the layer's transform (content is drawn in local coordinates). */
  build(group: Konva.Group, layer: LayerNode<T>, ctx: RenderContext): void;
  /**
   * Draws the layer for a picture of the document: no guides, no placeholders (defaults to `build`). Leaving
   * nothing in `group` leaves the layer out.
   */
  picture?(group: Konva.Group, layer: LayerNode<T>, ctx: RenderContext, use: PictureUse): void;
  /**
   * What the layer draws above the layers clipped to it (a panel's frame line and reading-order badge), in the
   * same units as `build`: the scene stacks it right after the last of them, as the export stacks a panel's frame
   * over its clipped art.
   */
  frame?(group: Konva.Group, layer: LayerNode<T>, ctx: RenderContext): void;
  /** Image-backed layers redraw when their image arrives. */
  imageIds?(layer: LayerNode<T>): string[];
  /** Values besides the layer itself that its drawing depends on; a change of any (by identity) redraws it. */
  dependsOn?(layer: LayerNode<T>, ctx: RenderContext): readonly unknown[];
}

/** Declares an adapter (types each hook by its layer type). */
export function defineAdapter<T extends LayerType>(adapter: LayerAdapter<T>): LayerAdapter<T> {
  return adapter;
}
