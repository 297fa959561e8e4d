// The editor against the real server: panels, a dropped image, move, resize, lock, hide, reorder, undo and redo,
// shortcuts, zoom, autosave across a reload, and pixels where they matter.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors, signUp, uniqueEmail } from '../support/flows.ts';
import { stepZoom } from '@koma/editor';
import { useServerAndBrowser } from '../support/suite.ts';
import { toScreen } from '../support/editor-page.ts';
import { canvasPixel } from '../support/pixels.ts';

const suite = useServerAndBrowser();

interface Snapshot {
  layers: Record<
    string,
    {
      type: string;
      transform: { x: number; y: number; size: { width: number; height: number } };
      visible: boolean;
      locked: boolean;
      clipTarget: string | null;
    }
  >;
  children: string[];
  selection: string[];
  view: { x: number; y: number; zoom: number };
  canUndo: boolean;
}

/** The open document as the editor holds it (read through the debug hook the editor screen sets). */
async function snapshot(page: Page): Promise<Snapshot> {
  return page.evaluate(() => {
    const s = (window as unknown as { __koma: any }).__koma;
    const doc = s.editor.doc;
    const root = s.activeRoot();
    return {
      layers: doc.layers,
      children: doc.layers[root].children,
      selection: s.ui.state.selection,
      view: s.view(),
      canUndo: s.editor.canUndo,
    };
  });
}

/** Drops a generated PNG of one colour onto the canvas at a canvas point. */
async function dropImage(page: Page, x: number, y: number, color: string, name = 'drop.png'): Promise<void> {
  const box = (await page.getByTestId('canvas').boundingBox())!;
  const p = await toScreen(page, x, y);
  await page.evaluate(
    async ([cx, cy, fill, fileName]) => {
      const c = document.createElement('canvas');
      c.width = 400;
      c.height = 300;
      const g = c.getContext('2d')!;
      g.fillStyle = fill;
      g.fillRect(0, 0, 400, 300);
      const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], fileName, { type: 'image/png' }));
      const target = document.querySelector('[data-testid=canvas]')!;
      const rect = target.getBoundingClientRect();
      const init = {
        dataTransfer: transfer,
        clientX: rect.left + cx,
        clientY: rect.top + cy,
        // Alt: the picture keeps its own size (without it, it is fitted into the panel under it; panel-art spec).
        altKey: true,
        bubbles: true,
        cancelable: true,
      };
      target.dispatchEvent(new DragEvent('dragover', init));
      target.dispatchEvent(new DragEvent('drop', init));
    },
    [p.x - box.x, p.y - box.y, color, name] as const,
  );
}

async function newComic(page: Page): Promise<string> {
  await signUp(page, uniqueEmail('editor'));
  await page.getByRole('button', { name: /New comic/ }).click();
  await page.waitForURL(/\/editor\/[^/]+$/);
  await page.waitForSelector('[data-testid=canvas] canvas');
  await expect.poll(async () => (await snapshot(page)).children.length).toBe(1);
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
}

describe('editing a comic page', () => {
  it('adds panels and an image, moves, resizes, locks, hides, reorders, and undoes and redoes each', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await newComic(page);

    // Layouts tab: a preset replaces the default panel with six.
    await page.getByTestId('tab-panel_presets').click();
    await page.getByTestId('preset-grid-2x3').click();
    await expect.poll(async () => (await snapshot(page)).children.length).toBe(6);

    // n adds a 512×512 panel under the pointer.
    const at = await toScreen(page, 850, 1200);
    await page.mouse.move(at.x, at.y);
    await page.keyboard.press('n');
    await expect.poll(async () => (await snapshot(page)).children.length).toBe(7);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await snapshot(page)).children.length).toBe(6);
    await page.keyboard.press('Control+Shift+Z');
    await expect.poll(async () => (await snapshot(page)).children.length).toBe(7);
    await page.keyboard.press('Control+z');

    // An image dropped on the page.
    await dropImage(page, 850, 1200, '#ff0000');
    await expect
      .poll(async () => Object.values((await snapshot(page)).layers).filter((l) => l.type === 'IMAGE').length)
      .toBe(1);
    let snap = await snapshot(page);
    const imageId = snap.selection[0]!;
    expect(snap.layers[imageId]!.transform).toEqual({ x: 650, y: 1050, size: { width: 400, height: 300 } });
    await expect.poll(async () => (await canvasPixel(page, 850, 1200)).slice(0, 3)).toEqual([255, 0, 0]);
    await screenshot(page, 'editor-image-dropped');

    // Move it by dragging (MOVE tool), then undo and redo.
    const from = await toScreen(page, 850, 1200);
    const to = await toScreen(page, 950, 1300);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
    await page.mouse.move(to.x, to.y, { steps: 4 });
    await page.mouse.up();
    snap = await snapshot(page);
    expect(snap.layers[imageId]!.transform.x).toBeCloseTo(750, 0);
    expect(snap.layers[imageId]!.transform.y).toBeCloseTo(1150, 0);
    await page.getByTestId('undo').click();
    expect((await snapshot(page)).layers[imageId]!.transform.x).toBe(650);
    await page.getByTestId('redo').click();
    expect((await snapshot(page)).layers[imageId]!.transform.x).toBeCloseTo(750, 0);

    // Resize from the bottom-right handle, keeping proportions; undo. Alt resizes freely: the corner would otherwise
    // snap to a line of the page within 8 screen px (snap spec), and this checks the resize's own arithmetic.
    const corner = await toScreen(page, 750 + 400, 1150 + 300);
    await page.mouse.move(corner.x, corner.y);
    await page.mouse.down();
    await page.keyboard.down('Alt');
    const bigger = await toScreen(page, 750 + 600, 1150 + 450);
    await page.mouse.move(bigger.x, bigger.y, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up('Alt');
    snap = await snapshot(page);
    expect(snap.layers[imageId]!.transform.size.width).toBeCloseTo(600, 0);
    expect(snap.layers[imageId]!.transform.size.height).toBeCloseTo(450, 0);
    await page.keyboard.press('Control+z');
    expect((await snapshot(page)).layers[imageId]!.transform.size.width).toBe(400);

    // Ctrl+= grows it by 10 %.
    await page.keyboard.press('Control+=');
    expect((await snapshot(page)).layers[imageId]!.transform.size.width).toBeCloseTo(440, 6);
    await page.keyboard.press('Control+z');

    // Lock from the layer list: dragging no longer moves it.
    const row = page.locator(`[data-layer-id="${imageId}"]`);
    await row.getByTestId('toggle-lock').click();
    expect((await snapshot(page)).layers[imageId]!.locked).toBe(true);
    const p = await toScreen(page, 900, 1300);
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.move(p.x + 80, p.y + 80, { steps: 4 });
    await page.mouse.up();
    expect((await snapshot(page)).layers[imageId]!.transform.x).toBeCloseTo(750, 0);
    await page.keyboard.press('Control+z');
    expect((await snapshot(page)).layers[imageId]!.locked).toBe(false);

    // Hide: the pixels under it are no longer red; undo shows it again.
    await row.getByTestId('toggle-visibility').click();
    await expect.poll(async () => (await canvasPixel(page, 950, 1300)).slice(0, 3)).not.toEqual([255, 0, 0]);
    await screenshot(page, 'editor-image-hidden');
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await canvasPixel(page, 950, 1300)).slice(0, 3)).toEqual([255, 0, 0]);

    // Reorder: b sends it to the back, f brings it to the front.
    await page.keyboard.press('b');
    expect((await snapshot(page)).children[0]).toBe(imageId);
    await page.keyboard.press('f');
    expect((await snapshot(page)).children.at(-1)).toBe(imageId);
    await page.keyboard.press('Control+z');
    expect((await snapshot(page)).children[0]).toBe(imageId);

    expect(realErrors(problems.errors)).toEqual([]);
    expect(problems.external).toEqual([]);
    await context.close();
  });

  it('saves on its own and finds everything as it was after a reload', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    const id = await newComic(page);
    await page.getByTestId('tab-panel_presets').click();
    await page.getByTestId('preset-tall-side').click();
    await page.getByTestId('add-text').click();
    await dropImage(page, 600, 600, '#0000ff', 'blue.png');
    await expect.poll(async () => (await snapshot(page)).children.length).toBe(6);
    const before = await snapshot(page);
    // Autosave runs every 10 s while the document is dirty.
    await expect
      .poll(async () => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 25_000 })
      .toBe('saved');
    await page.reload();
    await page.waitForSelector('[data-testid=canvas] canvas');
    await expect.poll(async () => (await snapshot(page)).children.length).toBe(6);
    const after = await snapshot(page);
    expect(after.children).toEqual(before.children);
    for (const layerId of before.children) {
      expect(after.layers[layerId]!.transform).toEqual(before.layers[layerId]!.transform);
      expect(after.layers[layerId]!.type).toEqual(before.layers[layerId]!.type);
    }
    await expect.poll(async () => (await canvasPixel(page, 600, 600)).slice(0, 3)).toEqual([0, 0, 255]);
    const stored = (await (await page.request.get(`/api/workspace/${id}`)).json()) as { revision: number };
    expect(stored.revision).toBeGreaterThan(1);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('zooms with the keys and Ctrl+wheel, pans with the wheel, and splits a panel with the panel tool', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await newComic(page);
    const start = (await snapshot(page)).view;
    await page.keyboard.press('=');
    // The key eases to the next zoom step in 300 ms.
    const zoomed = stepZoom(start.zoom, 1);
    await expect.poll(async () => (await snapshot(page)).view.zoom).toBeCloseTo(zoomed, 9);
    const centre = await toScreen(page, 850, 1200);
    await page.mouse.move(centre.x, centre.y);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await expect.poll(async () => (await snapshot(page)).view.zoom).toBeCloseTo(zoomed * 1.05, 6);
    const beforePan = (await snapshot(page)).view;
    await page.mouse.wheel(0, 120);
    await expect.poll(async () => (await snapshot(page)).view.y).toBeCloseTo(beforePan.y - 120, 6);
    await page.keyboard.press('c');

    // Tool 5 is the panel tool: a click inside the panel cuts it across with a 15 px gutter.
    await page.keyboard.press('5');
    await page.waitForTimeout(600);
    const cut = await toScreen(page, 850, 1200);
    await page.mouse.click(cut.x, cut.y);
    await expect.poll(async () => (await snapshot(page)).children.length).toBe(2);
    const snap = await snapshot(page);
    const [top, bottom] = snap.children.map((id) => snap.layers[id]!.transform);
    expect(bottom!.y - (top!.y + top!.size.height)).toBeCloseTo(15, 6);
    await screenshot(page, 'editor-panel-split');
    await context.close();
  });

  it('pinch-zooms with two fingers on a touch screen', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1200, height: 800 },
    });
    await newComic(page);
    const box = (await page.getByTestId('canvas').boundingBox())!;
    const zoom = (await snapshot(page)).view.zoom;
    await page.evaluate(
      ([cx, cy]) => {
        const el = document.querySelector('[data-testid=canvas]')!;
        const fire = (type: string, id: number, x: number, y: number) =>
          el.dispatchEvent(
            new PointerEvent(type, {
              pointerId: id,
              pointerType: 'touch',
              clientX: x,
              clientY: y,
              bubbles: true,
              isPrimary: id === 1,
            }),
          );
        fire('pointerdown', 1, cx! - 50, cy!);
        fire('pointerdown', 2, cx! + 50, cy!);
        fire('pointermove', 1, cx! - 100, cy!);
        fire('pointermove', 2, cx! + 100, cy!);
        fire('pointerup', 1, cx! - 100, cy!);
        fire('pointerup', 2, cx! + 100, cy!);
      },
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    await expect.poll(async () => (await snapshot(page)).view.zoom).toBeCloseTo(zoom * 2, 6);
    await context.close();
  });

  it('opens a layer menu on right click, acts from it, and closes with Escape', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await newComic(page);
    await dropImage(page, 850, 1200, '#00aa00');
    await expect
      .poll(async () => Object.values((await snapshot(page)).layers).filter((l) => l.type === 'IMAGE').length)
      .toBe(1);
    const at = await toScreen(page, 850, 1200);
    await page.mouse.click(at.x, at.y, { button: 'right' });
    await page.getByTestId('menu-duplicate').click();
    await expect
      .poll(async () => Object.values((await snapshot(page)).layers).filter((l) => l.type === 'IMAGE').length)
      .toBe(2);
    expect(await page.getByTestId('context-menu').count()).toBe(0);
    await page.mouse.click(at.x, at.y, { button: 'right' });
    await expect.poll(() => page.getByTestId('context-menu').isVisible()).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('context-menu').count()).toBe(0);
    await context.close();
  });

  it('speaks Japanese when the locale is ja', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await newComic(page);
    await page.getByRole('combobox').first().selectOption('ja');
    await expect.poll(() => page.getByTestId('tool-PANEL').innerText()).toContain('コマ');
    expect(await page.getByTestId('tab-layer').innerText()).toBe('レイヤー');
    await screenshot(page, 'editor-ja');
    await context.close();
  });
});
