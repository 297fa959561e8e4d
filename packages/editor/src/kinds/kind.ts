import type { LayerDataByType, LayerOf, LayerType, Point, Transform } from '@koma/domain';
import type { Command } from '../commands/command.ts';
import type { DocState, LayerNode } from '../store/state.ts';
import type { ToolId } from '../ui/ui-state.ts';
import type { Box } from './geometry.ts';
import type { Drag, ToolHost, ToolStart, CanvasPointer } from '../interaction/drag.ts';
import type { PlanContext, PlanNode } from '../export/plan-types.ts';

/**
 * The sections of the layer tab, in the order a kind lists them. Each names a piece of UI the web registers a
 * renderer for (apps/web/src/editor/tabs/sections.ts); the editor only says which ones a kind shows.
 */
export const LAYER_TAB_SECTIONS = [
  'text.fields',
  'panel.fields',
  'image.variations',
  'image.filters',
  'generation.operations',
] as const;
export type LayerTabSection = (typeof LAYER_TAB_SECTIONS)[number];

/** A kind's own tool (POSE, PANEL, TEXT): what a pointer-down does with that tool selected. */
export interface KindTool {
  readonly id: ToolId;
  down(host: ToolHost, e: CanvasPointer, p: Point): ToolStart;
}

/** How a kind takes brush strokes (an image's inpaint mask, a sketch's strokes). */
export interface KindBrush<T extends LayerType> {
  start(host: ToolHost, node: LayerNode<T>, p: Point): Drag | null;
}

/** What a kind contributes to the PSD/PNG plan of a page. */
export interface KindExport<T extends LayerType> {
  /** The plan nodes of one layer, bottom first (`clipping`: it is clipped to the layer below). */
  nodes(node: LayerNode<T>, clipping: boolean, ctx: PlanContext): PlanNode[];
  /**
   * Layers of this kind among one set of siblings export as one block, at the place of the first of them
   * (panels: one group per panel in reading order). When absent, each layer exports where it stands.
   */
  block?(members: LayerNode<T>[], pool: readonly LayerNode[], ctx: PlanContext): PlanNode[];
  /**
   * Importing Koma's own PSD brings the layer back from its saved form, stored in the file's Koma block (a panel,
   * an editable text with its bubble, a pose, a sketch), instead of as the pixels of its PSD layer. A layer drawn
   * as plain pixels (a pose, a sketch) comes back from its data only while those pixels are as Koma wrote them:
   * painted over in another tool, they come back as the pixels.
   */
  restore?: boolean;
}

/**
 * Everything specific to one layer type, in one place (tldraw's ShapeUtil). Behaviour every layer shares —
 * selection, move, lock, visibility, clipping, and its placement (kinds/placement.ts) — lives outside the kinds.
 */
export interface LayerKind<T extends LayerType = LayerType> {
  readonly type: T;
  /** The saved form of the layer's data, from packages/domain; parsing `{}` gives the defaults. */
  readonly schema: { parse(data: unknown): LayerDataByType[T] };
  /** A new layer of this kind with its defaults (the domain's factory). */
  create(id: string, transform: Transform): LayerOf<T>;
  /** Holds child layers, is drawn through them and is never clipped (GROUP). */
  readonly container: boolean;
  /** Its content is a stored picture: a layer clipped to it must be merged before it can be painted on. */
  readonly raster: boolean;

  // Geometry
  /** The drawn area when it is not the whole box, in canvas units (a panel's polygon). */
  outline?(node: LayerNode<T>): readonly Point[];
  /** Points the MOVE tool can drag besides the corners (a speech bubble's tail tip), in canvas units. */
  handles?(node: LayerNode<T>): Point[];
  /** Starts dragging one of `handles` under the pointer, if any. */
  grab?(host: ToolHost, node: LayerNode<T>, p: Point): Drag | null;

  // Transform
  /** Corner drags keep the aspect ratio without Shift. */
  readonly keepAspect: boolean;
  /** Moving it also moves the layers clipped to it (a panel carries its pictures). */
  readonly carriesClipped: boolean;
  /** Limits a move by (dx, dy), e.g. to stay inside the page. */
  limitMove?(doc: DocState, node: LayerNode<T>, dx: number, dy: number): Point;
  /** Moves what the kind keeps in canvas units besides the transform (a panel's vertices). */
  translate?(node: LayerNode<T>, dx: number, dy: number): void;
  /** Resize: puts the layer into a new box (the default sets the transform). */
  placeBox?(doc: DocState, node: LayerNode<T>, box: Box): void;
  /** A page-setup change scaled the page by `factor`: what else scales besides the box (a text's font size). */
  rescale?(node: LayerNode<T>, factor: number): void;

  // Lifecycle in the tree
  /** Before the layer leaves the document (a panel unlinks its neighbours). */
  beforeRemove?(doc: DocState, node: LayerNode<T>): void;
  /** After a copy was made (not yet renumbered): the copy's own fix-ups (a panel's neighbours, page edge). */
  afterDuplicate?(doc: DocState, copy: LayerNode<T>, rootId: string): void;
  /** After layers of a root changed (added, removed, duplicated): derived data of the root (panel numbers). */
  afterRootChange?(doc: DocState, rootId: string): void;
  /** Broken invariants of one layer, in words (empty when sound). */
  invariants?(doc: DocState, node: LayerNode<T>): string[];

  // Tools
  readonly tool?: KindTool;
  readonly brush?: KindBrush<T>;
  /** Brush strokes on empty canvas create a layer of this kind and paint into it (SKETCH). */
  createForBrush?(host: ToolHost, p: Point, root: string): LayerNode<T> | null;

  /** Stored images the layer shows (reloaded, awaited before export). */
  imageIds(node: LayerNode<T>): string[];
  readonly export: KindExport<T>;
  /** What the layer tab shows below the common fields, in order. */
  readonly tab: readonly LayerTabSection[];
  /** The kind's own commands, by name. */
  readonly commands: Readonly<Record<string, Command<never, unknown>>>;
  /** One-key shortcuts that run a command on each selected layer of this kind (`m`: a panel's border). */
  readonly keys?: Readonly<Record<string, Command<{ id: string }, unknown>>>;
}

/** Declares a kind (types each hook by its layer type). */
export function defineKind<T extends LayerType>(kind: LayerKind<T>): LayerKind<T> {
  return kind;
}
