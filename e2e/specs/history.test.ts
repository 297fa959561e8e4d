// Issue 14 item 4: the History panel lists saved versions, previews one read-only and restores it; one undo after
// the restore brings back what was there before.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { newComic } from '../support/editor-page.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

type Koma = { __koma: any };

/** Saves now and returns the revision the server answered. */
async function saveNow(page: Page): Promise<number> {
  await page.evaluate(() => (window as unknown as Koma).__koma.autosave.saveNow());
  await expect
    .poll(() => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 10_000 })
    .toBe('saved');
  return page.evaluate(() => (window as unknown as Koma).__koma.revision as number);
}

/** The layer types on the open page of the editor's own document. */
async function pageLayers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const s = (window as unknown as Koma).__koma;
    const doc = s.editor.doc;
    return doc.layers[s.activeRoot()].children.map((id: string) => doc.layers[id].type);
  });
}

/** The layer types on the first page of what the server holds now. */
async function serverLayers(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const s = (window as unknown as Koma).__koma;
    const record = await (await fetch(`/api/workspace/${s.workspaceId}`)).json();
    return record.data.pages[0].rootLayer.children.map((layer: { type: string }) => layer.type);
  });
}

describe('history panel', () => {
  it('lists versions, previews one read-only, restores it, and undo brings back what was there', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'history');
    const start = await pageLayers(page);
    await page.getByTestId('add-text').click();
    await expect.poll(() => pageLayers(page)).toEqual([...start, 'TEXT']);
    const older = await saveNow(page);
    await page.getByTestId('add-text').click();
    await expect.poll(() => pageLayers(page)).toEqual([...start, 'TEXT', 'TEXT']);
    const newer = await saveNow(page);
    expect(newer).toBeGreaterThan(older);

    await page.getByTestId('history-button').click();
    const list = page.getByTestId('history-list');
    await list.waitFor();
    const revisions = await page
      .getByTestId('history-item')
      .evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-revision'))));
    expect(revisions[0]).toBe(newer);
    expect(revisions).toContain(older);
    await expect.poll(() => list.innerText()).toContain('Current');
    await screenshot(page, 'history-panel-desktop');

    // Preview: the older version on the canvas, read-only; the editor's own document is untouched.
    await page.locator(`[data-testid=history-item][data-revision="${older}"] button`).click();
    await page.getByTestId('history-banner').waitFor();
    await expect(page.getByTestId('history-banner').innerText()).resolves.toMatch(/read-only/);
    await page.waitForSelector('[data-testid=history-preview] [data-testid=canvas] canvas');
    // Keys go nowhere while a version is shown: Ctrl+Z would otherwise undo in the hidden editor.
    await page.keyboard.press('Control+z');
    expect(await pageLayers(page)).toEqual([...start, 'TEXT', 'TEXT']);
    // Nor do the buttons and panels that would edit it.
    expect(await page.getByTestId('undo').isDisabled()).toBe(true);
    expect(await page.getByTestId('left-sidebar').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
    await screenshot(page, 'history-preview-desktop');

    await page.getByTestId('history-restore').click();
    await expect.poll(() => page.getByTestId('history-preview').count()).toBe(0);
    await expect.poll(() => pageLayers(page)).toEqual([...start, 'TEXT']);
    const restored = await saveNow(page);
    expect(restored).toBeGreaterThan(newer);
    expect(await serverLayers(page)).toEqual([...start, 'TEXT']);

    // The restore is one step of undo.
    await page.getByTestId('canvas').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => pageLayers(page)).toEqual([...start, 'TEXT', 'TEXT']);
    await saveNow(page);
    expect(await serverLayers(page)).toEqual([...start, 'TEXT', 'TEXT']);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('works by touch at phone width: opens, previews and closes', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    await newComic(page, 'history-phone');
    await page.getByTestId('history-button').tap();
    await page.getByTestId('history-list').waitFor();
    const panel = await page.getByTestId('history-panel').boundingBox();
    expect(panel!.x).toBeGreaterThanOrEqual(0);
    expect(panel!.x + panel!.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'history-panel-phone');
    await page.getByTestId('history-item').first().locator('button').tap();
    await page.getByTestId('history-banner').waitFor();
    const restore = await page.getByTestId('history-restore').boundingBox();
    expect(restore!.x + restore!.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'history-preview-phone');
    await page.getByTestId('history-close-preview').tap();
    await page.getByTestId('history-close').tap();
    await expect.poll(() => page.getByTestId('history-panel').count()).toBe(0);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('speaks Japanese on a tablet, by touch', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
    });
    await newComic(page, 'history-ja');
    await page.locator('.language-switch__select').selectOption('ja');
    await page.getByTestId('history-button').tap();
    await page.getByTestId('history-list').waitFor();
    await expect.poll(() => page.getByTestId('history-panel').innerText()).toContain('バージョン履歴');
    await page.getByTestId('history-item').first().locator('button').tap();
    await expect.poll(() => page.getByTestId('history-banner').innerText()).toContain('読み取り専用');
    await screenshot(page, 'history-preview-tablet-ja');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
