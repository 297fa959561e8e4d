// The layer list and the dashboard thumbnails (issue 16): numbered default names by type, readable rows with
// thumbnails, drag and keyboard reordering as one undo step each; thumbnails on the first save for both workspace
// kinds, drawn without the editor's overlays, and for a copy made from the conflict dialog.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors, signUp, uniqueEmail } from '../support/flows.ts';
import { blur, dropPng, newComic, pageLayers, select, toScreen } from '../support/editor-page.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { ARTIFACTS_DIR } from '../support/paths.ts';

const suite = useServerAndBrowser();

const children = (page: Page) =>
  page.evaluate(() => {
    const s = (window as unknown as { __koma: any }).__koma;
    const doc = s.editor.doc;
    return (doc.layers[s.activeRoot()].children as string[]).map((id) => ({
      id,
      name: doc.layers[id].name as string,
      type: doc.layers[id].type as string,
    }));
  });
const undoSize = (page: Page) =>
  page.evaluate(() => (window as unknown as { __koma: any }).__koma.editor.historySize.undo as number);

/** The ids the layer list shows, top row first. */
const rows = (page: Page) =>
  page.getByTestId('layer-row').evaluateAll((els) => els.map((el) => el.getAttribute('data-layer-id')!));

describe('the layer list', () => {
  it('names new layers by type with a number and shows readable rows with thumbnails', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'layers');
    for (let i = 0; i < 3; i++) await page.getByTestId('add-text').click();
    // A split panel's clone gets a name of its own.
    await blur(page);
    await page.keyboard.press('5');
    await page.waitForTimeout(600);
    const cut = await toScreen(page, 850, 500);
    await page.mouse.click(cut.x, cut.y);
    const at = await toScreen(page, 850, 1800);
    await page.keyboard.press('1');
    await page.mouse.move(at.x, at.y);
    await page.keyboard.press('n');
    await expect.poll(async () => (await children(page)).length).toBe(6);
    const names = (await children(page)).map((l) => l.name).sort();
    expect(names).toEqual(['Panel', 'Panel 2', 'Panel 3', 'Text 1', 'Text 2', 'Text 3']);
    expect(new Set(names).size).toBe(names.length);

    // Every row shows its whole name (no "Te…") and a thumbnail.
    const list = page.getByTestId('layer-row');
    await expect.poll(() => list.count()).toBe(6);
    for (let i = 0; i < 6; i++) {
      const row = list.nth(i);
      const name = row.getByTestId('layer-name');
      const fits = await name.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.clientWidth > 40);
      expect(fits, await name.innerText()).toBe(true);
      const thumb = (await row.getByTestId('layer-thumb').boundingBox())!;
      expect(thumb.width).toBeGreaterThanOrEqual(24);
    }
    // The row's actions are one menu away: duplicate from it.
    await list.first().hover();
    await list.first().getByTestId('layer-menu').click();
    await page.getByTestId('layer-menu-duplicate').click();
    await expect.poll(async () => (await children(page)).length).toBe(7);
    await screenshot(page, 'layer-list');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('reorders by dragging a row (one undo step) and with the keyboard', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'reorder');
    for (let i = 0; i < 3; i++) await page.getByTestId('add-text').click();
    await expect.poll(() => page.getByTestId('layer-row').count()).toBe(4);
    const before = await rows(page);
    const history = await undoSize(page);

    // Drag the bottom row (the panel) to the top.
    const bottom = (await page.getByTestId('layer-row').nth(3).boundingBox())!;
    const top = (await page.getByTestId('layer-row').nth(0).boundingBox())!;
    await page.mouse.move(bottom.x + bottom.width / 2, bottom.y + bottom.height / 2);
    await page.mouse.down();
    await page.mouse.move(top.x + top.width / 2, top.y + 4, { steps: 10 });
    await screenshot(page, 'layer-drag');
    await page.mouse.up();
    await expect.poll(() => rows(page)).toEqual([before[3], before[0], before[1], before[2]]);
    expect(await undoSize(page)).toBe(history + 1);
    await page.keyboard.press('Control+z');
    await expect.poll(() => rows(page)).toEqual(before);

    // Keyboard: Alt+Arrow moves the focused row, one undo step a press.
    await page.getByTestId('layer-row').nth(0).getByTestId('layer-name').focus();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => rows(page)).toEqual([before[1], before[0], before[2], before[3]]);
    expect(await undoSize(page)).toBe(history + 1);
    // The moved row keeps the focus, so pressing again keeps moving it.
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => rows(page)).toEqual([before[1], before[2], before[0], before[3]]);
    expect(await undoSize(page)).toBe(history + 2);
    // Undo takes back one press at a time, with the focus still on the row.
    await page.keyboard.press('Control+z');
    await expect.poll(() => rows(page)).toEqual([before[1], before[0], before[2], before[3]]);
    await page.keyboard.press('Control+z');
    await expect.poll(() => rows(page)).toEqual(before);
    await context.close();
  });
});

interface Summary {
  id: string;
  name: string;
  type: string;
  thumbnailUrl: string | null;
}
async function summaries(page: Page): Promise<Summary[]> {
  const reply = await page.request.get('/api/workspaces?page=1&pageSize=50');
  return ((await reply.json()) as { items: Summary[] }).items;
}

/** Decoded thumbnail pixels (RGB); the picture is kept under e2e/artifacts/{name}.png to look at. */
async function thumbnailPixels(page: Page, url: string, name: string) {
  const bytes = await (await page.request.get(url)).body();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await sharp(bytes)
    .png()
    .toFile(path.join(ARTIFACTS_DIR, `${name}.png`));
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (Math.round(y) * info.width + Math.round(x)) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  let blue = 0;
  let dark = 0;
  for (let i = 0; i < data.length; i += 3) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    // The editor's selection outlines, handles and panel guides are all blue; the page's content here is grey.
    if (b - Math.max(r, g) > 40) blue++;
    if (r + g + b < 200) dark++;
  }
  return { width: info.width, height: info.height, blue, dark, at };
}

/** The dropped art's colour, #cc6633. */
const ORANGE = [0xcc, 0x66, 0x33];

describe('thumbnails', () => {
  it('are made on the first save for a comic and a canvas, without overlays, and for a copy', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    const email = uniqueEmail('thumbs');
    await signUp(page, email);
    await page.getByRole('button', { name: /New comic/ }).click();
    await page.waitForURL(/\/editor\/[^/]+$/);
    await page.waitForSelector('[data-testid=canvas] canvas');
    const comicId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    // Overlays on: the reading-order badges, a selected panel and a selected text layer.
    await page.getByTestId('tab-page').click();
    await page.getByTestId('show-reading-order').check();
    await page.getByTestId('add-text').click();
    // Art clipped into the panel, under a thick frame: the thumbnail draws the frame above the art, as the editor
    // and the export do.
    const panel = (await pageLayers(page)).find((l) => l.type === 'PANEL')!;
    const box = panel.transform;
    await dropPng(
      page,
      { width: 600, height: 800 },
      { x: box.x + box.size.width / 2, y: box.y + 300 },
      false,
      '#cc6633',
    );
    await expect.poll(async () => (await pageLayers(page)).filter((l) => l.type === 'IMAGE').length).toBe(1);
    await select(page, panel.id);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('panel-border-width').fill('40');
    await blur(page);
    await expect.poll(async () => (await pageLayers(page)).find((l) => l.id === panel.id)?.data.borderWidth).toBe(40);

    // The canvas in a second tab of the same account, with a selected text layer.
    const second = await context.newPage();
    await second.goto('/dashboard');
    await second.getByRole('button', { name: 'New canvas' }).click();
    await second.waitForURL(/\/editor\/[^/]+$/);
    await second.waitForSelector('[data-testid=canvas] canvas');
    const canvasId = decodeURIComponent(new URL(second.url()).pathname.split('/').pop()!);
    await second.getByTestId('add-text').click();
    await screenshot(page, 'thumbnail-source-comic');

    // The first autosave (10 s) carries the thumbnail.
    const thumbOf = async (id: string) => (await summaries(page)).find((w) => w.id === id)?.thumbnailUrl ?? null;
    await expect.poll(() => thumbOf(comicId), { timeout: 15_000 }).not.toBeNull();
    await expect.poll(() => thumbOf(canvasId), { timeout: 15_000 }).not.toBeNull();

    const comic = await thumbnailPixels(page, (await thumbOf(comicId))!, 'thumbnail-comic');
    expect([comic.width, comic.height]).toEqual([512, 720]);
    expect(comic.blue).toBe(0);
    expect(comic.dark).toBeGreaterThan(500); // the panel's border and the bubble are drawn
    // Where the reading-order badge of panel 1 sits in the editor (page 166,166), the thumbnail shows the art, not
    // the badge's dark disc.
    const scale = Math.min(512 / 1700, 720 / 2400);
    const offsetX = (512 - 1700 * scale) / 2;
    expect(comic.at(offsetX + 166 * scale, 166 * scale)).toEqual(ORANGE.map((c) => expect.closeTo(c, -1.5)));
    // 10 px inside the panel's left edge (within the 40 px frame's inner half) the frame is drawn, over the art.
    const inside = comic.at(offsetX + (box.x + 10) * scale, (box.y + box.size.height / 2) * scale);
    expect(Math.max(...inside)).toBeLessThan(60);

    const canvas = await thumbnailPixels(page, (await thumbOf(canvasId))!, 'thumbnail-canvas');
    expect([canvas.width, canvas.height]).toEqual([768, 512]);
    expect(canvas.blue).toBe(0);
    expect(canvas.dark).toBeGreaterThan(100);

    // The dashboard shows both pictures.
    await second.goto('/dashboard');
    for (const id of [comicId, canvasId]) {
      const img = second.locator(`[data-workspace-id="${id}"] img`);
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth))
        .toBeGreaterThan(0);
    }
    await screenshot(second, 'thumbnail-dashboard');
    await second.close();

    // Another tab changes a layer this tab holds an unsaved edit on: the dialog opens at once, and "Open theirs,
    // copy mine" keeps this tab's work as a copy with a thumbnail. (This tab's timer is stopped so its edit stays
    // unsaved until the other save arrives.)
    await page.evaluate(() => (window as unknown as { __koma: any }).__koma.autosave.stop());
    const row = page.getByTestId('layer-row').first();
    const layerId = (await row.getAttribute('data-layer-id'))!;
    await row.getByTestId('toggle-visibility').click();
    type Node = { id: string; locked: boolean; children?: Node[] };
    const stored = (await (await page.request.get(`/api/workspace/${comicId}`)).json()) as {
      data: { pages: { rootLayer: Node }[] };
      revision: number;
    };
    const find = (node: Node): Node | undefined =>
      node.id === layerId ? node : (node.children ?? []).map(find).find(Boolean);
    find(stored.data.pages[0]!.rootLayer)!.locked = true;
    const put = await page.request.put(`/api/workspace/${comicId}`, {
      data: { data: stored.data, revision: stored.revision },
    });
    expect(put.status()).toBe(200);
    const theirs = page.getByTestId('conflict-load-theirs');
    await expect.poll(() => theirs.isVisible(), { timeout: 15_000 }).toBe(true);
    await theirs.click();
    await expect.poll(async () => (await summaries(page)).length).toBe(3);
    const copy = (await summaries(page)).find((w) => w.name.includes('(my copy)'))!;
    expect(copy.thumbnailUrl).not.toBeNull();
    const copied = await thumbnailPixels(page, copy.thumbnailUrl!, 'thumbnail-copy');
    expect(copied.blue).toBe(0);
    expect(realErrors(problems.errors).filter((line) => !line.includes('409'))).toEqual([]);
    await context.close();
  });
});
