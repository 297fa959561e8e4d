import Konva from 'konva';
import type { LayerNode } from '@koma/editor';
import { fontStack } from '../../fontFamilies.ts';
import type { LayerAdapter } from './types.ts';

/** The tail's base half-width and tip, from the bubble's centre outwards along tailAngle. */
function tailPoints(layer: LayerNode<'TEXT'>): number[] {
  const { width, height } = layer.transform.size;
  const d = layer.data;
  const angle = (d.tailAngle * Math.PI) / 180;
  const cx = width / 2;
  const cy = height / 2;
  // The point of the ellipse in the tail's direction.
  const rx = width / 2;
  const ry = height / 2;
  const t = 1 / Math.sqrt((Math.cos(angle) / rx) ** 2 + (Math.sin(angle) / ry) ** 2);
  const edge = { x: cx + Math.cos(angle) * t, y: cy + Math.sin(angle) * t };
  const normal = { x: -Math.sin(angle), y: Math.cos(angle) };
  const half = Math.max(d.tailWidth, 4) * 2;
  const inset = 0.85;
  const base1 = { x: cx + (edge.x - cx) * inset + normal.x * half, y: cy + (edge.y - cy) * inset + normal.y * half };
  const base2 = { x: cx + (edge.x - cx) * inset - normal.x * half, y: cy + (edge.y - cy) * inset - normal.y * half };
  const tip = { x: edge.x + Math.cos(angle) * d.tailLength, y: edge.y + Math.sin(angle) * d.tailLength };
  return [base1.x, base1.y, tip.x, tip.y, base2.x, base2.y];
}

/** Text and its background (none, rectangle or speech bubble with a tail). */
export const textAdapter: LayerAdapter = {
  build(group, layer) {
    if (layer.type !== 'TEXT') return;
    const d = layer.data;
    const { width, height } = layer.transform.size;
    const stroke = d.backgroundStrokeColor;
    const strokeWidth = d.backgroundBorderSize;
    if (d.backgroundType === 'SPEECH_BUBBLE') {
      if (d.hasTail) {
        group.add(
          new Konva.Line({
            points: tailPoints(layer),
            closed: true,
            fill: d.backgroundColor,
            stroke,
            strokeWidth,
            lineJoin: 'round',
            listening: false,
          }),
        );
      }
      group.add(
        new Konva.Ellipse({
          x: width / 2,
          y: height / 2,
          radiusX: width / 2,
          radiusY: height / 2,
          fill: d.backgroundColor,
          stroke,
          strokeWidth,
          listening: false,
        }),
      );
      if (d.hasTail) {
        // Cover the tail's base so the outline reads as one shape.
        group.add(
          new Konva.Ellipse({
            x: width / 2,
            y: height / 2,
            radiusX: width / 2 - strokeWidth / 2,
            radiusY: height / 2 - strokeWidth / 2,
            fill: d.backgroundColor,
            listening: false,
          }),
        );
      }
    } else if (d.backgroundType === 'RECTANGLE') {
      group.add(
        new Konva.Rect({
          width,
          height,
          fill: d.backgroundColor,
          stroke,
          strokeWidth,
          cornerRadius: d.rectRounding,
          listening: false,
        }),
      );
    }
    const inner =
      d.backgroundType === 'SPEECH_BUBBLE'
        ? { x: width * 0.15, y: height * 0.15, w: width * 0.7, h: height * 0.7 }
        : {
            x: d.paddings.left,
            y: d.paddings.top,
            w: Math.max(1, width - d.paddings.left - d.paddings.right),
            h: Math.max(1, height - d.paddings.top - d.paddings.bottom),
          };
    const fontStyle = `${d.fontItalic ? 'italic ' : ''}${d.fontBold ? 'bold' : 'normal'}`;
    const common = {
      fontFamily: fontStack(d.fontName, d.vertical),
      fontSize: d.fontSize,
      fontStyle,
      fill: d.fontColor,
      stroke: d.fontStroke ? d.fontStrokeColor : undefined,
      strokeWidth: d.fontStroke ? d.fontStrokeSize : 0,
      fillAfterStrokeEnabled: true,
      listening: false,
    };
    if (!d.vertical) {
      group.add(
        new Konva.Text({
          ...common,
          x: inner.x,
          y: inner.y,
          width: inner.w,
          height: inner.h,
          text: d.text,
          align: d.textAlign,
          verticalAlign: 'middle',
          lineHeight: d.lineSpacing * 1.1,
          letterSpacing: (d.characterSpacing - 1) * d.fontSize * 0.1,
          wrap: 'word',
        }),
      );
      return;
    }
    // Vertical: one glyph per cell, columns right to left.
    const cell = d.fontSize * 1.05;
    const columns = d.text.split('\n');
    const perColumn = Math.max(1, Math.floor(inner.h / cell));
    const wrapped = columns.flatMap((c) =>
      c.length === 0 ? [''] : (c.match(new RegExp(`.{1,${perColumn}}`, 'gsu')) ?? ['']),
    );
    const totalWidth = wrapped.length * cell * (1 + 0.1);
    let x = inner.x + inner.w / 2 + totalWidth / 2 - cell;
    for (const column of wrapped) {
      const glyphs = [...column];
      let y = inner.y + Math.max(0, (inner.h - glyphs.length * cell) / 2);
      for (const glyph of glyphs) {
        const rotate = /[ー〜～…‥「」『』（）()［］-]/u.test(glyph);
        group.add(
          new Konva.Text({
            ...common,
            text: glyph,
            x: rotate ? x + cell : x,
            y,
            width: cell,
            align: 'center',
            rotation: rotate ? 90 : 0,
          }),
        );
        y += cell;
      }
      x -= cell * 1.1;
    }
  },
};
