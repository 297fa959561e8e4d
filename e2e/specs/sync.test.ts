// Issue 14: a creator's work is never lost. Undo of a page, saves that reach the server, and tabs that learn of
// each other's saves.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { newComic } from '../support/editor-page.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

type Koma = { __koma: any };

async function saveStatus(page: Page): Promise<string | null> {
  return page.getByTestId('save-status').getAttribute('data-status');
}

/** Saves now instead of waiting for the 10 s tick, and waits until the server has it. */
async function saveNow(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as Koma).__koma.autosave.saveNow());
  await expect.poll(() => saveStatus(page), { timeout: 10_000 }).toBe('saved');
}

/** The layer types on the open page, in order. */
async function pageLayers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const s = (window as unknown as Koma).__koma;
    const doc = s.editor.doc;
    return doc.layers[s.activeRoot()].children.map((id: string) => doc.layers[id].type);
  });
}

describe('saving after undo', () => {
  it('adds a page, undoes it, edits: the edit is saved and is there after a reload', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'undo-page');
    const workspaceUrl = page.url();
    // Saves after the first send what changed (issue 14 item 2): a small JSON Patch against the last revision.
    const patchBodies: number[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/patches')) {
        // The operations only: the first save also carries the page thumbnail.
        const body = request.postDataJSON() as { patch: unknown };
        patchBodies.push(JSON.stringify(body.patch).length);
      }
    });
    await page.getByTestId('add-page').click();
    await expect.poll(() => page.getByTestId('page-thumb').count()).toBe(2);
    await expect(page.locator('[data-testid=page-thumb][aria-current=page]').innerText()).resolves.toContain('2');
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.getByTestId('page-thumb').count()).toBe(1);
    // The strip still shows an open page, and it is the one that exists.
    await expect.poll(() => page.locator('[data-testid=page-thumb][aria-current=page]').count()).toBe(1);
    const before = await pageLayers(page);
    await page.getByTestId('add-text').click();
    await expect.poll(() => pageLayers(page)).toEqual([...before, 'TEXT']);
    await saveNow(page);
    expect(patchBodies.length).toBeGreaterThan(0);
    expect(Math.max(...patchBodies)).toBeLessThan(2_000);
    await screenshot(page, 'sync-undo-page-saved');
    await page.goto(workspaceUrl);
    await page.waitForSelector('[data-testid=canvas] canvas');
    await expect.poll(() => pageLayers(page)).toEqual([...before, 'TEXT']);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
