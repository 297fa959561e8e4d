import Konva from 'konva';
import { pageSetupBoxes, type PxRect } from '@koma/domain';
import type { DocState } from '@koma/editor';

/** Colours print designers expect: bleed red, trim solid blue, safe area dashed green. */
const GUIDES = { bleed: '#dc2626', trim: '#2563eb', safe: '#16a34a' } as const;

/**
 * The page setup's bleed, trim and safe lines over a comic page, one screen pixel wide at any zoom. They are an
 * editing aid: the overlay is never drawn into thumbnails or exports.
 */
export function drawPageGuides(layer: Konva.Layer, doc: DocState, zoom: number): void {
  const boxes = pageSetupBoxes(doc.comicConfiguration.setup);
  const px = 1 / zoom;
  const line = (r: PxRect, color: string, name: string, dash?: number[]) =>
    layer.add(
      new Konva.Rect({
        ...r,
        name,
        stroke: color,
        strokeWidth: px,
        dash: dash?.map((d) => d * px),
        listening: false,
      }),
    );
  if (boxes.bleedPx > 0) {
    // The bleed zone (cut away by the printer) is tinted so art meant to be seen stays inside the trim.
    const { media, trim } = boxes;
    const tint = 'rgba(220, 38, 38, 0.08)';
    const band = (x: number, y: number, width: number, height: number) =>
      layer.add(new Konva.Rect({ x, y, width, height, fill: tint, listening: false }));
    band(0, 0, media.width, trim.y);
    band(0, trim.y + trim.height, media.width, media.height - trim.y - trim.height);
    band(0, trim.y, trim.x, trim.height);
    band(trim.x + trim.width, trim.y, media.width - trim.x - trim.width, trim.height);
    line(boxes.bleed, GUIDES.bleed, 'guide-bleed');
  }
  line(boxes.trim, GUIDES.trim, 'guide-trim');
  if (boxes.safePx > 0) line(boxes.safe, GUIDES.safe, 'guide-safe', [8, 6]);
}
