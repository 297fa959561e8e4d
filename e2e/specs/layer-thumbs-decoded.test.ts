// The layer list's picture thumbnails are drawn from the copies the canvas decoded for the open page, not asked of the
// server one request per picture (docs/how-it-works/chapter-memory.md): opening pages of ten pictures makes no
// thumbnail request, and each thumbnail shows what the server's would (the picture's centre square), here for
// pictures wider than tall, so a stretched or uncropped copy would not pass.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { openPage } from '../support/browser.ts';
import { realErrors, signUp, uniqueEmail } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { ARTIFACTS_DIR } from '../support/paths.ts';
import { chapterPictures, createChapter, uploadPictures } from '../support/chapter.ts';

const suite = useServerAndBrowser();

const PAGES = 3;
const IMAGES_PER_PAGE = 10;
/** Compared at this size: the thumbnails' detail, not their resampling, is what must match. */
const COMPARED = 16;

/** Whether the open page's pictures are all decoded. */
const pageSettled = (page: Page): Promise<boolean> =>
  page.evaluate(() => {
    const w = window as unknown as { __koma: any; __komaScene: any };
    const doc = w.__koma.editor.doc;
    const root = doc.layers[doc.pages[w.__koma.ui.state.activePage].rootId];
    const ids = (root.children as string[])
      .map((id) => doc.layers[id])
      .filter((l) => l.type === 'IMAGE')
      .map((l) => l.data.variations[l.data.variationsIdx].id as string);
    return w.__komaScene.images.settled(ids) && ids.every((id) => !w.__komaScene.images.failed(id));
  });

/** RGB pixels of an image at COMPARED² (fill: the thumbnails are square already). */
const small = async (bytes: Buffer): Promise<Buffer> =>
  sharp(bytes)
    .flatten({ background: '#ffffff' })
    .resize(COMPARED, COMPARED, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer();

const meanDifference = (a: Buffer, b: Buffer): number => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
};

describe('layer list thumbnails of decoded pictures', () => {
  it('are drawn from the decoded copies, with no thumbnail request, and look like the server’s', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await signUp(page, uniqueEmail('layer-thumbs'));
    // Wider than tall (1024×512): the thumbnail is the centre square, as the server crops it.
    const pictures = await Promise.all(
      (await chapterPictures(PAGES * IMAGES_PER_PAGE)).map((bytes) =>
        sharp(bytes).resize(1024, 512, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer(),
      ),
    );
    const ids = await uploadPictures(page.request, suite.server.baseUrl, pictures);
    const workspace = await createChapter(page.request, suite.server.baseUrl, ids, {
      pages: PAGES,
      imagesPerPage: IMAGES_PER_PAGE,
    });
    const thumbnailRequests: string[] = [];
    page.on('request', (request) => {
      if (/^\/api\/images\/[^/]+\/thumbnail$/.test(new URL(request.url()).pathname)) {
        thumbnailRequests.push(request.url());
      }
    });
    await page.goto(`/editor/${workspace}`);
    await page.waitForSelector('[data-testid=canvas] canvas');
    await expect.poll(() => page.getByTestId('page-thumb').count()).toBe(PAGES);

    for (let p = 0; p < PAGES; p++) {
      await page.getByTestId('page-thumb').nth(p).click();
      await expect.poll(() => pageSettled(page), { timeout: 30_000 }).toBe(true);
      await expect.poll(() => page.locator('.layer-row__thumb').count()).toBe(IMAGES_PER_PAGE);
      // Give a lazy <img> time to ask: the thumbnails are in view.
      await page.waitForTimeout(300);
      expect(thumbnailRequests).toEqual([]);
      const copies = page.getByTestId('layer-thumb-copy');
      await expect.poll(() => copies.count(), { timeout: 10_000 }).toBe(IMAGES_PER_PAGE);
      if (p === 1) await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'layer-thumbs-from-copies.png') });

      // Each drawn thumbnail against the server's for the same picture (fetched here, outside the page).
      const drawn = await copies.evaluateAll((canvases) =>
        (canvases as HTMLCanvasElement[]).map((c) => c.toDataURL('image/png')),
      );
      const pageIds = ids.slice(p * IMAGES_PER_PAGE, (p + 1) * IMAGES_PER_PAGE);
      // The layer list shows the top layer first.
      const shown = [...pageIds].reverse();
      for (const [i, url] of drawn.entries()) {
        const response = await page.request.get(`${suite.server.baseUrl}/api/images/${shown[i]}/thumbnail`);
        expect(response.ok()).toBe(true);
        const server = await small(await response.body());
        const copy = await small(Buffer.from(url.split(',')[1]!, 'base64'));
        expect(meanDifference(copy, server)).toBeLessThan(12);
      }
    }
    expect(thumbnailRequests).toEqual([]);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
