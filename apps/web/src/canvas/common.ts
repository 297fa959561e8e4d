// What every layer shares on the canvas, applied around its kind's adapter (adapters/registry.ts) and never inside
// one: where its body sits, whether it shows, and what clips it. Per-layer appearance that every drawable kind
// gains (opacity, blend mode, rotation, flip) belongs here too, in `placeBody` (geometry) and `applyAppearance`
// (compositing), so the screen, the thumbnail and the export's rasters get it from one place.
import type Konva from 'konva';
import { isContainer, kindOf, placementOf, type DocState, type LayerNode } from '@koma/editor';
import type { BlendMode } from '@koma/domain';

/**
 * Puts a layer's body group at its transform, turned and flipped about the box centre as placementOf says (issue
 * 17); adapters draw in the layer's own units inside it.
 */
export function placeBody(body: Konva.Group, layer: LayerNode): void {
  const t = layer.transform;
  const [a, b, c, d] = placementOf(layer).matrix;
  if (a === 1 && b === 0 && c === 0 && d === 1) {
    body.setAttrs({ x: t.x, y: t.y, offsetX: 0, offsetY: 0, rotation: 0, scaleX: 1, scaleY: 1 });
    return;
  }
  const cx = t.size.width / 2;
  const cy = t.size.height / 2;
  // Konva's order is translate · rotate · scale · translate(−offset): the same as the placement's matrix.
  body.setAttrs({
    x: t.x + cx,
    y: t.y + cy,
    offsetX: cx,
    offsetY: cy,
    rotation: layer.rotation ?? 0,
    scaleX: layer.flipX ? -1 : 1,
    scaleY: layer.flipY ? -1 : 1,
  });
}

/** The canvas compositing operation of a blend mode. */
export function compositeOf(mode: BlendMode | undefined): GlobalCompositeOperation {
  return !mode || mode === 'normal' ? 'source-over' : mode;
}

/**
 * A layer's opacity (on its wrapper) and blend mode (on every shape its kind drew: Konva blends shapes, not groups);
 * called once the body is built. The export rasters leave both out: the PSD layer carries them.
 */
export function applyBlend(wrapper: Konva.Group, body: Konva.Group, layer: LayerNode): void {
  const { opacity, blendMode } = placementOf(layer);
  wrapper.opacity(opacity);
  const op = compositeOf(blendMode);
  for (const shape of body.find('Shape')) shape.globalCompositeOperation(op);
}

/** Compositing every layer shares, set on the wrapper that also carries the clip. */
export function applyAppearance(wrapper: Konva.Group, layer: LayerNode, shown: boolean): void {
  wrapper.visible(layer.visible && shown);
}

/** Traces the shape a layer clips others to: its kind's outline (a panel's polygon) or else its box. */
export function traceClip(ctx: Konva.Context, target: LayerNode): void {
  ctx.beginPath();
  const outline = kindOf(target).outline?.(target);
  if (outline) {
    outline.forEach((v, i) => (i === 0 ? ctx.moveTo(v.x, v.y) : ctx.lineTo(v.x, v.y)));
    ctx.closePath();
  } else {
    const t = target.transform;
    ctx.rect(t.x, t.y, t.size.width, t.size.height);
  }
}

/** Clips a wrapper to a layer read when drawn (so the clip follows it), or removes the clip. */
export function clipWrapper(wrapper: Konva.Group, target: (() => LayerNode | undefined) | null): void {
  if (!target) {
    wrapper.clipFunc(undefined as unknown as (ctx: Konva.Context) => void);
    return;
  }
  wrapper.clipFunc((ctx) => {
    const layer = target();
    if (layer) traceClip(ctx, layer);
  });
}

/** Layers under a root in drawing order, containers flattened (`visibleOnly`: hidden layers and their children left out). */
export function drawnLayers(doc: DocState, rootId: string, visibleOnly = false): LayerNode[] {
  const out: LayerNode[] = [];
  const visit = (id: string) => {
    const node = doc.layers[id];
    if (!node || (visibleOnly && !node.visible)) return;
    if (isContainer(node)) node.children.forEach(visit);
    else out.push(node);
  };
  doc.layers[rootId]?.children.forEach(visit);
  return out;
}
