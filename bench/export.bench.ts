/**
 * Export benchmark: a 1700×2400 comic page with 30 layers (6 panels, 18 images clipped to them, 6 speech bubbles).
 * Our PSD export (plan, composite, thumbnail, ag-psd write) against a bare ag-psd `writePsd` of the same layer
 * pixels and the same composite, measured in the same run; each variant also runs in a child process of its own for
 * its peak memory: how far its max RSS rises above its RSS once the inputs (every layer's pixels) are in memory.
 * PNG is not measured here: in the app it is the same composite, encoded by the browser (OffscreenCanvas).
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  PSD_PANEL_STROKE_PX,
  createImageLayer,
  createPanelLayer,
  createTextLayer,
  createWorkspaceData,
  type Layer,
} from '@koma/domain';
import {
  buildPsd,
  createRaster,
  fillPolygon,
  strokePolygon,
  ensurePsdPixels,
  normalize,
  planPage,
  rastersToDraw,
  writePsdBytes,
  type PagePlan,
  type PlanNode,
  type PlanRaster,
  type Raster,
} from '@koma/editor';
import { writePsdUint8Array, type Layer as PsdLayer, type Psd } from 'ag-psd';
import { median, printTable } from './stats.ts';

const RUNS = Number(process.env.RUNS ?? 5);

function fixture(): { plan: PagePlan; rasters: Map<string, Raster> } {
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
    for (let y = 0; y < r.height; y++) {
      for (let x = 0; x < r.width; x++) {
        const i = (y * r.width + x) * 4;
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        const noise = s & 15;
        if (node.role === 'image' || node.role === 'shape') {
          d[i] = (x * 255) / r.width + noise;
          d[i + 1] = (y * 255) / r.height + noise;
          d[i + 2] = 128 + noise;
          d[i + 3] = 255;
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

/** The same pixels as ag-psd layers, no work of ours: layer bounds and the composite taken from our build. */
function bareDocument(plan: PagePlan, rasters: Map<string, Raster>): Psd {
  const built = buildPsd(plan, rasters, { plan: 'subscriber', thumbnail: false });
  const strip = (layers: PsdLayer[]): PsdLayer[] =>
    layers.map((l) => (l.children ? { name: l.name, children: strip(l.children) } : { ...l, text: undefined }));
  return {
    width: plan.width,
    height: plan.height,
    children: strip(built.psd.children ?? []),
    imageData: built.composite,
  };
}

function ours(plan: PagePlan, rasters: Map<string, Raster>): number {
  return writePsdBytes(buildPsd(plan, rasters, { plan: 'subscriber' }).psd).length;
}

function bare(psd: Psd): number {
  return writePsdUint8Array(psd, { noBackground: true }).length;
}

function allRasters(nodes: readonly PlanNode[]): PlanRaster[] {
  return nodes.flatMap((n) => (n.kind === 'group' ? allRasters(n.children) : [n]));
}

/** The pixels of every PSD layer, the page's own (background, panel area and border) drawn as inputs here. */
function pixelsOf(n: PlanRaster, rasters: Map<string, Raster>): Raster {
  if (n.role === 'background') return createRaster(n.rect.width, n.rect.height, [255, 255, 255, 255]);
  if (n.role === 'panelArea') return fillPolygon(n.rect, n.polygon ?? [], [255, 255, 255, 255]);
  if (n.role === 'panelBorder') return strokePolygon(n.rect, n.polygon ?? [], PSD_PANEL_STROKE_PX, [0, 0, 0, 255]);
  return rasters.get(n.key)!;
}

function countLayers(nodes: readonly PlanNode[]): number {
  return nodes.reduce((n, node) => n + 1 + (node.kind === 'group' ? countLayers(node.children) : 0), 0);
}

const child = process.argv[2];
ensurePsdPixels();
const { plan, rasters } = fixture();
if (child) {
  // A child process runs one variant on inputs built without our exporter (the bare document: every layer's pixels,
  // untrimmed, and a white composite), then reports how far its peak RSS rose above the inputs.
  const psd: Psd = {
    width: plan.width,
    height: plan.height,
    imageData: createRaster(plan.width, plan.height, [255, 255, 255, 255]),
    children: allRasters(plan.nodes).map((n) => ({
      name: n.name,
      left: n.rect.x,
      top: n.rect.y,
      imageData: pixelsOf(n, rasters),
    })),
  };
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss / 1024;
  const peakBefore = process.resourceUsage().maxRSS;
  if (child === 'ours') ours(plan, rasters);
  if (child === 'bare') bare(psd);
  const peakAfter = process.resourceUsage().maxRSS;
  console.log(JSON.stringify({ aboveKb: peakAfter - before, raised: peakAfter > peakBefore }));
} else {
  const bareDoc = bareDocument(plan, rasters);
  const times: Record<'ours' | 'bare', number[]> = { ours: [], bare: [] };
  let sizes = { ours: 0, bare: 0 };
  for (let i = 0; i < RUNS + 1; i++) {
    // Alternate, so that neither variant always runs on a warmer machine.
    for (const variant of i % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const)) {
      const t0 = performance.now();
      const size = variant === 'ours' ? ours(plan, rasters) : bare(bareDoc);
      const ms = performance.now() - t0;
      if (i > 0) times[variant].push(ms); // the first round warms up
      sizes = { ...sizes, [variant]: size };
    }
  }
  const self = fileURLToPath(import.meta.url);
  const rss = (variant: string) => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, variant], { encoding: 'utf8' });
    const { aboveKb, raised } = JSON.parse(out) as { aboveKb: number; raised: boolean };
    if (!raised) console.log(`(${variant}: the peak did not rise above the inputs' own; the figure is an upper bound)`);
    return aboveKb / 1024;
  };
  const peak = { ours: rss('ours'), bare: rss('bare') };
  const docLayers = 30;
  console.log(
    `Page ${plan.width}×${plan.height}: ${docLayers} document layers → ${countLayers(plan.nodes)} PSD layers and groups; ${RUNS} runs after a warm-up`,
  );
  printTable('PSD export (median ms, peak MB above the inputs)', [
    {
      variant: 'Koma export (plan + composite + thumbnail + write)',
      ms: median(times.ours),
      peakMb: peak.ours,
      bytes: sizes.ours,
    },
    { variant: 'bare ag-psd writePsd, same pixels', ms: median(times.bare), peakMb: peak.bare, bytes: sizes.bare },
  ]);
  const ratio = median(times.ours) / median(times.bare);
  console.log(`\ntime ratio ours / bare: ${ratio.toFixed(2)}× (target ≤ 1.3×)`);
  console.log(`peak memory ratio ours / bare: ${(peak.ours / peak.bare).toFixed(2)}×`);
}
