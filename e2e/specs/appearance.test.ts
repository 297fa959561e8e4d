// Layer appearance (issue 17, item 2): opacity, blend mode, a 90° turn and a flip set in the layer tab show on the
// canvas and in the exported PNG, pixel for pixel, and survive a save and reload. The rotate handle turns a layer
// freely, with Shift in 15° steps, as one undo step, with a mouse and with one finger; a turned layer resizes by a
// corner handle with the opposite corner staying put.
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors, signUp, uniqueEmail } from '../support/flows.ts';
import { newComic, select, toScreen } from '../support/editor-page.ts';
import { setPlan } from '../support/seed.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { Touch } from '../support/touch.ts';
import { canvasPixel, exportPagePng, near } from '../support/pixels.ts';
import { ROTATE_HANDLE_OFFSET_PX, placedCorners, placementOf, type LayerNode } from '@koma/editor';

const suite = useServerAndBrowser();

interface Layer {
  id: string;
  type: string;
  name: string;
  opacity: number;
  blendMode: string;
  rotation: number;
  flipX: boolean;
  flipY: boolean;
  visible: boolean;
  transform: { x: number; y: number; size: { width: number; height: number } };
}
const imageLayers = (page: Page) =>
  page.evaluate(() => {
    const s = (window as unknown as { __koma: any }).__koma;
    const doc = s.editor.doc;
    return (doc.layers[s.activeRoot()].children as string[])
      .map((id) => doc.layers[id] as Layer)
      .filter((l) => l.type === 'IMAGE');
  });

/** Drops (with Alt: natural size) a PNG: one colour, or red on its left half and blue on its right. */
async function drop(
  page: Page,
  at: { x: number; y: number },
  size: [number, number],
  fill: string | null,
  name: string,
) {
  const p = await toScreen(page, at.x, at.y);
  await page.evaluate(
    async ({ p, size, fill, name }) => {
      const c = document.createElement('canvas');
      [c.width, c.height] = size;
      const g = c.getContext('2d')!;
      if (fill) {
        g.fillStyle = fill;
        g.fillRect(0, 0, c.width, c.height);
      } else {
        g.fillStyle = '#ff0000';
        g.fillRect(0, 0, c.width / 2, c.height);
        g.fillStyle = '#0000ff';
        g.fillRect(c.width / 2, 0, c.width / 2, c.height);
      }
      const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], name, { type: 'image/png' }));
      const target = document.querySelector('[data-testid=canvas]')!;
      const init = {
        dataTransfer: transfer,
        clientX: p.x,
        clientY: p.y,
        altKey: true,
        bubbles: true,
        cancelable: true,
      };
      target.dispatchEvent(new DragEvent('dragover', init));
      target.dispatchEvent(new DragEvent('drop', init));
    },
    { p, size, fill, name },
  );
}

/** Drops a picture as the page's only one and turns it a quarter clockwise from the layer tab; returns its id. */
async function dropTurned(
  page: Page,
  at: { x: number; y: number },
  size: [number, number],
  fill: string | null,
  name: string,
): Promise<string> {
  await drop(page, at, size, fill, name);
  await expect.poll(async () => (await imageLayers(page)).length).toBe(1);
  const id = (await imageLayers(page))[0]!.id;
  await select(page, id);
  await page.getByTestId('tab-layer').click();
  await page.getByTestId('rotate-right').click();
  await expect.poll(async () => (await imageLayers(page))[0]!.rotation).toBe(90);
  return id;
}

/**
 * A new comic whose only picture is a red 1000×60 strip centred on (850, 1200), turned a quarter: it shows at
 * x 820–880, y 700–1700, while its upright box is y 1170–1230.
 */
async function comicWithTurnedStrip(label: string) {
  const tab = await openPage(suite.browser, suite.server.baseUrl, { viewport: { width: 1440, height: 900 } });
  await newComic(tab.page, label);
  const id = await dropTurned(tab.page, { x: 850, y: 1200 }, [1000, 60], '#ff0000', 'long.png');
  return { ...tab, id };
}

describe('layer appearance', () => {
  it('shows opacity, multiply, a 90° turn and a vertical flip on the canvas and in the PNG', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    const email = await newComic(page, 'appearance');
    setPlan(suite.server, email, 'subscriber'); // no watermark over the pixels checked
    await drop(page, { x: 850, y: 1200 }, [600, 600], '#808080', 'grey.png');
    await expect.poll(async () => (await imageLayers(page)).length).toBe(1);
    // 400×100: red left half, blue right half, centred on (850, 1200).
    await drop(page, { x: 850, y: 1200 }, [400, 100], null, 'strip.png');
    await expect.poll(async () => (await imageLayers(page)).length).toBe(2);
    const strip = (await imageLayers(page)).find((l) => l.name === 'strip.png')!;
    await select(page, strip.id);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('rotate-right').click();
    await page.getByTestId('flip-v').click();
    await page.getByTestId('layer-opacity').fill('50');
    await page.getByTestId('layer-blend').selectOption('multiply');
    await expect
      .poll(async () => (await imageLayers(page)).find((l) => l.id === strip.id))
      .toMatchObject({ opacity: 0.5, blendMode: 'multiply', rotation: -90, flipY: true, flipX: false });

    // Turned clockwise the red (left) half is on top; flipped top to bottom it is at the bottom: x 800–900, y 1000–1400.
    // Multiply at 50 % over grey 128: red (128, 64, 64), blue (64, 64, 128); outside the turned strip, plain grey.
    const red = [128, 64, 64];
    const blue = [64, 64, 128];
    await page.evaluate(() => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [] }));
    await expect.poll(async () => near(await canvasPixel(page, 850, 1350), red, 4), { timeout: 10_000 }).toBe(true);
    expect(near(await canvasPixel(page, 850, 1050), blue, 4)).toBe(true);
    expect(near(await canvasPixel(page, 700, 1200), [128, 128, 128], 2)).toBe(true);
    await screenshot(page, 'appearance-canvas');

    const { at } = await exportPagePng(page);
    expect(near(at(850, 1350), red, 2)).toBe(true);
    expect(near(at(850, 1050), blue, 2)).toBe(true);
    expect(near(at(700, 1200), [128, 128, 128], 1)).toBe(true);
    // Normal at 50 % would give (192, 64, 64): the mode is really multiply.
    expect(near(at(850, 1350), [192, 64, 64], 20)).toBe(false);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});

/** The screen point of the selected layer's rotate handle and of its pivot, for a 400×100 strip centred on (850, 1200). */
async function handleOfStrip(page: Page) {
  const zoom = await page.evaluate(() => (window as unknown as { __koma: any }).__koma.view().zoom as number);
  const centre = await toScreen(page, 850, 1200);
  const radius = 50 * zoom + ROTATE_HANDLE_OFFSET_PX;
  /** The point `radius` from the pivot, `degrees` clockwise from straight up. */
  const around = (degrees: number) => {
    const r = (degrees * Math.PI) / 180;
    return { x: centre.x + Math.sin(r) * radius, y: centre.y - Math.cos(r) * radius };
  };
  return { centre, handle: around(0), around };
}

const undoDepth = (page: Page) =>
  page.evaluate(() => (window as unknown as { __koma: any }).__koma.editor.historySize.undo as number);

describe('free rotation', () => {
  it('the rotate handle turns a layer with the mouse, Shift landing on 15° steps, one undo step, in the PNG', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    const email = await newComic(page, 'rotate-mouse');
    setPlan(suite.server, email, 'subscriber');
    await drop(page, { x: 850, y: 1200 }, [400, 100], null, 'strip.png');
    await expect.poll(async () => (await imageLayers(page)).length).toBe(1);
    const [strip] = await imageLayers(page);
    await select(page, strip!.id);
    const { handle, around } = await handleOfStrip(page);
    const before = await undoDepth(page);
    // Swept 52° clockwise with Shift held: 45°.
    await page.mouse.move(handle.x, handle.y);
    await page.mouse.down();
    await page.keyboard.down('Shift');
    for (const degrees of [15, 30, 45, 52]) await page.mouse.move(around(degrees).x, around(degrees).y);
    await expect.poll(async () => (await imageLayers(page))[0]!.rotation).toBe(45);
    await screenshot(page, 'rotate-handle-drag');
    await page.mouse.up();
    await page.keyboard.up('Shift');
    expect((await imageLayers(page))[0]!.rotation).toBe(45);
    expect(await undoDepth(page)).toBe(before + 1);

    // Red (the strip's left half) now runs up-left of the pivot, blue down-right; where the upright strip's red
    // end was, (670, 1200), is paper now.
    await page.evaluate(() => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [] }));
    const d = 100 / Math.SQRT2;
    await expect
      .poll(async () => near(await canvasPixel(page, 850 - d, 1200 - d), [255, 0, 0], 4), { timeout: 10_000 })
      .toBe(true);
    expect(near(await canvasPixel(page, 850 + d, 1200 + d), [0, 0, 255], 4)).toBe(true);
    expect(near(await canvasPixel(page, 670, 1200), [255, 255, 255], 4)).toBe(true);

    const { at } = await exportPagePng(page);
    expect(near(at(850 - d, 1200 - d), [255, 0, 0], 2)).toBe(true);
    expect(near(at(850 + d, 1200 + d), [0, 0, 255], 2)).toBe(true);
    expect(near(at(670, 1200), [255, 255, 255], 1)).toBe(true);
    // Along the turned strip's axis, 190 units out, still red: it is turned, not just cut.
    expect(near(at(850 - 190 / Math.SQRT2, 1200 - 190 / Math.SQRT2), [255, 0, 0], 2)).toBe(true);

    // Resizing the turned strip by its bottom-right handle keeps its top-left corner where it is on the canvas.
    await select(page, strip!.id);
    const corners = async () => placedCorners(placementOf((await imageLayers(page))[0] as unknown as LayerNode));
    const [anchor, , grabbed] = await corners();
    const from = await toScreen(page, grabbed.x, grabbed.y);
    const beforeResize = await undoDepth(page);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (const step of [1, 2, 3]) await page.mouse.move(from.x + 20 * step, from.y + 12 * step);
    await expect.poll(async () => (await imageLayers(page))[0]!.transform.size.width).toBeGreaterThan(450);
    await screenshot(page, 'turned-resize-drag');
    await page.mouse.up();
    const [after] = await corners();
    expect(Math.hypot(after.x - anchor.x, after.y - anchor.y)).toBeLessThan(1e-6);
    expect((await imageLayers(page))[0]!.rotation).toBe(45);
    expect(await undoDepth(page)).toBe(beforeResize + 1);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('one finger on the rotate handle turns the layer on a 1024×768 touch screen', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
    });
    await newComic(page, 'rotate-touch');
    await drop(page, { x: 850, y: 1200 }, [400, 100], null, 'strip.png');
    await expect.poll(async () => (await imageLayers(page)).length).toBe(1);
    const [strip] = await imageLayers(page);
    await select(page, strip!.id);
    const { handle, around } = await handleOfStrip(page);
    const before = await undoDepth(page);
    const touch = await Touch.of(context, page);
    await touch.start(handle);
    for (const degrees of [20, 45, 70, 90]) await touch.move(around(degrees));
    await expect.poll(async () => (await imageLayers(page))[0]!.rotation).toBeCloseTo(90, 0);
    await screenshot(page, 'rotate-handle-touch-drag');
    await touch.end();
    expect(await undoDepth(page)).toBe(before + 1);
    expect(await page.getByTestId('context-menu').isVisible()).toBe(false);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});

describe('a turned picture on an infinite canvas', () => {
  it('exports whole: the PNG of the canvas spans the turned corners, not the upright box', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    const email = uniqueEmail('turned-canvas');
    await signUp(page, email);
    setPlan(suite.server, email, 'subscriber'); // no watermark over the pixels checked
    await page.getByRole('button', { name: 'New canvas' }).click();
    await page.waitForURL(/\/editor\/[^/]+$/);
    await page.waitForSelector('[data-testid=canvas] canvas');
    // The only layer: a 400×100 strip, red left half and blue right half, turned a quarter: 100 wide, 400 tall.
    const id = await dropTurned(page, { x: 512, y: 512 }, [400, 100], null, 'strip.png');
    await page.evaluate(() => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [] }));

    const png = await exportPagePng(page);
    expect([png.width, png.height]).toEqual([100, 400]);
    // Turned a quarter clockwise the red (left) half is on top, and both ends are in the picture.
    expect(near(png.at(50, 10), [255, 0, 0], 2)).toBe(true);
    expect(near(png.at(50, 390), [0, 0, 255], 2)).toBe(true);

    // A second picture far off, hidden: the PNG shows what is shown, so its region does not reach out to it.
    await drop(page, { x: 1600, y: 1600 }, [50, 50], '#00ff00', 'far.png');
    await expect.poll(async () => (await imageLayers(page)).length).toBe(2);
    const far = (await imageLayers(page)).find((l) => l.id !== id)!;
    await page.locator(`[data-layer-id="${far.id}"]`).getByTestId('toggle-visibility').click();
    await expect.poll(async () => (await imageLayers(page)).find((l) => l.id === far.id)!.visible).toBe(false);
    await page.evaluate(() => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [] }));
    const shown = await exportPagePng(page);
    expect([shown.width, shown.height]).toEqual([100, 400]);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});

describe('a turned picture at the edge of the view', () => {
  it('is drawn where its turned part is on screen, though its upright box is not', async () => {
    const { context, page, problems } = await comicWithTurnedStrip('turned-cull');
    // Zoomed in on (850, 800): the view shows about y 600–1000, above the upright box, across the turned strip.
    const box = (await page.getByTestId('canvas').boundingBox())!;
    await page.evaluate(
      ({ w, h }) => {
        const s = (window as unknown as { __koma: any }).__koma;
        s.ui.update({ selection: [] });
        s.setView({ x: w / 2 - 850 * 2, y: h / 2 - 800 * 2, zoom: 2 });
      },
      { w: box.width, h: box.height },
    );
    await expect
      .poll(async () => near(await canvasPixel(page, 850, 800), [255, 0, 0], 2), { timeout: 10_000 })
      .toBe(true);
    // Beside the strip, the white page.
    expect(near(await canvasPixel(page, 950, 800), [255, 255, 255], 2)).toBe(true);
    await screenshot(page, 'turned-strip-zoomed');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});

describe('a turned picture being worked on', () => {
  it('is veiled where it shows, not over its upright box, and its progress box turns with it', async () => {
    const { context, page, problems, id } = await comicWithTurnedStrip('turned-veil');
    await page.evaluate((layer) => {
      const s = (window as unknown as { __koma: any }).__koma;
      s.ui.update({ selection: [], processing: { [layer]: { status: 'IN_PROGRESS', progress: 0.5 } } });
    }, id);
    // What the screen shows (the veil is on the overlay's own canvas), at a point of the page.
    const shown = async (x: number, y: number) => {
      const p = await toScreen(page, x, y);
      const png = await page.screenshot({ clip: { x: Math.round(p.x), y: Math.round(p.y), width: 1, height: 1 } });
      return [...(await sharp(png).removeAlpha().raw().toBuffer())];
    };
    // On the strip, above its upright box: red under the veil. Beside the strip, inside its upright box: the page.
    await expect.poll(async () => (await shown(850, 1000))[0]! < 230, { timeout: 10_000 }).toBe(true);
    expect(near(await shown(850, 1000), [196, 4, 4], 12)).toBe(true);
    expect(near(await shown(600, 1200), [255, 255, 255], 2)).toBe(true);
    // Its progress box turns with it: over the strip's 60×1000 on the page, not its upright 1000×60.
    const box = (await page.getByTestId('processing').boundingBox())!;
    const [from, to] = [await toScreen(page, 820, 700), await toScreen(page, 880, 1700)];
    for (const [got, want] of [
      [box.x, from.x],
      [box.y, from.y],
      [box.x + box.width, to.x],
      [box.y + box.height, to.y],
    ] as const) {
      expect(Math.abs(got - want)).toBeLessThan(1.5);
    }
    await screenshot(page, 'turned-strip-processing');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
