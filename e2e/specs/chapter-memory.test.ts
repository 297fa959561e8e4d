// A chapter stays within its decoded-image budget (issue 23, item 6): with a small budget set through the store's
// diagnostic override, visiting every page of a generated chapter evicts old pages' images instead of keeping them
// all, never holds more than the budget, keeps the open page whole, and prefetches the next page, each picture
// decoded at the size the page is seen at, not whole.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage } from '../support/browser.ts';
import { realErrors, signUp, uniqueEmail } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { chapterPictures, createChapter, uploadPictures } from '../support/chapter.ts';

const suite = useServerAndBrowser();

const PAGES = 8;
const IMAGES_PER_PAGE = 3;
/**
 * Seen whole (the page fitted in a 1280×800 window), each 1024² picture (two rows of cells 1180 units tall) is drawn
 * about 350 px tall and held as its 512² copy, 1 MiB: a page holds 3 MiB, the pinned three 9 MiB, the chapter 24 MiB.
 */
const BUDGET_MIB = 12;
const HELD_BYTES = 512 * 512 * 4;
const MiB = 1024 * 1024;

interface Snapshot {
  budgetBytes: number;
  bytesUsed: number;
  peakBytes: number;
  pinnedBytes: number;
  images: number;
  evicted: number;
  currentReady: boolean;
  nextReady: boolean;
}

/** The store's numbers and whether the open page's and the next page's images are all decoded. */
const snapshot = (page: Page): Promise<Snapshot> =>
  page.evaluate(() => {
    const w = window as unknown as { __koma: any; __komaScene: any };
    const session = w.__koma;
    const images = w.__komaScene.images;
    const doc = session.editor.doc;
    const idsOf = (index: number): string[] => {
      const p = doc.pages[index];
      if (!p) return [];
      return (doc.layers[p.rootId].children as string[])
        .map((id) => doc.layers[id])
        .filter((l) => l.type === 'IMAGE')
        .map((l) => l.data.variations[l.data.variationsIdx].id as string);
    };
    const active = session.ui.state.activePage as number;
    const ready = (ids: string[]) => ids.every((id) => images.settled([id]) && !images.failed(id));
    return { ...images.stats(), currentReady: ready(idsOf(active)), nextReady: ready(idsOf(active + 1)) };
  });

describe('a chapter within its image budget', () => {
  it('evicts least recently used pages, keeps the open page and prefetches the next', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl);
    await signUp(page, uniqueEmail('chapter'));
    const ids = await uploadPictures(
      page.request,
      suite.server.baseUrl,
      await chapterPictures(PAGES * IMAGES_PER_PAGE),
    );
    const workspace = await createChapter(page.request, suite.server.baseUrl, ids, {
      pages: PAGES,
      imagesPerPage: IMAGES_PER_PAGE,
    });
    await page.evaluate((mib) => localStorage.setItem('koma.imageBudgetMiB', String(mib)), BUDGET_MIB);
    const lookups = { one: 0, many: 0 };
    const recipes = { one: 0, many: 0 };
    const pictures = { whole: 0, scaled: 0 };
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (/^\/api\/images\/[^/]+$/.test(url.pathname)) pictures.whole++;
      if (/^\/api\/images\/[^/]+\/scaled\/512$/.test(url.pathname)) pictures.scaled++;
      if (url.pathname === '/api/image' && request.method() === 'GET') lookups.one++;
      if (url.pathname === '/api/image/urls') lookups.many++;
      if (url.pathname.startsWith('/api/flow_images') && request.method() === 'GET') recipes.one++;
      if (url.pathname === '/api/flow_images/lookup') recipes.many++;
    });
    await page.goto(`/editor/${workspace}`);
    await page.waitForSelector('[data-testid=canvas] canvas');
    await expect.poll(() => page.getByTestId('page-thumb').count()).toBe(PAGES);

    for (let i = 0; i < PAGES; i++) {
      await page.getByTestId('page-thumb').nth(i).click();
      await expect.poll(async () => (await snapshot(page)).currentReady, { timeout: 30_000 }).toBe(true);
      if (i < PAGES - 1) {
        // The next page's images arrive without visiting it, so turning to it is instant.
        await expect.poll(async () => (await snapshot(page)).nextReady, { timeout: 30_000 }).toBe(true);
      }
      const s = await snapshot(page);
      expect(s.budgetBytes).toBe(BUDGET_MIB * MiB);
      expect(s.bytesUsed).toBeLessThanOrEqual(Math.max(s.budgetBytes, s.pinnedBytes));
    }
    const end = await snapshot(page);
    // Without eviction the store would hold the whole chapter (24 MiB) by now.
    expect(end.peakBytes).toBeLessThanOrEqual(BUDGET_MIB * MiB);
    // Every picture is held at the size the page is seen at, none decoded whole.
    expect(end.bytesUsed).toBe(end.images * HELD_BYTES);
    expect(end.evicted).toBeGreaterThanOrEqual(PAGES * IMAGES_PER_PAGE - (BUDGET_MIB * MiB) / HELD_BYTES);
    // Going back to the first page reloads it (it was evicted) and draws it whole again.
    await page.getByTestId('page-thumb').nth(0).click();
    await expect.poll(async () => (await snapshot(page)).currentReady, { timeout: 30_000 }).toBe(true);
    expect((await snapshot(page)).peakBytes).toBeLessThanOrEqual(BUDGET_MIB * MiB);
    // Every picture's URL came from the one lookup of the whole document: each picture was one request.
    expect(lookups).toEqual({ one: 0, many: 1 });
    // Seen whole, every picture came as the server's 512 px copy, never whole (the first page's, evicted, twice).
    expect(pictures.whole).toBe(0);
    expect(pictures.scaled).toBeGreaterThanOrEqual(PAGES * IMAGES_PER_PAGE);
    // The recipes of a page's pictures (for the builtin engine's badge) are one lookup per page, on its first visit.
    expect(recipes).toEqual({ one: 0, many: PAGES });
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
