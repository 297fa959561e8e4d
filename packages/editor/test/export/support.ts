import {
  createImageLayer,
  createPanelLayer,
  createTextLayer,
  createWorkspaceData,
  type Layer,
  type Transform,
} from '@koma/domain';
import { normalize, type DocState } from '../../src/index.ts';
import { createRaster, rastersToDraw, type PagePlan, type Raster, type Rgba } from '../../src/export/index.ts';
import { idCounter } from '../support.ts';

export const COLORS: Record<string, Rgba> = {
  sky: [40, 120, 220, 255],
  hero: [200, 60, 60, 255],
  logo: [20, 160, 80, 255],
  shade: [120, 0, 160, 255],
};

const box = (x: number, y: number, width: number, height: number): Transform => ({ x, y, size: { width, height } });

/**
 * A comic page of 850×1200 (exported at 2×): three panels stored out of reading order (C, A, B), "Sky" clipped to
 * the top panel and spilling past it, a hidden "Hero" clipped to the bottom-left panel, a free "Logo", and a speech
 * bubble "Hello"; `extra` layers go on top.
 */
export function fixtureDoc(extra: Layer[] = []): { doc: DocState; rootId: string } {
  const ids = idCounter('w');
  const data = createWorkspaceData('COMIC', ids);
  data.comicConfiguration.width = 850;
  data.comicConfiguration.height = 1200;
  const a = createPanelLayer('panelA', box(50, 50, 750, 500));
  const b = createPanelLayer('panelB', box(50, 600, 350, 550));
  const c = createPanelLayer('panelC', box(450, 600, 350, 550));
  c.data.border = false;
  const sky = createImageLayer('sky', box(0, 0, 850, 600), { variations: [{ id: 'img-sky' }] });
  sky.name = 'Sky';
  const hero = createImageLayer('hero', box(60, 700, 200, 300), { variations: [{ id: 'img-hero' }] });
  hero.name = 'Hero';
  hero.visible = false;
  const logo = createImageLayer('logo', box(700, 1100, 100, 50), { variations: [{ id: 'img-logo' }] });
  logo.name = 'Logo';
  const hello = createTextLayer('hello', box(100, 100, 200, 100), {
    text: 'Hello',
    backgroundType: 'SPEECH_BUBBLE',
    fontSize: 30,
  });
  hello.name = 'Hello';
  a.clippedLayers = ['sky'];
  b.clippedLayers = ['hero'];
  const page = data.pages[0]!;
  page.rootLayer.children = [c, a, sky, b, hero, logo, hello, ...extra] as Layer[];
  const doc = normalize(data, 'COMIC');
  return { doc, rootId: page.rootLayer.id };
}

/**
 * Synthetic pixels for every raster the plan asks for: images a solid colour; the text's glyphs a 40×20 block in
 * its middle; the bubble background a white ellipse, so trimming has something to trim.
 */
export function syntheticRasters(plan: PagePlan): Map<string, Raster> {
  const out = new Map<string, Raster>();
  for (const node of rastersToDraw(plan)) {
    const { width, height } = node.rect;
    if (node.role === 'image' || node.role === 'shape') {
      const color = COLORS[node.layerId ?? ''] ?? COLORS.shade!;
      out.set(node.key, createRaster(width, height, color));
    } else {
      const r = createRaster(width, height);
      const cx = width / 2;
      const cy = height / 2;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const inside =
            node.role === 'text'
              ? Math.abs(x + 0.5 - cx) < 20 && Math.abs(y + 0.5 - cy) < 10
              : ((x + 0.5 - cx) / 200) ** 2 + ((y + 0.5 - cy) / 100) ** 2 <= 1;
          if (inside) r.data.set(node.role === 'text' ? [0, 0, 0, 255] : [255, 255, 255, 255], (y * width + x) * 4);
        }
      }
      out.set(node.key, r);
    }
  }
  return out;
}
