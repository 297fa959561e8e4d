// Koma's own PSD comes back as the comic it was (issue 17, item 4): a page with two panels, art clipped to one and a
// speech bubble, exported as PSD and imported again, is rebuilt on a new page — same panels (vertices within 1 px),
// the art clipped to its panel, the bubble an editable text with its words and font — and no watermark layer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { newComic, toScreen } from '../support/editor-page.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();
const tmp = mkdtempSync(path.join(tmpdir(), 'koma-psd-roundtrip-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Node {
  id: string;
  type: string;
  name: string;
  clipTarget: string | null;
  children: string[];
  transform: { x: number; y: number; size: { width: number; height: number } };
  data: { vertices?: { x: number; y: number }[]; text?: string; fontName?: string; variations?: unknown[] };
}
const pageLayers = (page: Page, index: number): Promise<Node[]> =>
  page.evaluate<Node[], number>((i) => {
    const doc = (window as any).__koma.editor.doc;
    const root = doc.layers[doc.pages[i].rootId];
    return root.children.map((id: string) => doc.layers[id]);
  }, index);

describe('PSD round trip', () => {
  it('rebuilds panels, clipping and editable text on a new page', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'psd-roundtrip');
    // Two panels: split the page's panel.
    const middle = await toScreen(page, 850, 1200);
    await page.mouse.click(middle.x, middle.y, { button: 'right' });
    const menu = page.getByTestId('context-menu');
    await expect.poll(() => menu.isVisible()).toBe(true);
    await menu.getByTestId('menu-split-h').click();
    await expect.poll(async () => (await pageLayers(page, 0)).filter((l) => l.type === 'PANEL').length).toBe(2);
    const panels = (await pageLayers(page, 0)).filter((l) => l.type === 'PANEL');
    const top = panels.reduce((a, b) => (a.transform.y <= b.transform.y ? a : b));

    // Art dropped over the top panel: fitted and clipped there.
    const over = await toScreen(page, top.transform.x + top.transform.size.width / 2, top.transform.y + 100);
    await page.evaluate(async (at) => {
      const c = document.createElement('canvas');
      c.width = 500;
      c.height = 300;
      const g = c.getContext('2d')!;
      g.fillStyle = '#306090';
      g.fillRect(0, 0, 500, 300);
      const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], 'sea.png', { type: 'image/png' }));
      const target = document.querySelector('[data-testid=canvas]')!;
      const init = { dataTransfer: transfer, clientX: at.x, clientY: at.y, bubbles: true, cancelable: true };
      target.dispatchEvent(new DragEvent('dragover', init));
      target.dispatchEvent(new DragEvent('drop', init));
    }, over);
    await expect.poll(async () => (await pageLayers(page, 0)).find((l) => l.type === 'IMAGE')?.clipTarget).toBe(top.id);

    // A speech bubble with words.
    await page.keyboard.press('6');
    const at = await toScreen(page, 850, 1900);
    await page.mouse.click(at.x, at.y);
    const editor = page.getByTestId('text-editor');
    await expect.poll(() => editor.isVisible()).toBe(true);
    await editor.fill('Round trip!');
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('tool-MOVE').click();
    const before = await pageLayers(page, 0);
    const bubble = before.find((l) => l.type === 'TEXT')!;
    expect(bubble.data.text).toBe('Round trip!');

    // Export the page as PSD, then import the file.
    await page.getByTestId('export-open').click();
    await page.getByTestId('export-format-psd').check();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 90_000 }),
      page.getByTestId('export-start').click(),
    ]);
    const file = path.join(tmp, download.suggestedFilename());
    await download.saveAs(file);
    await expect.poll(() => page.getByTestId('export-progress').count(), { timeout: 30_000 }).toBe(0);
    await page.getByTestId('import-psd-input').setInputFiles(file);
    await expect
      .poll(() => page.evaluate(() => (window as any).__koma.editor.doc.pages.length), { timeout: 60_000 })
      .toBe(2);
    await expect.poll(() => page.getByTestId('export-progress').count(), { timeout: 60_000 }).toBe(0);
    await page.getByTestId('export-close').click();

    const after = await pageLayers(page, 1);
    const newPanels = after.filter((l) => l.type === 'PANEL');
    expect(newPanels).toHaveLength(2);
    for (const was of panels) {
      const v0 = was.data.vertices![0]!;
      const now = newPanels.find((p) => Math.hypot(p.data.vertices![0]!.x - v0.x, p.data.vertices![0]!.y - v0.y) <= 1);
      expect(now, `panel at ${v0.x},${v0.y}`).toBeDefined();
      now!.data.vertices!.forEach((v, i) => {
        expect(Math.abs(v.x - was.data.vertices![i]!.x)).toBeLessThanOrEqual(1);
        expect(Math.abs(v.y - was.data.vertices![i]!.y)).toBeLessThanOrEqual(1);
      });
    }
    const newTop = newPanels.find((p) => Math.abs(p.transform.y - top.transform.y) <= 1)!;
    const art = after.filter((l) => l.type === 'IMAGE');
    expect(art).toHaveLength(1);
    expect(art[0]!.clipTarget).toBe(newTop.id);
    const text = after.filter((l) => l.type === 'TEXT');
    expect(text).toHaveLength(1);
    expect(text[0]!.data.text).toBe('Round trip!');
    expect(text[0]!.data.fontName).toBe(bubble.data.fontName);
    expect(after.map((l) => l.name).join(',')).not.toMatch(/watermark|background/i);
    // The first page is as it was.
    expect((await pageLayers(page, 0)).map((l) => l.id)).toEqual(before.map((l) => l.id));
    await expect.poll(() => page.getByTestId('canvas').isVisible()).toBe(true);
    await screenshot(page, 'psd-roundtrip-imported');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
