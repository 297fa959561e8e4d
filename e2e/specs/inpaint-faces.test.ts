// Inpaint and face enhance judged on the exported page, as the creator gets it: only what was painted (or the face)
// changes, everything well away from it keeps its exact pixels. Runs against the real server, its builtin engine and
// its face detector (a real model on the CPU), exporting through the Export dialog before and after.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { watermarkMask } from '@koma/editor';
import { openPage, screenshot } from '../support/browser.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { exportPagePng } from '../support/pixels.ts';
import { realErrors, signUp, uniqueEmail } from '../support/flows.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { blur, creditTotal, idle, select, toScreen } from '../support/editor-page.ts';

// Charges are checked: the builtin engine charges as in a demo of billing (BUILTIN_CHARGES).
const suite = useServerAndBrowser({ env: { STARTING_CREDITS: '100', BUILTIN_CHARGES: 'true' } });
const PHOTO = path.join(REPO_ROOT, 'apps', 'server', 'test', 'fixtures', 'vision', 'photo-three-faces.jpg');

interface Stroke {
  points: number[];
  radius: number;
  erase?: boolean;
}

interface Layer {
  type: string;
  transform: { x: number; y: number; size: { width: number; height: number } };
  originalSize: { width: number; height: number };
  data: {
    variations?: { id: string }[];
    variationsIdx?: number;
    maskParams?: { mask: Stroke[]; blurRadius: number; feathering: number };
    faceStore?: Record<string, { bbox: [number, number, number, number]; score: number }[]>;
  };
}

interface Snapshot {
  layers: Record<string, Layer>;
  children: string[];
  processing: Record<string, unknown>;
}

async function snapshot(page: Page): Promise<Snapshot> {
  return page.evaluate(() => {
    const s = (window as unknown as { __koma: any }).__koma;
    const doc = s.editor.doc;
    return { layers: doc.layers, children: doc.layers[s.activeRoot()].children, processing: s.ui.state.processing };
  });
}

const images = (snap: Snapshot) =>
  Object.entries(snap.layers)
    .filter(([, l]) => l.type === 'IMAGE')
    .map(([id, l]) => ({ id, ...l }));

/** A new comic with its one panel removed, so what lands on the page is a free layer, whole on the page. */
async function emptyPage(page: Page, label: string): Promise<void> {
  await signUp(page, uniqueEmail(label));
  await page.getByRole('button', { name: /New comic/ }).click();
  await page.waitForURL(/\/editor\/[^/]+$/);
  await page.waitForSelector('[data-testid=canvas] canvas');
  await expect.poll(async () => (await snapshot(page)).children.length).toBe(1);
  await select(page, (await snapshot(page)).children[0]!);
  await blur(page);
  await page.keyboard.press('Delete');
  await expect.poll(async () => (await snapshot(page)).children.length).toBe(0);
}

/** Drops a file onto the canvas at a canvas point: the given bytes, or a PNG of that size drawn in the page. */
async function drop(
  page: Page,
  at: { x: number; y: number },
  file: { name: string; bytes?: Buffer; size?: { width: number; height: number } },
): Promise<void> {
  const box = (await page.getByTestId('canvas').boundingBox())!;
  const p = await toScreen(page, at.x, at.y);
  await page.evaluate(
    async ([cx, cy, name, bytes, width, height]) => {
      let blob: Blob;
      if (bytes) blob = new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
      else {
        // Diagonal stripes over a gradient: every pixel differs from its neighbours, so any resampling shows.
        const c = document.createElement('canvas');
        c.width = width;
        c.height = height;
        const g = c.getContext('2d')!;
        const image = g.createImageData(width, height);
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            const i = (y * width + x) * 4;
            image.data[i] = (x * 255) / width;
            image.data[i + 1] = ((x + y) % 16) * 16;
            image.data[i + 2] = (y * 255) / height;
            image.data[i + 3] = 255;
          }
        }
        g.putImageData(image, 0, 0);
        blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
      }
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], name, { type: blob.type }));
      const target = document.querySelector('[data-testid=canvas]')!;
      const rect = target.getBoundingClientRect();
      // Alt: the picture keeps its own size (without it, it is fitted into the panel under it; panel-art spec).
      const init = {
        dataTransfer: transfer,
        clientX: rect.left + cx,
        clientY: rect.top + cy,
        altKey: true,
        bubbles: true,
      };
      target.dispatchEvent(new DragEvent('dragover', { ...init, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { ...init, cancelable: true }));
    },
    [
      p.x - box.x,
      p.y - box.y,
      file.name,
      file.bytes ? [...file.bytes] : null,
      file.size?.width ?? 0,
      file.size?.height ?? 0,
    ] as const,
  );
}

type Zone = 'keep' | 'change' | 'ignore';

/**
 * Compares two exports of the same page pixel by pixel over the layer's box: `zone` says, for a point in the image's
 * own pixels, whether it must keep its colour (within ±1) or should change. The watermark's pixels are left out.
 */
function compare(
  before: { width: number; height: number; data: Buffer },
  after: { width: number; height: number; data: Buffer },
  layer: Layer,
  zone: (ix: number, iy: number) => Zone,
): { kept: number; keptChanged: number; toChange: number; changed: number } {
  expect([after.width, after.height]).toEqual([before.width, before.height]);
  const mark = watermarkMask(before.width, before.height);
  const t = layer.transform;
  const sx = layer.originalSize.width / t.size.width;
  const sy = layer.originalSize.height / t.size.height;
  const out = { kept: 0, keptChanged: 0, toChange: 0, changed: 0 };
  const x0 = Math.max(0, Math.floor(t.x));
  const y0 = Math.max(0, Math.floor(t.y));
  const x1 = Math.min(before.width, Math.ceil(t.x + t.size.width));
  const y1 = Math.min(before.height, Math.ceil(t.y + t.size.height));
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (mark[y * before.width + x]) continue;
      const z = zone((x + 0.5 - t.x) * sx, (y + 0.5 - t.y) * sy);
      if (z === 'ignore') continue;
      const i = (y * before.width + x) * 4;
      let diff = 0;
      for (let c = 0; c < 4; c++) diff = Math.max(diff, Math.abs(before.data[i + c]! - after.data[i + c]!));
      if (z === 'keep') {
        out.kept++;
        if (diff > 1) out.keptChanged++;
      } else {
        out.toChange++;
        if (diff > 1) out.changed++;
      }
    }
  }
  return out;
}

/** Distance from a point to a stroke's path (its points as a polyline). */
function distanceToStroke(s: Stroke, x: number, y: number): number {
  let best = Infinity;
  for (let i = 0; i + 1 < s.points.length; i += 2) {
    const ax = s.points[i]!;
    const ay = s.points[i + 1]!;
    const bx = s.points[i + 2] ?? ax;
    const by = s.points[i + 3] ?? ay;
    const dx = bx - ax;
    const dy = by - ay;
    const len = dx * dx + dy * dy;
    const k = len === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len));
    best = Math.min(best, Math.hypot(x - ax - k * dx, y - ay - k * dy));
  }
  return best;
}

/**
 * Paints a brush stroke across the middle of the layer, inpaints it into the placeholder above, and checks on two
 * exports of the page that only the painted region changed.
 */
async function inpaintChangesOnlyThePaintedRegion(page: Page, sourceId: string, shot: string): Promise<void> {
  const before = await exportPagePng(page);
  // A brush stroke across the middle of the picture.
  const t = (await snapshot(page)).layers[sourceId]!.transform;
  await page.getByTestId('tool-BRUSH').click();
  const a = await toScreen(page, t.x + t.size.width * 0.3, t.y + t.size.height * 0.4);
  const b = await toScreen(page, t.x + t.size.width * 0.6, t.y + t.size.height * 0.5);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
  await expect
    .poll(async () => (await snapshot(page)).layers[sourceId]!.data.maskParams!.mask.length)
    .toBeGreaterThan(0);
  await page.getByTestId('tool-MOVE').click();
  await select(page, sourceId);
  await page.getByTestId('tab-layer').click();
  await page.getByTestId('op-inpaint').click();
  await page.getByTestId('inpaint-run').click();
  await expect.poll(async () => images(await snapshot(page)).length).toBe(2);
  const resultId = images(await snapshot(page)).find((l) => l.id !== sourceId)!.id;
  await expect
    .poll(async () => (await snapshot(page)).layers[resultId]?.data.variations?.length ?? 0, { timeout: 30_000 })
    .toBe(1);
  await idle(page);
  await page.waitForTimeout(500); // let the canvas draw the result for the screenshot
  await screenshot(page, shot);
  const after = await exportPagePng(page);

  const source = (await snapshot(page)).layers[sourceId]!;
  const { mask: strokes, blurRadius, feathering } = source.data.maskParams!;
  const painted = strokes.filter((s) => !s.erase);
  expect(painted.length).toBeGreaterThan(0);
  // The mask is blurred by blurRadius plus the feathering share of the shorter side (a canvas blur, whose
  // radius is the Gaussian's sigma), then the engine feathers it by its own 10 px: four sigmas and the engine's
  // feather past the brush edge, nothing may change.
  const sigma = blurRadius + feathering * Math.min(source.originalSize.width, source.originalSize.height) * 0.5;
  const margin = 4 * sigma + 10 + 4;
  const report = compare(before, after, source, (x, y) => {
    let nearest = Infinity;
    for (const s of painted) nearest = Math.min(nearest, distanceToStroke(s, x, y) - s.radius);
    if (nearest > margin) return 'keep';
    if (nearest < -Math.min(...painted.map((s) => s.radius)) / 2) return 'change';
    return 'ignore';
  });
  expect(report.kept).toBeGreaterThan(100_000);
  expect(report.keptChanged).toBe(0);
  expect(report.toChange).toBeGreaterThan(500);
  // The builtin engine paints from the prompt's palette (the layer's own prompt, so the source's colours): a flat
  // area can be repainted in the colour it had. Most of the painted core still changes, whatever the seed.
  expect(report.changed / report.toChange).toBeGreaterThan(0.3);
}

describe('inpaint and face enhance on the exported page', () => {
  it('inpaints a painted region: only that region changes in the exported PNG', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await emptyPage(page, 'inpaint');
    await page.getByTestId('prompt-input').fill('a lighthouse on a cliff');
    await blur(page);
    const centre = await toScreen(page, 850, 1200);
    await page.mouse.move(centre.x, centre.y);
    await page.keyboard.press('g');
    await expect
      .poll(async () => images(await snapshot(page))[0]?.data.variations?.length ?? 0, { timeout: 30_000 })
      .toBe(1);
    await idle(page);
    const sourceId = images(await snapshot(page))[0]!.id;

    await inpaintChangesOnlyThePaintedRegion(page, sourceId, 'inpaint-region');

    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 150_000);

  it('inpaints an uploaded picture whose size is not a multiple of 8 without moving the rest of it', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await emptyPage(page, 'inpaint-upload');
    // An uploaded picture has no prompt of its own: the inpaint takes the prompt tab's.
    await page.getByTestId('prompt-input').fill('a paper lantern');
    await blur(page);
    // 1003 × 757 is inpainted at the working size 1000 × 752; the result must still lie exactly over the source.
    await drop(page, { x: 850, y: 1200 }, { name: 'stripes.png', size: { width: 1003, height: 757 } });
    await expect
      .poll(async () => images(await snapshot(page))[0]?.data.variations?.length ?? 0, { timeout: 30_000 })
      .toBe(1);
    const sourceId = images(await snapshot(page))[0]!.id;
    expect((await snapshot(page)).layers[sourceId]!.originalSize).toEqual({ width: 1003, height: 757 });
    await expect
      .poll(async () => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('saved');
    await inpaintChangesOnlyThePaintedRegion(page, sourceId, 'inpaint-upload');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 150_000);

  it('detects the faces of a shipped photo and enhances face 0: a new variation, charged, only the face changed', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await emptyPage(page, 'faces');

    // The photo dropped on the page, as a file from the desktop would be.
    await drop(page, { x: 850, y: 1200 }, { name: 'photo-three-faces.jpg', bytes: readFileSync(PHOTO) });
    await expect
      .poll(async () => images(await snapshot(page))[0]?.data.variations?.length ?? 0, { timeout: 30_000 })
      .toBe(1);
    const layerId = images(await snapshot(page))[0]!.id;
    expect((await snapshot(page)).layers[layerId]!.originalSize).toEqual({ width: 960, height: 640 });
    await expect
      .poll(async () => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('saved');
    const before = await exportPagePng(page);

    await select(page, layerId);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('op-detect-faces').click();
    await expect
      .poll(() =>
        page
          .getByTestId('toast')
          .innerText()
          .catch(() => ''),
      )
      .toBe('Detecting faces...');
    // A real detector on a shared 2-core machine.
    await expect
      .poll(
        () =>
          page
            .getByTestId('toast')
            .innerText()
            .catch(() => ''),
        { timeout: 90_000 },
      )
      .toBe('Faces detected');
    await idle(page);
    const layer = (await snapshot(page)).layers[layerId]!;
    const shown = layer.data.variations![layer.data.variationsIdx!]!.id;
    const faces = layer.data.faceStore![shown]!;
    expect(faces.length).toBeGreaterThanOrEqual(1);
    for (const f of faces) {
      const [x0, y0, x1, y1] = f.bbox;
      expect(x0).toBeGreaterThanOrEqual(0);
      expect(y0).toBeGreaterThanOrEqual(0);
      expect(x1).toBeLessThanOrEqual(960);
      expect(y1).toBeLessThanOrEqual(640);
      // A face, not a sliver or the whole photo.
      expect(x1 - x0).toBeGreaterThan(20);
      expect(y1 - y0).toBeGreaterThan(20);
      expect((x1 - x0) * (y1 - y0)).toBeLessThan((960 * 640) / 4);
      expect(f.score).toBeGreaterThanOrEqual(0.25);
    }
    // Each face is outlined and numbered on the image, over its box on the canvas; enhance is offered for
    // exactly those faces.
    await expect.poll(() => page.locator('[data-testid^=face-outline-]').count()).toBe(faces.length);
    const canvasBox = (await page.getByTestId('canvas').boundingBox())!;
    for (const [i, f] of faces.entries()) {
      const outline = page.getByTestId(`face-outline-${i}`);
      await expect(outline.innerText()).resolves.toBe(String(i + 1));
      const box = (await outline.boundingBox())!;
      const sx = layer.transform.size.width / 960;
      const sy = layer.transform.size.height / 640;
      const expected = await toScreen(page, layer.transform.x + f.bbox[0] * sx, layer.transform.y + f.bbox[1] * sy);
      expect(Math.abs(box.x - expected.x)).toBeLessThan(3);
      expect(Math.abs(box.y - expected.y)).toBeLessThan(3);
      expect(box.x).toBeGreaterThanOrEqual(canvasBox.x - 1);
    }
    expect(await page.locator('[data-testid^=op-enhance-face-]').count()).toBe(faces.length);
    await screenshot(page, 'faces-detected');

    // Enhance face 0: one face-edit at the model's rate (an sdxl model: 6 credits).
    const label = await page.getByTestId('op-enhance-face-0').innerText();
    const cost = Number(/(\d+) cr/.exec(label)?.[1]);
    expect(cost).toBe(6);
    const credits = await creditTotal(page);
    await page.getByTestId('op-enhance-face-0').click();
    await expect
      .poll(async () => (await snapshot(page)).layers[layerId]?.data.variations?.length ?? 0, { timeout: 90_000 })
      .toBe(2);
    await idle(page);
    await expect.poll(async () => creditTotal(page), { timeout: 10_000 }).toBe(credits - cost);
    await page.waitForTimeout(500);
    await screenshot(page, 'faces-enhanced');
    const after = await exportPagePng(page);

    // The server finds the faces again on the same picture, so face 0 is the first stored box. Its mask is an
    // ellipse a little larger than the box (1.1 × 1.2) feathered inwards: outside that ellipse and a safety ring
    // nothing may change; the middle of the face must.
    const [fx0, fy0, fx1, fy1] = faces[0]!.bbox;
    const cx = (fx0 + fx1) / 2;
    const cy = (fy0 + fy1) / 2;
    const rx = ((fx1 - fx0) / 2) * 1.1;
    const ry = ((fy1 - fy0) / 2) * 1.2;
    const final = (await snapshot(page)).layers[layerId]!;
    const report = compare(before, after, final, (x, y) => {
      const d = Math.hypot((x - cx) / rx, (y - cy) / ry);
      if (d > 1.1) return 'keep';
      if (d < 0.4) return 'change';
      return 'ignore';
    });
    expect(report.kept).toBeGreaterThan(100_000);
    expect(report.keptChanged).toBe(0);
    expect(report.toChange).toBeGreaterThan(100);
    expect(report.changed / report.toChange).toBeGreaterThan(0.9);

    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 180_000);
});
