// The inpaint mask (editor.md §3 maskParams): the BRUSH strokes stored on the image layer, in the image's own
// pixel space, drawn white (change) on black (keep), blurred (default 10 px) and feathered at the edges, as a PNG.
import { INPAINT_DIMENSION_MULTIPLE, type MaskParams, type Stroke } from '@koma/domain';

/** Rounds a size down to the inpaint grid (multiples of 8), never below one cell. */
export function gridSize(value: number): number {
  return Math.max(
    INPAINT_DIMENSION_MULTIPLE,
    Math.floor(value / INPAINT_DIMENSION_MULTIPLE) * INPAINT_DIMENSION_MULTIPLE,
  );
}

/** The box around every painted (non-erasing) stroke, or null without strokes. */
export function maskBounds(strokes: readonly Stroke[]): { x: number; y: number; width: number; height: number } | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const s of strokes) {
    if (s.erase) continue;
    for (let i = 0; i + 1 < s.points.length; i += 2) {
      const x = s.points[i]!;
      const y = s.points[i + 1]!;
      x0 = Math.min(x0, x - s.radius);
      y0 = Math.min(y0, y - s.radius);
      x1 = Math.max(x1, x + s.radius);
      y1 = Math.max(y1, y + s.radius);
    }
  }
  return x0 === Infinity ? null : { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

function drawStroke(ctx: CanvasRenderingContext2D, s: Stroke): void {
  ctx.globalCompositeOperation = s.erase ? 'destination-out' : 'source-over';
  ctx.strokeStyle = '#fff';
  ctx.fillStyle = '#fff';
  ctx.lineWidth = s.radius * 2;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  const pts = s.points;
  if (pts.length === 2) {
    ctx.beginPath();
    ctx.arc(pts[0]!, pts[1]!, s.radius, 0, Math.PI * 2);
    ctx.fill();
    return;
  }
  ctx.beginPath();
  ctx.moveTo(pts[0]!, pts[1]!);
  for (let i = 2; i + 1 < pts.length; i += 2) ctx.lineTo(pts[i]!, pts[i + 1]!);
  ctx.stroke();
}

/**
 * Renders the mask at the image's size (rounded down to the inpaint grid) as a PNG data URL. Erasing strokes cut
 * the white back out; `feathering` (0..1 of the shorter side) softens the mask further towards its edges.
 */
export function renderMask(mask: MaskParams, size: { width: number; height: number }): string {
  const width = gridSize(size.width);
  const height = gridSize(size.height);
  const strokes = document.createElement('canvas');
  strokes.width = width;
  strokes.height = height;
  const sctx = strokes.getContext('2d');
  if (!sctx) throw new Error('Unable to get canvas context');
  sctx.scale(width / size.width, height / size.height);
  for (const s of mask.mask) drawStroke(sctx, s);

  const out = document.createElement('canvas');
  out.width = width;
  out.height = height;
  const ctx = out.getContext('2d');
  if (!ctx) throw new Error('Unable to get canvas context');
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, width, height);
  const blur = mask.blurRadius + mask.feathering * Math.min(width, height) * 0.5;
  if (blur > 0) ctx.filter = `blur(${blur}px)`;
  ctx.drawImage(strokes, 0, 0);
  ctx.filter = 'none';
  return out.toDataURL('image/png');
}
