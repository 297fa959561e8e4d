// Control images for `v`: the pose skeleton and the sketch strokes drawn for the controlnets.
import { OPENPOSE_COLORS, OPENPOSE_LIMBS } from '@koma/domain';
import { boxOf, placementOf, poseRowsAsShown, type LayerNode } from '@koma/editor';

/**
 * The pose skeleton as the openpose controlnet expects it: 18 keypoints, 4 px limbs, 8 px dots, on black. Drawn as
 * the canvas shows it (turned and flipped) over `region`, the box the result fills: the pose's placed bounds.
 */
export function renderPose(node: LayerNode<'POSE'>, region = boxOf(node)): string {
  const { width, height } = node.transform.size;
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(region.width));
  canvas.height = Math.max(1, Math.round(region.height));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('Unable to get canvas context');
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const [ma, mb, mc, md, me, mf] = placementOf(node).matrix;
  ctx.setTransform(ma, mb, mc, md, me - region.x, mf - region.y);
  const { candidate } = node.data.body;
  for (const row of poseRowsAsShown(node)) {
    OPENPOSE_LIMBS.forEach(([a, b], i) => {
      const ia = row[a] ?? -1;
      const ib = row[b] ?? -1;
      const pa = candidate[ia];
      const pb = candidate[ib];
      if (ia < 0 || ib < 0 || !pa || !pb) return;
      ctx.strokeStyle = OPENPOSE_COLORS[i % OPENPOSE_COLORS.length] ?? '#fff';
      ctx.lineWidth = 4;
      ctx.beginPath();
      ctx.moveTo(pa[0] * width, pa[1] * height);
      ctx.lineTo(pb[0] * width, pb[1] * height);
      ctx.stroke();
    });
    for (let j = 0; j < 18; j++) {
      const p = candidate[row[j] ?? -1];
      if (!p) continue;
      ctx.fillStyle = OPENPOSE_COLORS[j % OPENPOSE_COLORS.length] ?? '#fff';
      ctx.beginPath();
      ctx.arc(p[0] * width, p[1] * height, 8, 0, Math.PI * 2);
      ctx.fill();
    }
  }
  return canvas.toDataURL('image/png');
}

/**
 * The sketch strokes in black on white, for the anytest controlnet: over the sketch's own box, or over `region` of
 * the canvas (the panel a sketch is drawn in, when the result goes into that panel).
 */
export function renderSketch(
  node: LayerNode<'SKETCH'>,
  region = { x: node.transform.x, y: node.transform.y, ...node.transform.size },
): string {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(region.width));
  canvas.height = Math.max(1, Math.round(region.height));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('Unable to get canvas context');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.translate(node.transform.x - region.x, node.transform.y - region.y);
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const brush of node.data.brushes) {
    for (const s of brush.strokes) {
      ctx.globalCompositeOperation = s.erase ? 'destination-out' : 'source-over';
      ctx.strokeStyle = brush.color;
      ctx.lineWidth = s.radius * 2;
      ctx.beginPath();
      ctx.moveTo(s.points[0] ?? 0, s.points[1] ?? 0);
      for (let i = 2; i + 1 < s.points.length; i += 2) ctx.lineTo(s.points[i]!, s.points[i + 1]!);
      ctx.stroke();
    }
  }
  return canvas.toDataURL('image/png');
}
