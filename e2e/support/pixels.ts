import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { expect } from 'vitest';
import { toScreen } from './editor-page.ts';

// Pixels the specs read back: the editor's canvas at a page point, and the page exported as PNG.

/** RGBA of the editor's canvas where a page point is drawn. */
export async function canvasPixel(page: Page, x: number, y: number): Promise<number[]> {
  const box = (await page.getByTestId('canvas').boundingBox())!;
  const p = await toScreen(page, x, y);
  return page.evaluate(
    ([px, py]) => {
      const canvas = document.querySelector('[data-testid=canvas] canvas') as HTMLCanvasElement;
      const ratio = canvas.width / canvas.clientWidth;
      return [...canvas.getContext('2d')!.getImageData(Math.round(px! * ratio), Math.round(py! * ratio), 1, 1).data];
    },
    [p.x - box.x, p.y - box.y],
  );
}

/** Each channel of `want` within `tolerance` of `got`'s. */
export const near = (got: number[], want: number[], tolerance: number) =>
  want.every((v, i) => Math.abs(v - got[i]!) <= tolerance);

export interface ExportedPng {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: Buffer;
  /** RGB at a pixel (coordinates rounded). */
  at(x: number, y: number): number[];
}

/** Exports the open page as PNG through the Export dialog (which it closes again) and decodes it. */
export async function exportPagePng(page: Page): Promise<ExportedPng> {
  await page.getByTestId('export-open').click();
  await page.getByTestId('export-format-png').check();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 90_000 }),
    page.getByTestId('export-start').click(),
  ]);
  const file = await download.path();
  await expect.poll(() => page.getByTestId('export-progress').count(), { timeout: 30_000 }).toBe(0);
  expect(await page.getByTestId('export-error').count()).toBe(0);
  await page.getByTestId('export-close').click();
  const { data, info } = await sharp(readFileSync(file)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (Math.round(y) * info.width + Math.round(x)) * 4;
    return [...data.subarray(i, i + 3)];
  };
  return { width: info.width, height: info.height, data, at };
}
