import Konva from 'konva';
import type { TextData } from '@koma/domain';
import {
  bubbleLink,
  bubbleShape,
  paintBubble,
  pinnedFaceCentre,
  shownText,
  type DocState,
  type LayerNode,
  type TextLayout,
} from '@koma/editor';
import { cssFontFor, measurerFor } from '../text-measure.ts';
import { defineAdapter } from './types.ts';
import { ensureFont } from '../../fonts.ts';

/** The readings of ruby notation: half-size characters, upright, centred where the layout put them. */
function drawRuby(
  ctx: CanvasRenderingContext2D,
  data: TextData,
  layout: TextLayout,
  ox: number,
  oy: number,
  paint: (text: string, x: number, y: number) => void,
): void {
  if (layout.ruby.length === 0) return;
  ctx.save();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineWidth = data.fontStrokeSize / 2;
  for (const mark of layout.ruby) {
    ctx.font = cssFontFor({ ...layout.font, size: mark.size }, data.vertical);
    paint(mark.text, ox + mark.x, oy + mark.y);
  }
  ctx.restore();
}

function drawText(ctx: CanvasRenderingContext2D, data: TextData, layout: TextLayout, ox: number, oy: number): void {
  ctx.font = cssFontFor(layout.font, data.vertical);
  ctx.fillStyle = data.fontColor;
  ctx.strokeStyle = data.fontStrokeColor;
  ctx.lineWidth = data.fontStrokeSize;
  ctx.lineJoin = 'round';
  const paint = (text: string, x: number, y: number) => {
    if (data.fontStroke && data.fontStrokeSize > 0) ctx.strokeText(text, x, y);
    ctx.fillText(text, x, y);
  };
  // drawRuby saves and restores the context, so the base text's font and alignment stay as set here.
  drawRuby(ctx, data, layout, ox, oy, paint);
  if (layout.kind === 'horizontal') {
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    for (const line of layout.lines) {
      if (layout.tracking === 0) paint(line.text, ox + line.x, oy + line.y);
      else for (const glyph of line.glyphs) paint(glyph.text, ox + line.x + glyph.x, oy + line.y);
    }
    return;
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const column of layout.columns) {
    for (const glyph of column.glyphs) {
      ctx.save();
      ctx.translate(ox + glyph.x, oy + glyph.y);
      if (glyph.rotation) ctx.rotate((glyph.rotation * Math.PI) / 180);
      if (glyph.scaleX !== 1) ctx.scale(glyph.scaleX, 1);
      paint(glyph.text, 0, 0);
      ctx.restore();
    }
  }
}

/**
 * Paints a text layer (background, then glyphs) in its own units, origin at its box's top-left. The canvas draws
 * through it and the PDF export records its glyph calls, so both place every glyph the same way.
 */
export function textPainter(node: LayerNode<'TEXT'>, doc: DocState): (ctx: CanvasRenderingContext2D) => void {
  const d = node.data;
  const { width, height } = node.transform.size;
  const box = { x: 0, y: 0, width, height };
  // Shrink-to-fit text is laid out at the size that fits the box (export draws through here too).
  const { data: shown, layout } = shownText(d, width, height, measurerFor(d.vertical));
  // A tail pinned to a face aims at it; the point is moved into the bubble's own coordinates.
  const face = pinnedFaceCentre(doc, node);
  const target = face ? { x: face.x - node.transform.x, y: face.y - node.transform.y } : null;
  const shape = d.backgroundType === 'SPEECH_BUBBLE' ? bubbleShape(d, box, target) : null;
  const link = shape ? bubbleLink(doc, node) : null;
  return (ctx) => {
    let area = {
      x: d.paddings.left,
      y: d.paddings.top,
      width: width - d.paddings.left - d.paddings.right,
      height: height - d.paddings.top - d.paddings.bottom,
    };
    if (shape) {
      paintBubble(ctx, d, shape, link);
      area = shape.outline.textArea;
    } else if (d.backgroundType === 'RECTANGLE') {
      ctx.fillStyle = d.backgroundColor;
      ctx.strokeStyle = d.backgroundStrokeColor;
      ctx.lineWidth = d.backgroundBorderSize;
      ctx.beginPath();
      ctx.roundRect(0, 0, width, height, d.rectRounding);
      ctx.fill();
      if (d.backgroundBorderSize > 0) ctx.stroke();
    }
    // The text block sits in the middle of the area its background leaves free.
    const ox = area.x + (area.width - layout.width) / 2;
    const oy = area.y + (area.height - layout.height) / 2;
    drawText(ctx, shown, layout, ox, oy);
  };
}

/** Text and its background (none, a rectangle, or a speech bubble of any catalogue style with its tail). */
export const textAdapter = defineAdapter({
  type: 'TEXT',
  // A tail pinned to a face follows the image it points at.
  // A linked bubble is drawn around its partner, so it redraws when the partner moves or changes.
  dependsOn: (layer, ctx) => [
    layer.data.pinToFace && layer.data.tailTargetLayerId ? ctx.doc.layers[layer.data.tailTargetLayerId] : undefined,
    layer.data.linkedBubbleId ? ctx.doc.layers[layer.data.linkedBubbleId] : undefined,
  ],
  build(group, layer, ctx) {
    const node: LayerNode<'TEXT'> = layer;
    // A font from the catalogue loads the first time a layer uses it; the canvas redraws when it arrives.
    void ensureFont(node.data.fontName, node.data.text);
    const paint = textPainter(node, ctx.doc);
    group.add(
      new Konva.Shape({
        listening: false,
        sceneFunc: (context) => paint((context as unknown as { _context: CanvasRenderingContext2D })._context),
      }),
    );
  },
  /**
   * An export draws a text in two parts: its glyphs alone (background and border made transparent, so the text keeps
   * the place its bubble gives it) and its background alone (no text).
   */
  picture(group, layer, ctx, use) {
    this.build(group, use.for === 'export' ? textPart(layer, use.role) : layer, ctx);
  },
});

function textPart(layer: LayerNode<'TEXT'>, role: string): LayerNode<'TEXT'> {
  if (role === 'text') {
    return { ...layer, data: { ...layer.data, backgroundColor: '#00000000', backgroundStrokeColor: '#00000000' } };
  }
  if (role === 'textBackground') return { ...layer, data: { ...layer.data, text: '' } };
  return layer;
}
