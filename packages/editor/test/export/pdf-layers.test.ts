import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createImageLayer } from '@koma/domain';
import {
  buildChapterPdf,
  buildPsd,
  composePdfPage,
  createRaster,
  isBanded,
  type BandedRaster,
  type PdfLayer,
  pdfImageSizes,
  planPage,
  rastersToDraw,
  type PagePlan,
  type PlanRaster,
  type Raster,
} from '../../src/export/index.ts';
import { fixtureDoc, syntheticRasters } from './support.ts';

const tmp = mkdtempSync(path.join(process.env.KOMA_KEEP ?? tmpdir(), 'koma-pdf-layers-'));
const keep = !!process.env.KOMA_KEEP;
afterAll(() => keep || rmSync(tmp, { recursive: true, force: true }));

/** A picture of `size`² in four coloured quadrants, so that a turn or a flip shows. */
function quadrants(size: number): Raster {
  const r = createRaster(size, size);
  const colours = [
    [230, 40, 40],
    [40, 200, 60],
    [50, 80, 230],
    [240, 220, 40],
  ];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const q = (y < size / 2 ? 0 : 2) + (x < size / 2 ? 0 : 1);
      r.data.set([...colours[q]!, 255], (y * size + x) * 4);
    }
  }
  return r;
}

/**
 * The page raster a canvas draws for a placed picture (what the PNG export composes): each pixel of the node's rect
 * samples the source bilinearly through the inverse of the placement, transparent outside the picture.
 */
function placedRaster(node: PlanRaster, source: Raster): Raster {
  const { rect } = node;
  const [a, b, c, d, e, f] = node.placed!.matrix;
  const { width: w, height: h } = node.placed!;
  // Page pixels → the picture's own units → source pixels.
  const det = a * d - b * c;
  const out = createRaster(rect.width, rect.height);
  const at = (x: number, y: number, k: number) => {
    const cx = Math.min(source.width - 1, Math.max(0, x));
    const cy = Math.min(source.height - 1, Math.max(0, y));
    return source.data[(cy * source.width + cx) * 4 + k]!;
  };
  for (let py = 0; py < rect.height; py++) {
    for (let px = 0; px < rect.width; px++) {
      const X = rect.x + px + 0.5 - e;
      const Y = rect.y + py + 0.5 - f;
      const u = (d * X - c * Y) / det;
      const v = (-b * X + a * Y) / det;
      if (u < 0 || v < 0 || u >= w || v >= h) continue;
      const sx = (u / w) * source.width - 0.5;
      const sy = (v / h) * source.height - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const o = (py * rect.width + px) * 4;
      for (let k = 0; k < 3; k++) {
        const top = at(x0, y0, k) * (1 - fx) + at(x0 + 1, y0, k) * fx;
        const bottom = at(x0, y0 + 1, k) * (1 - fx) + at(x0 + 1, y0 + 1, k) * fx;
        out.data[o + k] = top * (1 - fy) + bottom * fy;
      }
      out.data[o + 3] = 255;
    }
  }
  return out;
}

/** A binary PPM (P6) as pdftoppm writes it. */
function readPpm(bytes: Buffer): { width: number; height: number; data: Buffer } {
  const [, w, h, max] = bytes.subarray(0, 64).toString('latin1').split(/\s+/);
  return { width: Number(w), height: Number(h), data: bytes.subarray(`P6\n${w} ${h}\n${max}\n`.length) };
}

/**
 * The fixture page with "Sky" (clipped to the top panel, spilling past it) a 256² picture, turned 20°, mirrored and
 * multiplied over a striped picture "Under" clipped to the same panel; the panel's frame and the bubble over both.
 */
function turnedPage(): { plan: PagePlan; source: Raster; sky: PlanRaster; rasters: Map<string, Raster> } {
  const under = createImageLayer(
    'under',
    { x: 50, y: 50, size: { width: 750, height: 500 } },
    {
      variations: [{ id: 'img-under' }],
    },
  );
  const { doc, rootId } = fixtureDoc([under]);
  const root = doc.layers[rootId]!;
  // Under first in the panel's clipping chain, then Sky.
  root.children = ['under', ...root.children.filter((id) => id !== 'under')];
  doc.layers.under!.clipTarget = 'panelA';
  const sky = doc.layers.sky!;
  sky.rotation = 20;
  sky.flipX = true;
  sky.blendMode = 'multiply';
  const plan = planPage(doc, rootId);
  const rasters = syntheticRasters(plan);
  const stripes = rasters.get('under:image')!;
  for (let i = 0; i < stripes.width * stripes.height; i++) {
    const x = i % stripes.width;
    stripes.data.set(Math.floor(x / 100) % 2 ? [250, 250, 250, 255] : [150, 150, 150, 255], i * 4);
  }
  const source = quadrants(256);
  const node = rastersToDraw(plan).find((n) => n.key === 'sky:image')!;
  rasters.set(node.key, placedRaster(node, source));
  return { plan, source, sky: node, rasters };
}

describe('PDF pages with pictures at their own resolution', () => {
  it('picks the pictures the page image would upsample, at min(source, box) pixels', () => {
    const { plan } = turnedPage();
    const sizes = (of: Record<string, { width: number; height: number }>, ink: 'colour' | 'grey' | 'screentone') =>
      pdfImageSizes(plan, (n) => of[n.layerId ?? ''] ?? null, ink);
    // Sky covers 1700×1200 page pixels (turned: its own box is what counts): 256² is upsampled, 4000² is not.
    expect(sizes({ sky: { width: 256, height: 256 } }, 'colour')).toEqual(
      new Map([['sky:image', { width: 256, height: 256 }]]),
    );
    expect(sizes({ sky: { width: 4000, height: 4000 } }, 'colour').size).toBe(0);
    // Wider than needed on one axis only: that axis at the box's pixels.
    expect(sizes({ sky: { width: 4000, height: 300 } }, 'colour').get('sky:image')).toEqual({
      width: 1700,
      height: 300,
    });
    // A one-ink page is screened as one raster; a multiplied picture in greys stays in the page image.
    expect(sizes({ sky: { width: 256, height: 256 } }, 'screentone').size).toBe(0);
    expect(sizes({ sky: { width: 256, height: 256 } }, 'grey').size).toBe(0);
    // Under is a picture too, normal, but Sky multiplies over it: in greys it stays in the page; in colour it goes.
    expect([...sizes({ under: { width: 100, height: 100 } }, 'grey').keys()]).toEqual([]);
    expect([...sizes({ under: { width: 100, height: 100 } }, 'colour').keys()]).toEqual(['under:image']);
    // Hidden Hero does not print.
    expect(sizes({ hero: { width: 10, height: 10 } }, 'colour').size).toBe(0);
  });

  it('embeds a small picture in a large panel at its own 256² and renders like the PNG export, turned and multiplied', async () => {
    const { plan, source, rasters } = turnedPage();
    const expected = buildPsd(plan, rasters, { plan: 'subscriber', thumbnail: false }).composite;
    const sizes = pdfImageSizes(plan, (n) => (n.key === 'sky:image' ? { width: 256, height: 256 } : null), 'colour');
    expect([...sizes.keys()]).toEqual(['sky:image']);
    const pageRasters = new Map([...rasters].filter(([key]) => !sizes.has(key)));
    const page = composePdfPage(plan, pageRasters, new Map([['sky:image', source]]));
    const file = path.join(tmp, 'turned.pdf');
    writeFileSync(
      file,
      await buildChapterPdf([page], {
        title: 'T',
        readingOrder: 'LEFT_TO_RIGHT',
        dpi: 72,
      }),
    );
    // pdfimages: page image 1700×2400, Sky at its own 256×256, the run over it (frames and bubble) with its SMask.
    const rows = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => l.trim().split(/\s+/));
    expect(rows.map((r) => [r[2], r[3], r[4]])).toEqual([
      ['image', '1700', '2400'],
      ['image', '256', '256'],
      ['image', expect.any(String), expect.any(String)],
      ['smask', expect.any(String), expect.any(String)],
    ]);
    execFileSync('pdftoppm', ['-r', '72', '-singlefile', file, path.join(tmp, 'turned')]);
    const shown = readPpm(readFileSync(path.join(tmp, 'turned.ppm')));
    expect([shown.width, shown.height]).toEqual([1700, 2400]);
    writeFileSync(path.join(tmp, 'expected.ppm'), ppm(expected));
    let sum = 0;
    let far = 0;
    for (let i = 0; i < 1700 * 2400; i++) {
      for (let k = 0; k < 3; k++) {
        const diff = Math.abs(shown.data[i * 3 + k]! - expected.data[i * 4 + k]!);
        sum += diff;
        if (diff > 40) far++;
      }
    }
    // Averaged over the page the two agree to about a grey level; what differs much is the edges (poppler smooths
    // the picture's edges and the clip, the PNG's are hard) and a thin line along the quadrants' borders.
    expect(sum / (1700 * 2400 * 3)).toBeLessThan(1.5);
    expect(far / (1700 * 2400 * 3)).toBeLessThan(0.01);
    // Inside each quadrant: the multiplied colour over either stripe, within rounding.
    const node = rastersToDraw(plan).find((n) => n.key === 'sky:image')!;
    const [a, b, c, d, e, f] = node.placed!.matrix;
    for (const [u, v] of [
      [0.25, 0.3],
      [0.75, 0.3],
      [0.3, 0.75],
      [0.7, 0.7],
    ] as const) {
      const x = Math.round(a * u * 850 + c * v * 600 + e);
      const y = Math.round(b * u * 850 + d * v * 600 + f);
      if (y >= 1200 || y < 100 || x < 100 || x > 1600) continue;
      for (let k = 0; k < 3; k++) {
        expect(
          Math.abs(shown.data[(y * 1700 + x) * 3 + k]! - expected.data[(y * 1700 + x) * 4 + k]!),
        ).toBeLessThanOrEqual(4);
      }
    }
  });
});

describe('a PDF page image composed band by band', () => {
  /** The banded image drawn `rows` rows at a time into one reused band, gathered into a whole raster. */
  function drawInBands(image: BandedRaster, rows: number): Raster {
    const out = createRaster(image.width, image.height);
    const band = createRaster(image.width, rows);
    // A stale band: whatever the last one left must not show through.
    band.data.fill(7);
    for (let y0 = 0; y0 < image.height; y0 += rows) {
      const count = Math.min(rows, image.height - y0);
      const view = { width: image.width, height: count, data: band.data.subarray(0, image.width * count * 4) };
      image.drawRows(y0, view);
      out.data.set(view.data, y0 * image.width * 4);
    }
    return out;
  }

  it('draws exactly the whole page image, whatever the band height (clipping, blending, frames, bubble)', () => {
    const { plan, rasters } = turnedPage();
    const whole = composePdfPage(plan, rasters, new Map()).pixels;
    const banded = composePdfPage(plan, rasters, new Map(), undefined, { banded: true }).pixels;
    expect(isBanded(whole)).toBe(false);
    if (!isBanded(banded) || isBanded(whole)) throw new Error('expected a banded and a whole page image');
    expect(banded.opaque).toBe(true);
    // Odd heights cut through the panels' edges, the turned picture and the bubble at many places.
    for (const rows of [1, 37, 256, 2400]) {
      const drawn = drawInBands(banded, rows);
      expect(Buffer.from(drawn.data).equals(Buffer.from(whole.data)), `bands of ${rows} rows`).toBe(true);
    }
  });

  it('keeps what follows a picture at its own resolution as it was, and a hidden background whole', () => {
    const { plan, source, rasters } = turnedPage();
    const pageRasters = new Map([...rasters].filter(([key]) => key !== 'sky:image'));
    const sources = new Map([['sky:image', source]]);
    const whole = composePdfPage(plan, pageRasters, sources);
    const banded = composePdfPage(plan, pageRasters, sources, undefined, { banded: true });
    if (!isBanded(banded.pixels) || isBanded(whole.pixels)) throw new Error('expected a banded and a whole page');
    expect(Buffer.from(drawInBands(banded.pixels, 100).data).equals(Buffer.from(whole.pixels.data))).toBe(true);
    // The layers after the page image: read one at a time, as the writer does (a run's pixels are reused).
    const summary = (layers: Iterable<PdfLayer>) =>
      [...layers].map((l) => {
        if (l.kind === 'image')
          return `image ${JSON.stringify(l.matrix)} ${Buffer.from(l.pixels.data).toString('base64')}`;
        if (isBanded(l.pixels)) return 'banded';
        return `raster ${JSON.stringify(l.crop)} ${Buffer.from(l.pixels.data).toString('base64')}`;
      });
    expect(summary(banded.layers)).toEqual(summary(whole.layers));
    const hidden: PagePlan = {
      ...plan,
      nodes: plan.nodes.map((n, i) => (i === 0 ? { ...n, hidden: true } : n)),
    };
    expect(isBanded(composePdfPage(hidden, rasters, new Map(), undefined, { banded: true }).pixels)).toBe(false);
  });
});

function ppm(r: Raster): Buffer {
  const header = Buffer.from(`P6\n${r.width} ${r.height}\n255\n`, 'latin1');
  const body = Buffer.alloc(r.width * r.height * 3);
  for (let i = 0; i < r.width * r.height; i++) {
    body[i * 3] = r.data[i * 4]!;
    body[i * 3 + 1] = r.data[i * 4 + 1]!;
    body[i * 3 + 2] = r.data[i * 4 + 2]!;
  }
  return Buffer.concat([header, body]);
}
