import {
  LAYOUT_PRESETS,
  PANEL_SPLIT_GAP,
  RANDOM_LAYOUT,
  createPanelLayer,
  evenGutter,
  zGutter,
  zPanelData,
  type Gutter,
  layoutPreset,
  moveVertices,
  randomLayout,
  splitPanel as splitShape,
  type LaidOutPanel,
  type ReadingOrder,
  type SplitDirection,
  type SplitResult,
  type VertexMove,
} from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { CommandError, defineCommand, type CommandContext } from './command.ts';
import { deleteLayer, getLayer, getLayerOf, pageBoundsFor, plainCopy, rootOf } from './helpers.ts';
import { nameBase, nextName } from './names.ts';
import { panelsUnder, renumberPanels, setVertices, shapesUnder, unlinkNeighbors } from './panel-helpers.ts';

/** The gutters of the page a root belongs to, or `fallback` (the spec's gap) when it sets none. */
export function gutterOf(doc: DocState, rootId: string, fallback: number): Gutter {
  return doc.pages.find((p) => p.rootId === rootId)?.gutter ?? evenGutter(fallback);
}

/**
 * Where a split of a panel at `at` (0..1 across it) leaves its two parts, the page's gutter apart: what the split
 * command applies and what the Panel tool previews under the pointer. Throws (naming why) when it cannot split.
 */
export function splitGeometry(
  doc: DocState,
  id: string,
  direction: SplitDirection,
  at: number,
  cloneId = 'split-preview',
): SplitResult {
  const rootId = rootOf(doc, id);
  const shapes = shapesUnder(doc, rootId);
  const gutter = gutterOf(doc, rootId, PANEL_SPLIT_GAP);
  const gap = direction === 'horizontal' ? gutter.vertical : gutter.horizontal;
  return splitShape(shapes.get(id)!, cloneId, direction, at, shapes, gap);
}

/**
 * Splits a panel in two, the parts a gutter apart (the page's, else the spec's 15 px): a horizontal cut leaves the
 * vertical gutter between the tiers, a vertical cut the horizontal one. Returns the new panel's id.
 */
export const splitPanel = defineCommand(
  'Split panel',
  (doc: DocState, args: { id: string; direction: SplitDirection; at: number }, ctx) => {
    const panel = getLayerOf(doc, args.id, 'PANEL');
    if (panel.locked) throw new CommandError('Layer is locked');
    const rootId = rootOf(doc, args.id);
    const cloneId = ctx.ids();
    const result = splitGeometry(doc, args.id, args.direction, args.at, cloneId);
    const clone: LayerNode<'PANEL'> = {
      ...plainCopy(panel),
      id: cloneId,
      clippedLayers: [],
      clipTarget: null,
      children: [],
    };
    // The clone is a panel of its own: "Panel 4", not a second "Panel 3".
    clone.name = nextName(doc, rootId, nameBase(panel.name));
    doc.layers[cloneId] = clone;
    const parent = getLayer(doc, panel.parent!);
    parent.children.splice(parent.children.indexOf(args.id) + 1, 0, cloneId);
    setVertices(panel, result.original);
    setVertices(clone, result.clone);
    for (const [id, lists] of result.neighbors) getLayerOf(doc, id, 'PANEL').data.neighborPanels = lists;
    renumberPanels(doc, rootId);
    return cloneId;
  },
);

/** Drags panel vertices (one for a corner, two for an edge) by a delta; neighbours across a gutter follow. */
export const movePanelVertices = defineCommand(
  'Move panel vertex',
  (doc: DocState, args: { moves: VertexMove[]; dx: number; dy: number }) => {
    if (args.moves.length === 0) throw new CommandError('No vertex to move');
    if (!Number.isFinite(args.dx) || !Number.isFinite(args.dy)) throw new CommandError('The move must be finite');
    const rootId = rootOf(doc, args.moves[0]!.panelId);
    const page = pageBoundsFor(doc, rootId) ?? { width: Infinity, height: Infinity };
    const changed = moveVertices(args.moves, { x: args.dx, y: args.dy }, shapesUnder(doc, rootId), page);
    for (const [id, vertices] of changed) setVertices(getLayerOf(doc, id, 'PANEL'), vertices);
    renumberPanels(doc, rootId);
  },
);

export const togglePanelBorder = defineCommand('Toggle panel border', (doc, args: { id: string }) => {
  const panel = getLayerOf(doc, args.id, 'PANEL');
  panel.data.border = !panel.data.border;
});

/** A panel's frame line: width in page units and #rrggbb colour; a bad value names its field and changes nothing. */
export const setPanelBorder = defineCommand(
  'Edit panel frame',
  (doc, args: { ids: string[]; width?: number; color?: string }) => {
    if (args.ids.length === 0) throw new CommandError('Select a panel first');
    const check = zPanelData.pick({ borderWidth: true, borderColor: true }).partial().safeParse({
      borderWidth: args.width,
      borderColor: args.color,
    });
    if (!check.success) throw new CommandError(check.error.issues[0]?.message ?? 'Bad panel frame');
    for (const id of args.ids) {
      const panel = getLayerOf(doc, id, 'PANEL');
      if (panel.locked) throw new CommandError('Layer is locked');
      if (args.width !== undefined) panel.data.borderWidth = args.width;
      if (args.color !== undefined) panel.data.borderColor = args.color.toLowerCase();
    }
  },
);

/** Sets (or, with null, clears back to the spec's gaps) the gutters of a page; used by later splits and layouts. */
export const setPageGutter = defineCommand(
  'Change gutter',
  (doc: DocState, args: { uuid: string; gutter: Gutter | null }) => {
    const page = doc.pages.find((p) => p.uuid === args.uuid);
    if (!page) throw new CommandError('Page not found');
    if (args.gutter === null) {
      delete page.gutter;
      return;
    }
    const check = zGutter.safeParse(args.gutter);
    if (!check.success) throw new CommandError(check.error.issues[0]?.message ?? 'Bad gutter');
    page.gutter = { horizontal: check.data.horizontal, vertical: check.data.vertical };
  },
);

export const setPanelDetails = defineCommand(
  'Edit panel',
  (doc, args: { id: string; description?: string; ignoreNeighbors?: boolean }) => {
    const panel = getLayerOf(doc, args.id, 'PANEL');
    if (args.description !== undefined) panel.data.description = args.description;
    if (args.ignoreNeighbors !== undefined) panel.data.ignoreNeighbors = args.ignoreNeighbors;
  },
);

function replacePanels(doc: DocState, rootId: string, laid: LaidOutPanel[], ctx: CommandContext): string[] {
  for (const panel of panelsUnder(doc, rootId)) {
    if (panel.locked) throw new CommandError('A locked panel keeps the page from being laid out again');
  }
  for (const panel of panelsUnder(doc, rootId)) {
    unlinkNeighbors(doc, panel);
    deleteLayer(doc, panel.id);
  }
  const ids = laid.map(() => ctx.ids());
  const root = getLayer(doc, rootId);
  // Panels go beneath everything else on the page so existing artwork stays visible.
  const nodes = laid.map((p, i) => {
    const layer = createPanelLayer(
      ids[i]!,
      { x: 0, y: 0, size: { width: 1, height: 1 } },
      {
        vertices: p.vertices,
        position: p.position,
        neighborPanels: {
          left: p.neighborPanels.left.map((k) => ids[Number(k)]!),
          right: p.neighborPanels.right.map((k) => ids[Number(k)]!),
          top: p.neighborPanels.top.map((k) => ids[Number(k)]!),
          bottom: p.neighborPanels.bottom.map((k) => ids[Number(k)]!),
        },
      },
    );
    layer.name = `Panel ${p.position}`;
    const { children: _c, ...rest } = layer;
    const node = { ...rest, parent: rootId, clipTarget: null, children: [] } as LayerNode<'PANEL'>;
    setVertices(node, p.vertices);
    node.originalSize = { ...node.transform.size };
    doc.layers[node.id] = node;
    return node.id;
  });
  root.children.unshift(...nodes);
  return ids;
}

/** Replaces a page's panels with one of the nine presets (mirrored for right-to-left reading). */
export const applyLayoutPreset = defineCommand(
  'Apply layout',
  (doc: DocState, args: { rootId: string; presetId: string }, ctx) => {
    const preset = LAYOUT_PRESETS.find((p) => p.id === args.presetId);
    if (!preset) throw new CommandError(`Unknown layout preset ${args.presetId}`);
    const page = pageBoundsFor(doc, args.rootId);
    if (!page) throw new CommandError('Layouts apply to comic pages');
    const laid = layoutPreset(
      preset,
      page,
      doc.comicConfiguration.readingOrder,
      undefined,
      gutterOf(doc, args.rootId, PANEL_SPLIT_GAP),
    );
    return replacePanels(doc, args.rootId, laid, ctx);
  },
);

/** Replaces a page's panels with a random layout drawn from the editor's random source. */
export const applyRandomLayout = defineCommand('Random layout', (doc: DocState, args: { rootId: string }, ctx) => {
  const page = pageBoundsFor(doc, args.rootId);
  if (!page) throw new CommandError('Layouts apply to comic pages');
  const gutter = gutterOf(doc, args.rootId, RANDOM_LAYOUT.gap);
  return replacePanels(
    doc,
    args.rootId,
    randomLayout(page, doc.comicConfiguration.readingOrder, ctx.random, gutter),
    ctx,
  );
});

/** Changes the reading order and renumbers every page's panels. */
export const setReadingOrder = defineCommand('Change reading order', (doc: DocState, args: { order: ReadingOrder }) => {
  doc.comicConfiguration.readingOrder = args.order;
  for (const page of doc.pages) renumberPanels(doc, page.rootId);
  renumberPanels(doc, doc.rootId);
});
