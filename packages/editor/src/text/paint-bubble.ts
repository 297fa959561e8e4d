import { bubbleLookOf, flashLines, type BubbleLook, type Point, type TextData } from '@koma/domain';
import { bubbleFillColor } from './outline.ts';
import { traceCircle, tracePolygon, type Painter } from './painter.ts';
import { clockwise } from './polygon.ts';
import type { BubbleShape } from './tail.ts';
import type { BubbleLink } from './link.ts';

/**
 * Narrows the clip to outside every polygon: a large box clockwise with the polygon counter-clockwise inside it
 * leaves the polygon out under the nonzero rule; each clip intersects the previous one.
 */
function clipOutside(ctx: Painter, polygons: readonly Point[][]): void {
  for (const polygon of polygons) {
    if (polygon.length < 3) continue;
    const xs = polygon.map((p) => p.x);
    const ys = polygon.map((p) => p.y);
    const pad = 1e5;
    const [x0, x1, y0, y1] = [
      Math.min(...xs) - pad,
      Math.max(...xs) + pad,
      Math.min(...ys) - pad,
      Math.max(...ys) + pad,
    ];
    ctx.beginPath();
    tracePolygon(
      ctx,
      clockwise([
        { x: x0, y: y0 },
        { x: x1, y: y0 },
        { x: x1, y: y1 },
        { x: x0, y: y1 },
      ]),
    );
    tracePolygon(ctx, clockwise(polygon).reverse());
    ctx.clip();
  }
}

/** A style's look, with how deep (in border sizes) its ink reaches inside the outline. */
export function bubbleLook(style: string): BubbleLook & { innerDepth: number } {
  const look = bubbleLookOf(style);
  const innerDepth = look.ring === 'double' ? 2.5 * look.weight : look.weight / 2;
  return { ...look, innerDepth };
}

/** Flash lines: 44 thin wedges from just inside the outline's ellipse out to the edge of the box. */
const FLASH_LINES = 44;

function flashWedges(shape: BubbleShape, stroke: number): Point[][] {
  const xs = shape.outline.points.map((p) => p.x);
  const ys = shape.outline.points.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const e = { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, rx: (x1 - x0) / 2, ry: (y1 - y0) / 2 };
  const { box } = shape;
  const reach = Math.max(0, Math.min(x0 - box.x, y0 - box.y, box.x + box.width - x1, box.y + box.height - y1));
  return flashLines(e, FLASH_LINES, reach, Math.max(1, stroke * 0.7));
}

/**
 * Paints a speech bubble's background. The silhouette scaled to the box, with the tail merged into it, is one path:
 * filled with the background, then stroked at the layer's border size (times the style's weight), so the outline has
 * one weight whatever the aspect and no seam where the tail joins. Double and two-tone rings add their inner line or
 * band inside that path (clipped to it); a shadow is the same path, tail included, offset; thought styles add their
 * trail of circles to the path instead of a tail. A linked bubble keeps all its ink outside its partner (which keeps
 * its own outside this one), so the pair prints as one outline; one of the pair paints the neck that joins them.
 */
export function paintBubble(ctx: Painter, data: TextData, shape: BubbleShape, link: BubbleLink | null = null): void {
  const look = bubbleLook(shape.outline.style);
  const border = Math.max(0, data.backgroundBorderSize);
  const stroke = border * look.weight;
  const fg = data.backgroundStrokeColor;
  const bg = data.backgroundColor;
  const circles = shape.tail?.circles ?? [];
  const trace = () => {
    ctx.beginPath();
    tracePolygon(ctx, shape.contour);
    for (const c of circles) traceCircle(ctx, c);
  };
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.setLineDash([]);
  // Ink stays outside a linked partner (and its neck); the fill does not, so it is drawn outside this clip.
  const inked = (draw: () => void) => {
    if (!link) return draw();
    ctx.save();
    clipOutside(ctx, link.neck ? [link.partner, link.neck] : [link.partner]);
    draw();
    ctx.restore();
  };
  inked(() => paintShadow());
  function paintShadow() {
    if (look.shadow <= 0) return;
    const offset = look.shadow * Math.min(shape.box.width, shape.box.height);
    ctx.save();
    ctx.translate(offset, offset);
    trace();
    ctx.fillStyle = bubbleFillColor('FILL_UNKNOWN', fg, bg);
    ctx.fill();
    if (stroke > 0) {
      ctx.strokeStyle = ctx.fillStyle;
      ctx.lineWidth = stroke;
      ctx.stroke();
    }
    ctx.restore();
  }
  if (look.flash) {
    inked(() => {
      ctx.fillStyle = fg;
      ctx.beginPath();
      for (const wedge of flashWedges(shape, stroke)) tracePolygon(ctx, wedge);
      ctx.fill();
    });
  }
  if (link?.neck && link.drawsNeck) {
    // The neck, before this bubble's paper covers its end: paper and its two sides, kept off the partner.
    const neck = link.neck;
    ctx.save();
    clipOutside(ctx, [link.partner]);
    ctx.beginPath();
    tracePolygon(ctx, neck);
    ctx.fillStyle = bg;
    ctx.fill();
    if (stroke > 0) {
      ctx.strokeStyle = fg;
      ctx.lineWidth = stroke;
      ctx.stroke();
    }
    ctx.restore();
  }
  trace();
  ctx.fillStyle = bg;
  ctx.fill();
  inked(paintRings);
  inked(paintStroke);
  ctx.restore();

  function paintRings() {
    if (!(border > 0 && (look.ring === 'double' || look.ring === 'two-tone'))) return;
    ctx.save();
    trace();
    ctx.clip();
    if (look.ring === 'double') {
      // A line from 1.5 to 2.5 borders inside the outline: stroke 5 wide, then clear the middle 3.
      ctx.strokeStyle = fg;
      ctx.lineWidth = 5 * stroke;
      ctx.stroke();
      ctx.strokeStyle = bg;
      ctx.lineWidth = 3 * stroke;
      ctx.stroke();
    } else {
      ctx.strokeStyle = bubbleFillColor('FILL_UNKNOWN', fg, bg);
      ctx.lineWidth = 4 * stroke;
      ctx.stroke();
    }
    ctx.restore();
  }
  function paintStroke() {
    if (stroke <= 0) return;
    if (look.ring === 'dashed') ctx.setLineDash([stroke * 2, stroke * 1.6]);
    trace();
    ctx.strokeStyle = fg;
    ctx.lineWidth = stroke;
    ctx.stroke();
  }
}
