// A watermark that holds (issue 17, item 5): a free account's PSD carries the mark in the pixels of every layer it
// crosses — no "Watermark" layer, nothing to hide that takes it away — and a subscriber's carries none.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readPsd, type Layer } from 'ag-psd';
import { ensurePsdPixels, watermarkMask } from '@koma/editor';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { newComic, toScreen } from '../support/editor-page.ts';
import { setPlan } from '../support/seed.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();
const tmp = mkdtempSync(path.join(tmpdir(), 'koma-watermark-e2e-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function exportPsd(page: Page): Promise<{ file: string; doc: ReturnType<typeof readPsd> }> {
  await page.getByTestId('export-format-psd').check();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 90_000 }),
    page.getByTestId('export-start').click(),
  ]);
  const file = path.join(tmp, `${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  await expect.poll(() => page.getByTestId('export-progress').count(), { timeout: 30_000 }).toBe(0);
  ensurePsdPixels();
  const { readFileSync } = await import('node:fs');
  return { file, doc: readPsd(readFileSync(file), { useImageData: true, skipThumbnail: true }) };
}

const rasters = (layers: Layer[] | undefined): Layer[] =>
  (layers ?? []).flatMap((l) => (l.children ? rasters(l.children) : l.imageData ? [l] : []));
const tree = (layers: Layer[] | undefined): unknown[] =>
  (layers ?? []).map((l) => (l.children ? [l.name, tree(l.children)] : l.name));

describe('watermark', () => {
  it('is in the pixels of every layer of a free PSD, with no layer that removes it when hidden', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    const email = await newComic(page, 'watermark');
    // Art in the page's panel: a dark picture dropped over it (fitted and clipped there).
    const centre = await toScreen(page, 850, 1200);
    await page.evaluate(async (at) => {
      const c = document.createElement('canvas');
      c.width = 600;
      c.height = 800;
      const g = c.getContext('2d')!;
      g.fillStyle = '#203040';
      g.fillRect(0, 0, 600, 800);
      const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], 'night.png', { type: 'image/png' }));
      const target = document.querySelector('[data-testid=canvas]')!;
      const init = { dataTransfer: transfer, clientX: at.x, clientY: at.y, bubbles: true, cancelable: true };
      target.dispatchEvent(new DragEvent('dragover', init));
      target.dispatchEvent(new DragEvent('drop', init));
    }, centre);
    await expect
      .poll(() =>
        page.evaluate(() => {
          const doc = (window as unknown as { __koma: any }).__koma.editor.doc;
          return Object.values(doc.layers as Record<string, { type: string; data: { variations?: unknown[] } }>).some(
            (l) => l.type === 'IMAGE' && (l.data.variations?.length ?? 0) > 0,
          );
        }),
      )
      .toBe(true);

    await page.getByTestId('export-open').click();
    // The dialog says beforehand that the free plan's export is watermarked.
    expect(await page.locator('.export-dialog__note').count()).toBe(1);
    await screenshot(page, 'watermark-dialog');
    const free = await exportPsd(page);
    setPlan(suite.server, email, 'subscriber');
    const paid = await exportPsd(page);

    const names = JSON.stringify(tree(free.doc.children));
    expect(names).not.toMatch(/watermark/i);
    expect(tree(free.doc.children)).toEqual(tree(paid.doc.children));
    const mask = watermarkMask(free.doc.width, free.doc.height);
    const marked = rasters(free.doc.children);
    const plain = rasters(paid.doc.children);
    expect(marked.length).toBe(plain.length);
    expect(marked.length).toBeGreaterThanOrEqual(4); // background, panel area, the picture, panel border
    for (const [n, layer] of marked.entries()) {
      const { width, height, data } = layer.imageData!;
      const other = plain[n]!.imageData!.data;
      let onMark = 0;
      let changedOnMark = 0;
      let changedOff = 0;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const o = (y * width + x) * 4;
          if (data[o + 3] === 0) continue;
          const changed = data[o] !== other[o] || data[o + 1] !== other[o + 1] || data[o + 2] !== other[o + 2];
          if (mask[(layer.top! + y) * free.doc.width + layer.left! + x]) {
            onMark++;
            if (changed) changedOnMark++;
          } else if (changed) changedOff++;
        }
      }
      // Hiding this layer leaves the mark in the others; keeping it shows the mark in its own pixels.
      expect(changedOff, layer.name).toBe(0);
      expect(onMark, layer.name).toBeGreaterThan(0);
      expect(changedOnMark, layer.name).toBeGreaterThan(onMark * 0.9);
    }
    // ImageMagick reads the same layers (composite first).
    const listed = execFileSync('identify', [free.file], { encoding: 'utf8' }).trim().split('\n');
    expect(listed[0]).toMatch(/PSD 1700x2400 1700x2400\+0\+0 8-bit/);
    expect(listed).toHaveLength(1 + marked.length);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
