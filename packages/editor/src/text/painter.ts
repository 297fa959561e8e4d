import type { Point } from '@koma/domain';

/**
 * The part of Canvas2D that bubbles and text are painted with. The browser passes its CanvasRenderingContext2D,
 * tests and scripts a Node canvas, so what is tested is what is drawn.
 */
export interface Painter {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  lineJoin: unknown;
  lineCap: unknown;
  font: string;
  textAlign: unknown;
  textBaseline: unknown;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  arc(x: number, y: number, radius: number, start: number, end: number): void;
  fill(): void;
  stroke(): void;
  clip(): void;
  save(): void;
  restore(): void;
  translate(x: number, y: number): void;
  rotate(angle: number): void;
  scale(x: number, y: number): void;
  setLineDash(segments: number[]): void;
  fillText(text: string, x: number, y: number): void;
  strokeText(text: string, x: number, y: number): void;
}

/** Adds a closed polygon to the current path. */
export function tracePolygon(ctx: Painter, points: readonly Point[]): void {
  points.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
  if (points.length > 0) ctx.closePath();
}

/** Adds a circle to the current path as its own subpath. */
export function traceCircle(ctx: Painter, c: { x: number; y: number; r: number }): void {
  ctx.moveTo(c.x + c.r, c.y);
  ctx.arc(c.x, c.y, c.r, 0, Math.PI * 2);
  ctx.closePath();
}
