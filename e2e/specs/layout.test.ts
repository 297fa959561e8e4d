// The editor on every screen (issue 16): the canvas keeps its room whatever the sidebars do, at 1440×900 with a
// mouse, 1024×768 with touch (a tablet) and 390×844 (a phone); sidebars resize and remember their width; fingers pan,
// pinch, move and long-press through Chromium's real touch pipeline (CDP Input.dispatchTouchEvent).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { newComic, pageLayers, toScreen } from '../support/editor-page.ts';
import { Touch, centreUncovered, coverage } from '../support/touch.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();
const CANVAS = '[data-testid=canvas]';

type View = { x: number; y: number; zoom: number };
const view = (page: Page) => page.evaluate(() => (window as unknown as { __koma: any }).__koma.view() as View);
const layer = (page: Page, id: string) =>
  page.evaluate(
    (layerId) =>
      (window as unknown as { __koma: any }).__koma.editor.doc.layers[layerId] as {
        transform: { x: number; y: number };
      },
    id,
  );
const firstPanel = (page: Page) =>
  page.evaluate(() => {
    const s = (window as unknown as { __koma: any }).__koma;
    return s.editor.doc.layers[s.activeRoot()].children[0] as string;
  });

/** Opens or closes a sidebar with its toggle (the toggle says whether it is open). */
async function setSidebar(page: Page, side: 'left' | 'right', open: boolean): Promise<void> {
  const toggle = page.getByTestId(`toggle-${side}`);
  if ((await toggle.getAttribute('aria-expanded')) !== String(open)) await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe(String(open));
}

/** The Konva stage follows the host's size: a canvas that is laid out but not resized would still show nothing. */
async function stageMatchesHost(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const host = document.querySelector('[data-testid=canvas]') as HTMLElement;
    const canvas = host.querySelector('canvas') as HTMLCanvasElement;
    return host.clientWidth > 0 && Math.abs(canvas.clientWidth - host.clientWidth) <= 1;
  });
}

/** A canvas point's place on the screen stays put under the pinch midpoint, and the zoom scales with the spread. */
async function pinchAbout(page: Page, touch: Touch, mid: { x: number; y: number }): Promise<void> {
  const before = await view(page);
  const box = (await page.locator(CANVAS).boundingBox())!;
  const under = { x: (mid.x - box.x - before.x) / before.zoom, y: (mid.y - box.y - before.y) / before.zoom };
  await touch.gesture(
    [
      { x: mid.x - 40, y: mid.y },
      { x: mid.x + 40, y: mid.y },
    ],
    [
      { x: mid.x - 80, y: mid.y },
      { x: mid.x + 80, y: mid.y },
    ],
  );
  await expect.poll(async () => (await view(page)).zoom / before.zoom, { timeout: 3000 }).toBeCloseTo(2, 1);
  const after = await view(page);
  // The same canvas point is still under the fingers' midpoint (within a couple of screen pixels).
  expect(Math.abs(box.x + after.x + under.x * after.zoom - mid.x)).toBeLessThan(3);
  expect(Math.abs(box.y + after.y + under.y * after.zoom - mid.y)).toBeLessThan(3);
}

describe('1440×900 with a mouse', () => {
  it('keeps the canvas on screen for every combination of sidebars', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'layout-desktop');
    const combos: [boolean, boolean, number, string][] = [
      [true, true, 0.45, 'both-open'],
      [false, true, 0.55, 'left-closed'],
      [true, false, 0.55, 'right-closed'],
      [false, false, 0.7, 'both-closed'],
    ];
    for (const [left, right, least, name] of combos) {
      await setSidebar(page, 'left', left);
      await setSidebar(page, 'right', right);
      await expect.poll(() => coverage(page, CANVAS), { message: name }).toBeGreaterThanOrEqual(least);
      expect(await centreUncovered(page, CANVAS), name).toBe(true);
      await expect.poll(() => stageMatchesHost(page), { message: name }).toBe(true);
      await screenshot(page, `layout-desktop-${name}`);
    }
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('resizes a sidebar by dragging its edge and remembers the width', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'layout-resize');
    await setSidebar(page, 'left', true);
    await setSidebar(page, 'right', true);
    const sidebar = page.getByTestId('left-sidebar');
    const before = (await sidebar.boundingBox())!.width;
    const edge = (await page.getByTestId('resize-left').boundingBox())!;
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge.x + edge.width / 2 + 60, edge.y + edge.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await sidebar.boundingBox())!.width).toBeCloseTo(before + 60, -1);
    const widened = (await sidebar.boundingBox())!.width;
    // The keyboard reaches the same edge: arrows narrow it again by steps.
    await page.getByTestId('resize-right').focus();
    const right = (await page.getByTestId('right-sidebar').boundingBox())!.width;
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await page.getByTestId('right-sidebar').boundingBox())!.width).toBeLessThan(right);
    await setSidebar(page, 'right', false);
    // Stored with the account's preferences, so a reload (or another device) gets the same layout.
    await expect
      .poll(async () => {
        const reply = (await (await page.request.get('/api/preferences')).json()) as {
          preferences: { editorLayout?: { leftWidth: number; rightOpen: boolean } };
        };
        return reply.preferences.editorLayout;
      })
      .toMatchObject({ leftWidth: Math.round(widened), rightOpen: false });
    await page.reload();
    await page.waitForSelector(`${CANVAS} canvas`);
    await expect
      .poll(async () => (await page.getByTestId('left-sidebar').boundingBox())?.width)
      .toBeCloseTo(widened, 0);
    expect(await page.getByTestId('toggle-right').getAttribute('aria-expanded')).toBe('false');
    await setSidebar(page, 'right', true);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});

describe('1024×768 touch tablet', () => {
  it('keeps the canvas, has touch-sized targets, and pans, pinches, moves and long-presses with fingers', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
    });
    await newComic(page, 'layout-tablet');
    const combos: [boolean, boolean, number, string][] = [
      [true, true, 0.3, 'both-open'],
      [false, true, 0.45, 'left-closed'],
      [true, false, 0.45, 'right-closed'],
      [false, false, 0.7, 'both-closed'],
    ];
    for (const [left, right, least, name] of combos) {
      await setSidebar(page, 'left', left);
      await setSidebar(page, 'right', right);
      await expect.poll(() => coverage(page, CANVAS), { message: name }).toBeGreaterThanOrEqual(least);
      expect(await centreUncovered(page, CANVAS), name).toBe(true);
      await screenshot(page, `layout-tablet-${name}`);
    }
    // Desktop layout, touch-sized targets.
    for (const id of ['tool-MOVE', 'tool-BRUSH', 'undo', 'toggle-left']) {
      expect((await page.getByTestId(id).boundingBox())!.height, id).toBeGreaterThanOrEqual(44);
    }

    const touch = await Touch.of(context, page);
    const box = (await page.locator(CANVAS).boundingBox())!;
    await pinchAbout(page, touch, { x: box.x + box.width * 0.4, y: box.y + box.height * 0.45 });
    await page.keyboard.press('c');
    await page.waitForTimeout(600);

    // One finger with the Move tool: on a layer it moves the layer (one undo step) …
    await page.getByTestId('tool-MOVE').tap();
    const panel = await firstPanel(page);
    const start = (await layer(page, panel)).transform;
    const zoom = (await view(page)).zoom;
    const from = await toScreen(page, 850, 1200);
    // Small moves: a panel cannot leave its page (110 units of margin on each side). 10 px keeps every edge and
    // the centre more than the 8 px snapping distance away from the margins, page edges and centre.
    await touch.gesture([from], [{ x: from.x + 10, y: from.y + 10 }]);
    await expect.poll(async () => (await layer(page, panel)).transform.x - start.x).toBeCloseTo(10 / zoom, 0);
    expect((await layer(page, panel)).transform.y - start.y).toBeCloseTo(10 / zoom, 0);
    await page.getByTestId('undo').tap();
    await expect.poll(async () => (await layer(page, panel)).transform.x).toBe(start.x);

    // … and where the tool has nothing to act on (outside the page), it scrolls the view.
    const before = await view(page);
    const outside = { x: box.x + 12, y: box.y + box.height / 2 };
    await touch.gesture([outside], [{ x: outside.x + 50, y: outside.y + 30 }]);
    await expect.poll(async () => (await view(page)).x - before.x).toBeCloseTo(50, 0);
    expect((await view(page)).y - before.y).toBeCloseTo(30, 0);
    await page.keyboard.press('c');
    await page.waitForTimeout(600);

    // A long press on a layer opens its menu, as a right click does.
    const at = await toScreen(page, 850, 1200);
    await touch.longPress(at);
    await expect.poll(() => page.getByTestId('context-menu').isVisible()).toBe(true);
    await screenshot(page, 'layout-tablet-long-press');
    await page.keyboard.press('Escape');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});

describe('1024×768 touch tablet: Panel tool', () => {
  it('says how to cut without Shift, shows a swipe’s cut while the finger is down and cuts down on lift', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
    });
    await newComic(page, 'split-touch');
    await page.getByTestId('tool-PANEL').tap();
    await expect.poll(() => page.getByTestId('split-hint').textContent()).toContain('swipe down it to split it down');
    const touch = await Touch.of(context, page);
    const from = await toScreen(page, 700, 1000);
    await touch.start(from);
    for (const dy of [10, 30, 60]) await touch.move({ x: from.x + 2, y: from.y + dy });
    await expect.poll(() => page.getByTestId('split-hint').textContent()).toBe('Release to split down');
    const preview = await page.evaluate(
      () =>
        (window as unknown as { __komaScene: any }).__komaScene.stage
          .find('.split-preview')
          .map((node: any) => node.points() as number[]) as number[][],
    );
    expect(preview).toHaveLength(2);
    await screenshot(page, 'split-touch-swipe');
    await touch.end();
    await expect.poll(async () => (await pageLayers(page)).length).toBe(2);
    // The cut is down through where the finger went down: the two parts sit side by side at canvas x 700.
    const edges = (await pageLayers(page))
      .map((l) => (l.data.vertices as { x: number }[]).map((v) => v.x))
      .map((xs) => [Math.min(...xs), Math.max(...xs)])
      .sort((a, b) => a[0]! - b[0]!);
    expect(edges[0]![1]!).toBeLessThan(700);
    expect(edges[1]![0]!).toBeGreaterThan(700);
    // A tap still splits across.
    await touch.tap(await toScreen(page, 400, 700));
    await expect.poll(async () => (await pageLayers(page)).length).toBe(3);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});

describe('390×844 phone', () => {
  it('gives the canvas the screen, tools in a bottom bar, and panels as sheets that open and close', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    await newComic(page, 'layout-phone');
    await expect.poll(() => coverage(page, CANVAS)).toBeGreaterThanOrEqual(0.6);
    expect(await centreUncovered(page, CANVAS)).toBe(true);
    expect(await stageMatchesHost(page)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'layout-phone-canvas');

    // The six tools sit in a bar along the bottom edge, on screen and thumb-sized.
    for (const tool of ['MOVE', 'SELECT', 'BRUSH', 'POSE', 'PANEL', 'TEXT']) {
      const b = (await page.getByTestId(`tool-${tool}`).boundingBox())!;
      expect(b.y + b.height, tool).toBeLessThanOrEqual(844);
      expect(b.y, tool).toBeGreaterThan(844 / 2);
      expect(b.x + b.width, tool).toBeLessThanOrEqual(390);
      expect(b.height, tool).toBeGreaterThanOrEqual(44);
    }

    for (const side of ['left', 'right'] as const) {
      await page.getByTestId(`toggle-${side}`).tap();
      const sheet = page.getByTestId(`${side}-sidebar`);
      await expect.poll(() => sheet.isVisible()).toBe(true);
      const b = (await sheet.boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(390.5);
      await page.waitForTimeout(350);
      await screenshot(page, `layout-phone-sheet-${side}`);
      await sheet.getByTestId('close-sheet').tap();
      await expect.poll(() => centreUncovered(page, CANVAS)).toBe(true);
    }
    await expect.poll(() => coverage(page, CANVAS)).toBeGreaterThanOrEqual(0.6);

    const touch = await Touch.of(context, page);
    const box = (await page.locator(CANVAS).boundingBox())!;
    await pinchAbout(page, touch, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
