import Konva from 'konva';
import type { TextData } from '@koma/domain';
import {
  bubbleFillColor,
  bubbleShape,
  layoutText,
  pinnedFaceCentre,
  type LayerNode,
  type TextLayout,
} from '@koma/editor';
import { cssFontFor, measurerFor } from '../text-measure.ts';
import type { LayerAdapter } from './types.ts';

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

/** Text and its background (none, a rectangle, or a speech bubble of any catalogue style with its tail). */
export const textAdapter: LayerAdapter = {
  build(group, layer, ctx) {
    if (layer.type !== 'TEXT') return;
    const node: LayerNode<'TEXT'> = layer;
    const d = node.data;
    const { width, height } = node.transform.size;
    const box = { x: 0, y: 0, width, height };
    const layout = layoutText(d, measurerFor(d.vertical));
    // A tail pinned to a face aims at it; the point is moved into the bubble's own coordinates.
    const face = pinnedFaceCentre(ctx.doc, node);
    const target = face ? { x: face.x - node.transform.x, y: face.y - node.transform.y } : null;
    const shape = d.backgroundType === 'SPEECH_BUBBLE' ? bubbleShape(d, box, target) : null;
    group.add(
      new Konva.Shape({
        listening: false,
        sceneFunc: (context) => {
          const ctx = (context as unknown as { _context: CanvasRenderingContext2D })._context;
          let area = {
            x: d.paddings.left,
            y: d.paddings.top,
            width: width - d.paddings.left - d.paddings.right,
            height: height - d.paddings.top - d.paddings.bottom,
          };
          if (shape) {
            const { outline, tail, contour } = shape;
            ctx.lineWidth = d.backgroundBorderSize;
            ctx.strokeStyle = d.backgroundStrokeColor;
            ctx.fillStyle = d.backgroundColor;
            ctx.lineJoin = 'round';
            if (outline.kind === 'catalogue') {
              ctx.save();
              ctx.translate(0, 0);
              ctx.scale(width / outline.width, height / outline.height);
              for (const path of outline.paths) {
                ctx.fillStyle = bubbleFillColor(path.fill, d.backgroundStrokeColor, d.backgroundColor);
                ctx.fill(new Path2D(path.d));
              }
              ctx.restore();
              if (tail?.kind === 'wedge') {
                ctx.fillStyle = d.backgroundColor;
                fillPolygon(ctx, tail.fill);
                strokePolyline(ctx, tail.polygon);
              }
            } else {
              fillPolygon(ctx, contour);
              ctx.stroke();
            }
            if (tail?.kind === 'circles') {
              for (const c of tail.circles) {
                ctx.beginPath();
                ctx.arc(c.x, c.y, c.r, 0, Math.PI * 2);
                ctx.fillStyle = d.backgroundColor;
                ctx.fill();
                ctx.stroke();
              }
            }
            area = outline.textArea;
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
          drawText(ctx, d, layout, ox, oy);
        },
      }),
    );
  },
};

function fillPolygon(ctx: CanvasRenderingContext2D, points: readonly { x: number; y: number }[]): void {
  ctx.beginPath();
  points.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
  ctx.closePath();
  ctx.fill();
}

function strokePolyline(ctx: CanvasRenderingContext2D, points: readonly { x: number; y: number }[]): void {
  ctx.beginPath();
  points.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
  ctx.stroke();
}
