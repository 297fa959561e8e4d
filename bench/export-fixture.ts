/**
 * The export benchmarks' page (export.bench.ts, export-browser.bench.ts): 1700×2400, 6 panels, 18 images clipped to
 * them, 6 speech bubbles; optionally every image adjusted, or turned and blended. Also the bare write's document.
 */
import { createImageLayer, createPanelLayer, createTextLayer, createWorkspaceData, type Layer } from '@koma/domain';
import {
  attachThumbnail,
  buildPsd,
  createRaster,
  invertMatrix,
  normalize,
  placementOf,
  planPage,
  rastersToDraw,
  thumbnailPixels,
  type PagePlan,
  type Raster,
} from '@koma/editor';
import type { Psd } from 'ag-psd';
import sharp from 'sharp';

export function fixture(adjusted = false, turned = false): { plan: PagePlan; rasters: Map<string, Raster> } {
  let n = 0;
  const data = createWorkspaceData('COMIC', () => `id${n++}`);
  const children: Layer[] = [];
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 2; col++) {
      const x = 110 + col * 745;
      const y = 110 + row * 735;
      const panel = createPanelLayer(`panel${row}${col}`, { x, y, size: { width: 735, height: 725 } });
      children.push(panel);
      for (let k = 0; k < 3; k++) {
        const image = createImageLayer(`img${row}${col}${k}`, {
          x: x - 40 + k * 60,
          y: y - 30 + k * 50,
          size: { width: 640 + k * 80, height: 600 + k * 60 },
        });
        image.name = `Image ${row}-${col}-${k}`;
        // Every image turned and blended (issue 17): the composite blends through the rotated bounds.
        if (turned) {
          image.rotation = 7 + 11 * k + 5 * col;
          image.flipX = k === 1;
          image.opacity = 0.8;
          image.blendMode = (['multiply', 'screen', 'overlay'] as const)[k]!;
        }
        // Every adjustment on: the most the builder's CPU port of the filter shader can cost.
        if (adjusted) {
          image.data.filterParams = {
            exposure: 0.3,
            contrast: 1.1,
            highlights: 0.2,
            shadows: 0.2,
            whites: 0.9,
            blacks: 1.1,
            vignette: 0.4,
            grain: 0.3,
            saturation: 1.2,
          };
        }
        panel.clippedLayers.push(image.id);
        children.push(image);
      }
      children.push(
        createTextLayer(
          `text${row}${col}`,
          { x: x + 400, y: y + 40, size: { width: 300, height: 200 } },
          {
            text: 'Hello there!',
            backgroundType: 'SPEECH_BUBBLE',
          },
        ),
      );
    }
  }
  data.pages[0]!.rootLayer.children = children;
  const doc = normalize(data, 'COMIC');
  const plan = planPage(doc, data.pages[0]!.rootLayer.id);
  // Pictures, not flat colours: a gradient with noise, so RLE has real work (as with generated art).
  let s = 1;
  const rasters = new Map<string, Raster>();
  for (const node of rastersToDraw(plan)) {
    const r = createRaster(node.rect.width, node.rect.height);
    const d = r.data;
    const text = node.role === 'text';
    // A turned picture fills its turned rectangle inside the bounding box, clear in the corners and soft on its edges
    // (one pixel of coverage), as the canvas draws it for the export: each pixel's centre taken back into the
    // picture's own frame.
    const layer = node.layerId ? doc.layers[node.layerId] : undefined;
    const placement = layer && node.role === 'image' ? placementOf(layer) : undefined;
    const toLocal = placement && placement.matrix[1] !== 0 ? invertMatrix(placement.matrix) : undefined;
    for (let y = 0; y < r.height; y++) {
      for (let x = 0; x < r.width; x++) {
        const i = (y * r.width + x) * 4;
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        const noise = s & 15;
        if (node.role === 'image' || node.role === 'shape') {
          let alpha = 255;
          if (toLocal && placement) {
            const px = (node.rect.x + x + 0.5) / plan.scaleX + plan.area.x;
            const py = (node.rect.y + y + 0.5) / plan.scaleY + plan.area.y;
            const [a, b, c, dd, e, f] = toLocal;
            const u = a * px + c * py + e;
            const v = b * px + dd * py + f;
            const inside = Math.min(u, placement.size.width - u, v, placement.size.height - v) * plan.scaleX;
            alpha = Math.round(Math.max(0, Math.min(1, inside + 0.5)) * 255);
          }
          d[i] = (x * 255) / r.width + noise;
          d[i + 1] = (y * 255) / r.height + noise;
          d[i + 2] = 128 + noise;
          d[i + 3] = alpha;
        } else {
          const cx = (x - r.width / 2) / (text ? 120 : 160);
          const cy = (y - r.height / 2) / (text ? 20 : 110);
          if (cx * cx + cy * cy <= 1) d.set(text ? [0, 0, 0, 255] : [255, 255, 255, 255], i);
        }
      }
    }
    rasters.set(node.key, r);
  }
  return { plan, rasters };
}

/**
 * The baseline: the very document our export hands to ag-psd (the same layers, pixels, editable text, composite and
 * thumbnail), built beforehand, so that timing its write alone leaves exactly our own work (planning, compositing,
 * trimming, the thumbnail) as the difference.
 */
export async function bareDocument(plan: PagePlan, rasters: Map<string, Raster>): Promise<Psd> {
  const built = buildPsd(plan, rasters, { plan: 'subscriber', thumbnail: false });
  const thumb = thumbnailPixels(built.composite);
  attachThumbnail(built.psd, new Uint8Array(await jpegOf(thumb)), thumb.width, thumb.height);
  return built.psd;
}

/** The worker encodes the thumbnail with OffscreenCanvas; sharp stands in for that native encoder here. */
export function jpegOf(thumb: Raster): Promise<Buffer> {
  return sharp(thumb.data, { raw: { width: thumb.width, height: thumb.height, channels: 4 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}
