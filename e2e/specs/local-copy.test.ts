// Issue 14 item 2: a save that cannot reach the server, or that the server refuses, loses nothing. The unsaved
// document is kept on this device (IndexedDB) and offered back when the workspace opens again; a refusal (4xx) is
// said in words and is not retried in a loop.
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { newComic } from '../support/editor-page.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

type Koma = { __koma: any };

const SAVES = /\/api\/workspace\/[^/]+(\/patches)?$/;
const isSave = (method: string, url: string) =>
  (method === 'PUT' || (method === 'POST' && url.endsWith('/patches'))) && SAVES.test(new URL(url).pathname);

const status = (page: Page) => page.getByTestId('save-status').getAttribute('data-status');

function layers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const s = (window as unknown as Koma).__koma;
    return [...s.editor.doc.layers[s.activeRoot()].children];
  });
}

/** The local copy this page's origin keeps for the workspace, or null. */
function localCopy(page: Page, id: string): Promise<{ baseRevision: number } | null> {
  return page.evaluate(
    (workspaceId) =>
      new Promise<{ baseRevision: number } | null>((resolve) => {
        const open = indexedDB.open('koma-local-copies', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('workspaces', { keyPath: 'workspaceId' });
        open.onsuccess = () => {
          const get = open.result.transaction('workspaces').objectStore('workspaces').get(workspaceId);
          get.onsuccess = () => {
            resolve((get.result as { baseRevision: number } | undefined) ?? null);
            open.result.close();
          };
        };
      }),
    id,
  );
}

async function serverLayerIds(page: Page, id: string): Promise<string[]> {
  return page.evaluate(async (workspaceId) => {
    const record = await (await fetch(`/api/workspace/${workspaceId}`)).json();
    return record.data.pages[0].rootLayer.children.map((c: { id: string }) => c.id);
  }, id);
}

describe('local copy', () => {
  it('keeps work the server never got when the tab closes, and offers it back on reopening', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'local-copy');
    const url = page.url();
    const id = url.split('/').pop()!;
    await page.evaluate(() => (window as unknown as Koma).__koma.autosave.saveNow());
    await expect.poll(() => status(page)).toBe('saved');
    // The server becomes unreachable for saves.
    const unreachable = (route: Route) =>
      isSave(route.request().method(), route.request().url()) ? route.abort('connectionrefused') : route.fallback();
    await page.route('**/api/workspace/**', unreachable);
    await page.getByTestId('add-text').click();
    await page.keyboard.press('Escape');
    const edited = await layers(page);
    await page.evaluate(() => (window as unknown as Koma).__koma.autosave.saveNow());
    await expect.poll(() => status(page)).toBe('error');
    await expect.poll(() => localCopy(page, id), { timeout: 5_000 }).not.toBeNull();
    await page.close();

    const again = await context.newPage();
    await again.goto(url);
    await again.waitForSelector('[data-testid=canvas] canvas');
    expect(await serverLayerIds(again, id)).not.toEqual(edited);
    const restore = again.getByTestId('local-copy-restore');
    await expect.poll(() => restore.isVisible(), { timeout: 5_000 }).toBe(true);
    await screenshot(again, 'local-copy-offered');
    await restore.click();
    await expect.poll(() => layers(again)).toEqual(edited);
    await expect.poll(() => serverLayerIds(again, id), { timeout: 10_000 }).toEqual(edited);
    // Acknowledged: the copy is gone, and the next opening offers nothing.
    await expect.poll(() => localCopy(again, id)).toBeNull();
    await again.reload();
    await again.waitForSelector('[data-testid=canvas] canvas');
    await again.waitForTimeout(500);
    expect(await again.getByTestId('local-copy-restore').count()).toBe(0);
    await context.close();
  });

  it('merges a copy made on an older revision into the newer one when they touched different layers', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'local-copy-merge');
    const url = page.url();
    const id = url.split('/').pop()!;
    await page.evaluate(() => (window as unknown as Koma).__koma.autosave.saveNow());
    await expect.poll(() => status(page)).toBe('saved');
    await page.route('**/api/workspace/**', (route: Route) =>
      isSave(route.request().method(), route.request().url()) ? route.abort('connectionrefused') : route.fallback(),
    );
    await page.getByTestId('add-text').click();
    await page.keyboard.press('Escape');
    const edited = await layers(page);
    await page.evaluate(() => (window as unknown as Koma).__koma.autosave.saveNow());
    await expect.poll(() => localCopy(page, id), { timeout: 5_000 }).not.toBeNull();
    await page.close();

    // Meanwhile another device locks the panel: a newer revision that touched another layer.
    type Node = { id: string; type: string; locked: boolean; children?: Node[] };
    const stored = (await (await context.request.get(`${suite.server.baseUrl}/api/workspace/${id}`)).json()) as {
      data: { pages: { rootLayer: Node }[] };
      revision: number;
    };
    const panel = stored.data.pages[0]!.rootLayer.children!.find((c) => c.type === 'PANEL')!;
    panel.locked = true;
    const put = await context.request.put(`${suite.server.baseUrl}/api/workspace/${id}`, {
      data: { data: stored.data, revision: stored.revision },
    });
    expect(put.status()).toBe(200);

    const again = await context.newPage();
    await again.goto(url);
    await again.waitForSelector('[data-testid=canvas] canvas');
    const restore = again.getByTestId('local-copy-restore');
    await expect.poll(() => restore.isVisible(), { timeout: 5_000 }).toBe(true);
    await restore.click();
    // Both survive: this device's new text and the other device's lock.
    await expect.poll(() => layers(again)).toEqual(edited);
    const lockedHere = () =>
      again.evaluate((panelId) => (window as unknown as Koma).__koma.editor.doc.layers[panelId].locked, panel.id);
    expect(await lockedHere()).toBe(true);
    await expect.poll(() => serverLayerIds(again, id), { timeout: 10_000 }).toEqual(edited);
    const saved = (await (await context.request.get(`${suite.server.baseUrl}/api/workspace/${id}`)).json()) as {
      data: { pages: { rootLayer: Node }[] };
    };
    expect(saved.data.pages[0]!.rootLayer.children!.find((c) => c.id === panel.id)!.locked).toBe(true);
    await context.close();
  });

  it('a refused save is said in words, kept locally, and not sent again until the next edit', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'refused');
    const id = page.url().split('/').pop()!;
    await page.evaluate(() => (window as unknown as Koma).__koma.autosave.saveNow());
    await expect.poll(() => status(page)).toBe('saved');
    let attempts = 0;
    await page.route('**/api/workspace/**', (route) => {
      if (!isSave(route.request().method(), route.request().url())) return route.fallback();
      attempts++;
      return route.fulfill({
        status: 413,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'payload_too_large', message: 'Request body is too large' }),
      });
    });
    await page.getByTestId('add-text').click();
    await page.keyboard.press('Escape');
    await page.evaluate(() => (window as unknown as Koma).__koma.autosave.saveNow());
    await expect.poll(() => status(page)).toBe('refused');
    const first = attempts;
    expect(first).toBeGreaterThan(0);
    expect(await page.getByTestId('save-status').innerText()).toBe('Not saved — refused by the server');
    await expect
      .poll(() => page.getByTestId('toast').innerText())
      .toBe('This document is too large for the server to store. Your changes are kept on this device.');
    await screenshot(page, 'local-copy-refused');
    // Ticks and explicit saves do not resend the refused version.
    for (let i = 0; i < 3; i++) await page.evaluate(() => (window as unknown as Koma).__koma.autosave.saveNow());
    await page.waitForTimeout(11_000);
    expect(attempts).toBe(first);
    await expect.poll(() => localCopy(page, id), { timeout: 5_000 }).not.toBeNull();
    // A new edit is a new version: one more try.
    await page.getByTestId('add-text').click();
    await page.keyboard.press('Escape');
    await page.evaluate(() => (window as unknown as Koma).__koma.autosave.saveNow());
    await expect.poll(() => attempts).toBeGreaterThan(first);
    await context.close();
  });
});
