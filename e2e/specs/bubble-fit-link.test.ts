// Lettering, issue 18 item 5 and 6: a bubble that shrinks its text to fit (on the canvas, with the tab's size and its
// overflow warning), two bubbles linked into one outline (judged on the exported PNG: no stroke inside the union),
// and the faces a tail can point at outlined only while the tail menu is open.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { blur, newComic, textLayers as texts, toScreen, type PageLayer } from '../support/editor-page.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { exportPagePng } from '../support/pixels.ts';

const suite = useServerAndBrowser();

/** A bubble made with the Text tool at a page point, holding `text`. */
async function bubbleAt(page: Page, x: number, y: number, text: string): Promise<PageLayer> {
  const before = (await texts(page)).length;
  await page.keyboard.press('6');
  const at = await toScreen(page, x, y);
  await page.mouse.click(at.x, at.y);
  await expect.poll(() => page.getByTestId('text-editor').isVisible()).toBe(true);
  await page.keyboard.type(text);
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('text-editor').count()).toBe(0);
  await expect.poll(async () => (await texts(page)).length).toBe(before + 1);
  return (await texts(page)).at(-1)!;
}

const setSelection = (page: Page, ids: string[]) =>
  page.evaluate((sel) => (window as any).__koma.ui.update({ selection: sel }), ids);

const centre = (l: PageLayer) => ({
  x: l.transform.x + l.transform.size.width / 2,
  y: l.transform.y + l.transform.size.height / 2,
});

describe('bubbles that fit and join', () => {
  it('shrinks text to fit its bubble on the canvas, warns when it cannot, and links two bubbles into one outline', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'fit-link');
    const first = await bubbleAt(page, 500, 600, 'Wait for me!');
    const size = first.transform.size;
    await setSelection(page, [first.id]);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('text-fit').selectOption('shrink');
    // Much more text: the box stays, the font steps down, and the tab says to what.
    const long = 'Wait for me! I said WAIT! You never listen to anything I say, do you?';
    await page.getByTestId('text-content').fill(long);
    await blur(page);
    await expect.poll(async () => (await texts(page))[0]!.data.text).toBe(long);
    const shrunk = (await texts(page))[0]!;
    expect(shrunk.transform.size).toEqual(size);
    const fitted = Number(await page.getByTestId('text-fitted-size').getAttribute('data-size'));
    expect(fitted).toBeLessThan(shrunk.data.fontSize);
    expect(fitted).toBeGreaterThanOrEqual(6);
    // On the canvas the text stays inside the bubble: nothing dark in a ring just outside its box (the tail,
    // which points down, is left out of the ring).
    const topLeft = await toScreen(page, shrunk.transform.x, shrunk.transform.y);
    const bottomRight = await toScreen(page, shrunk.transform.x + size.width, shrunk.transform.y + size.height);
    const shot = await sharp(
      await page.screenshot({
        clip: {
          x: topLeft.x - 30,
          y: topLeft.y - 30,
          width: bottomRight.x - topLeft.x + 60,
          height: bottomRight.y - topLeft.y + 30,
        },
      }),
    )
      .raw()
      .toBuffer({ resolveWithObject: true });
    let darkOutside = 0;
    let darkInside = 0;
    const { width: sw, height: sh, channels } = shot.info;
    for (let y = 0; y < sh; y++)
      for (let x = 0; x < sw; x++) {
        const i = (y * sw + x) * channels;
        const dark = shot.data[i]! < 90 && shot.data[i + 1]! < 90 && shot.data[i + 2]! < 90;
        if (!dark) continue;
        const inside = x >= 28 && x < sw - 28 && y >= 28;
        if (inside) darkInside++;
        else darkOutside++;
      }
    expect(darkInside).toBeGreaterThan(40);
    expect(darkOutside).toBe(0);
    await screenshot(page, 'bubble-shrink-to-fit');
    // Far too much text even at the floor: a warning in the tab.
    await page.getByTestId('text-content').fill(long.repeat(12));
    await blur(page);
    await expect.poll(() => page.getByTestId('text-overflow').isVisible()).toBe(true);
    await page.getByTestId('text-content').fill(long);
    await blur(page);
    await expect.poll(() => page.getByTestId('text-overflow').count()).toBe(0);

    // A second bubble overlapping the first, each holding a single dot so the line between the centres is clear.
    const second = await bubbleAt(page, 500 + size.width * 0.8, 640, '.');
    await setSelection(page, [first.id]);
    await page.getByTestId('text-fit').selectOption('grow');
    await page.getByTestId('text-content').fill('.');
    await blur(page);
    const [a, b] = await texts(page);
    const comic = await page.evaluate(() => (window as any).__koma.editor.doc.comicConfiguration);
    const ink = (png: { width: number; data: Buffer }, p: { x: number; y: number }) => {
      const s = png.width / comic.width;
      const i = (Math.round(p.y * s) * png.width + Math.round(p.x * s)) * 4;
      return png.data[i]! < 100 && png.data[i + 1]! < 100 && png.data[i + 2]! < 100;
    };
    const from = centre(a!);
    const to = centre(b!);
    const segment = Array.from({ length: 101 }, (_, k) => k / 100)
      .filter((t) => t > 0.12 && t < 0.88)
      .map((t) => ({ x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t }));
    // Apart from each other, both outlines cross the line between the centres.
    const before = await exportPagePng(page);
    expect(segment.filter((p) => ink(before, p)).length).toBeGreaterThan(0);

    await setSelection(page, [a!.id, second.id]);
    await page.getByTestId('link-bubbles').click();
    const linked = await texts(page);
    expect(linked.map((l) => l.data.linkedBubbleId)).toEqual([second.id, a!.id]);
    const after = await exportPagePng(page);
    expect(segment.filter((p) => ink(after, p))).toEqual([]);
    // The union keeps its outer outline: left of the first bubble's centre and right of the second's there is ink.
    const leftward = Array.from({ length: 60 }, (_, k) => ({
      x: from.x - (a!.transform.size.width / 2 + 10) * (k / 59),
      y: from.y,
    }));
    const rightward = Array.from({ length: 60 }, (_, k) => ({
      x: to.x + (b!.transform.size.width / 2 + 10) * (k / 59),
      y: to.y,
    }));
    expect(leftward.some((p) => ink(after, p))).toBe(true);
    expect(rightward.some((p) => ink(after, p))).toBe(true);
    await setSelection(page, []);
    await screenshot(page, 'bubbles-linked');
    // The tab of one of them says so and parts them.
    await setSelection(page, [second.id]);
    await expect.poll(() => page.getByTestId('linked-to').isVisible()).toBe(true);
    await page.getByTestId('unlink-bubbles').click();
    expect((await texts(page)).map((l) => l.data.linkedBubbleId)).toEqual([null, null]);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 240_000);

  it('outlines the faces a tail can point at only while the tail menu is open', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'tail-faces');
    // A picture dropped on the page, then two faces stored for it as a detector would.
    const at = await toScreen(page, 850, 1200);
    const box = (await page.getByTestId('canvas').boundingBox())!;
    await page.evaluate(
      async ([cx, cy]) => {
        const c = document.createElement('canvas');
        c.width = 480;
        c.height = 320;
        const g = c.getContext('2d')!;
        g.fillStyle = '#88aacc';
        g.fillRect(0, 0, 480, 320);
        const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
        const transfer = new DataTransfer();
        transfer.items.add(new File([blob], 'faces.png', { type: 'image/png' }));
        const target = document.querySelector('[data-testid=canvas]')!;
        const rect = target.getBoundingClientRect();
        const init = {
          dataTransfer: transfer,
          clientX: rect.left + cx!,
          clientY: rect.top + cy!,
          altKey: true,
          bubbles: true,
        };
        target.dispatchEvent(new DragEvent('dragover', { ...init, cancelable: true }));
        target.dispatchEvent(new DragEvent('drop', { ...init, cancelable: true }));
      },
      [at.x - box.x, at.y - box.y],
    );
    const imageId = async () =>
      page.evaluate(() => {
        const s = (window as any).__koma;
        const doc = s.editor.doc;
        const img = doc.layers[s.activeRoot()].children
          .map((id: string) => doc.layers[id])
          .find((l: any) => l.type === 'IMAGE');
        return img && img.data.variations.length > 0 ? (img.id as string) : null;
      });
    await expect.poll(imageId, { timeout: 30_000 }).not.toBeNull();
    const image = (await imageId())!;
    // A test-only edit through the editor (one undoable step), as the detector's result would land.
    const stored = await page.evaluate((id) => {
      const editor = (window as any).__koma.editor;
      return editor.execute(
        {
          name: 'Spec faces',
          run: (doc: any) => {
            const img = doc.layers[id];
            const v = img.data.variations[img.data.variationsIdx].id;
            img.data.faceStore = {
              ...img.data.faceStore,
              [v]: [
                { bbox: [40, 40, 140, 160], score: 0.9 },
                { bbox: [300, 60, 400, 180], score: 0.8 },
              ],
            };
          },
        },
        {},
      ).ok as boolean;
    }, image);
    expect(stored).toBe(true);
    const bubble = await bubbleAt(page, 500, 500, 'Hey you!');
    await setSelection(page, [bubble.id]);
    await page.getByTestId('tab-layer').click();
    // Selected, menu closed: no outlines.
    await page.waitForTimeout(300);
    expect(await page.locator('[data-testid^=face-outline-]').count()).toBe(0);
    await page.getByTestId('pin-to-face').click();
    await expect.poll(() => page.locator('[data-testid^=face-outline-]').count()).toBe(2);
    expect(await page.getByTestId('face-outline-1').innerText()).toBe('2');
    expect(await page.getByTestId('pin-face-1').innerText()).toContain('2');
    await screenshot(page, 'tail-menu-faces');
    // Escape closes the menu and the outlines go.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid^=face-outline-]').count()).toBe(0);
    // Open again and pick face 2 from the menu with the keyboard (the focus starts on the chosen option, the arrows
    // walk the list, Enter picks): pinned, menu and outlines gone.
    await page.getByTestId('pin-to-face').click();
    await expect.poll(() => page.locator('[data-testid^=face-outline-]').count()).toBe(2);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await expect.poll(focused).toBe('pin-face-none');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('pin-face-1');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-testid^=face-outline-]').count()).toBe(0);
    const pinned = (await texts(page))[0]!.data;
    expect([pinned.pinToFace, pinned.tailTargetLayerId, pinned.tailTargetFaceIdx]).toEqual([true, image, 1]);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 180_000);

  it('letters a page with linked bubbles in the Japanese and the English interface (artifacts to look at)', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'lettered-linked');
    await page.locator('.language-switch__select').first().selectOption('ja');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ja');
    // Vertical Japanese: tate-chu-yoko in the first, ruby in the second, the two joined as one speaker continuing.
    const ja1 = await bubbleAt(page, 1250, 520, '今日は2024年!?');
    const ja2 = await bubbleAt(page, 1010, 700, '｜漢字《かんじ》を読むの？');
    await setSelection(page, [ja1.id, ja2.id]);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('link-bubbles').click();
    await expect.poll(async () => (await texts(page)).map((l) => l.data.linkedBubbleId)).toEqual([ja2.id, ja1.id]);
    await bubbleAt(page, 1200, 1500, 'え、本当に！？');
    await page.getByTestId('tool-MOVE').click();
    await setSelection(page, []);
    const zoomTo = async (cx: number, cy: number, zoom: number) =>
      page.evaluate(
        ([x, y, z]) => {
          const s = (window as any).__koma;
          const host = document.querySelector('[data-testid=canvas]')!.getBoundingClientRect();
          s.setView({ x: host.width / 2 - x! * z!, y: host.height / 2 - y! * z!, zoom: z });
        },
        [cx, cy, zoom],
      );
    await zoomTo(850, 1000, 0.42);
    await screenshot(page, 'lettered-page-ja-linked');
    await zoomTo(1130, 650, 1.1);
    await screenshot(page, 'lettered-ja-linked-closeup');
    // The English interface: horizontal bubbles, a pair standing apart joined by a neck.
    await page.locator('.language-switch__select').first().selectOption('en');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    await zoomTo(850, 1000, 0.42);
    const en1 = await bubbleAt(page, 420, 500, 'Did you hear that?');
    const en2 = await bubbleAt(page, 520, 1000, "It came from the roof... I'm going up.");
    await setSelection(page, [en1.id, en2.id]);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('link-bubbles').click();
    await page.getByTestId('tool-MOVE').click();
    await setSelection(page, []);
    await screenshot(page, 'lettered-page-en-linked');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 180_000);
});
