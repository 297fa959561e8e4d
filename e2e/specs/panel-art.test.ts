// Art into panels (issue 17, item 1): a picture dropped over a panel covers it and is clipped to it in one undo step
// (Alt keeps its own size); "Clip to panel" picks the panel the image overlaps most, with the others a step further;
// panels never offer clipping; v from a pose or a sketch inside a panel lands inside that panel. Panel craft (item 3):
// the page gutter sets the split gap the hover preview shows, a moved panel snaps onto a neighbour's edge with a
// guide, and a panel's own frame width and colour show on the canvas and in the PNG.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { blur, dropPng, idle, newComic, select, toScreen } from '../support/editor-page.ts';
import { setPlan } from '../support/seed.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { canvasPixel, exportPagePng, near } from '../support/pixels.ts';

const suite = useServerAndBrowser();

interface Layer {
  id: string;
  type: string;
  clipTarget: string | null;
  transform: { x: number; y: number; size: { width: number; height: number } };
  data: { position?: number; variations?: unknown[] };
}

const layers = (page: Page) =>
  page.evaluate(() => {
    const s = (window as unknown as { __koma: any }).__koma;
    const doc = s.editor.doc;
    return (doc.layers[s.activeRoot()].children as string[]).map((id) => ({ ...doc.layers[id] }) as Layer);
  });
const ofType = async (page: Page, type: string) => (await layers(page)).filter((l) => l.type === type);

/** The page in three tiers (the layouts tab); returns the panels top first. */
async function threeTiers(page: Page): Promise<Layer[]> {
  await page.getByTestId('tab-panel_presets').click();
  await page.getByTestId('preset-three-tiers').click();
  await expect.poll(async () => (await ofType(page, 'PANEL')).length).toBe(3);
  return (await ofType(page, 'PANEL')).sort((a, b) => a.transform.y - b.transform.y);
}

const centreOf = (l: Layer) => ({
  x: l.transform.x + l.transform.size.width / 2,
  y: l.transform.y + l.transform.size.height / 2,
});

describe('art into panels', () => {
  it('fits a dropped picture to the panel under it, clipped, in one undo step; Alt keeps its size', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'panel-drop');
    const [, middle] = await threeTiers(page);
    await dropPng(page, { width: 768, height: 1024 }, centreOf(middle!));
    await expect.poll(async () => (await ofType(page, 'IMAGE')).length).toBe(1);
    const [image] = await ofType(page, 'IMAGE');
    expect(image!.clipTarget).toBe(middle!.id);
    // Covers the wide panel: as wide as it, taller (768×1024 keeps its aspect), centred on it.
    const m = middle!.transform;
    expect(image!.transform.size.width).toBeCloseTo(m.size.width, 3);
    expect(image!.transform.size.height).toBeCloseTo((m.size.width * 1024) / 768, 3);
    expect(image!.transform.y + image!.transform.size.height / 2).toBeCloseTo(m.y + m.size.height / 2, 3);
    await screenshot(page, 'panel-art-drop');
    // One step: undo takes the whole placement away.
    await blur(page);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await ofType(page, 'IMAGE')).length).toBe(0);

    // Alt: the picture keeps its own size, centred on the drop point, not clipped.
    await dropPng(page, { width: 300, height: 200 }, centreOf(middle!), true);
    await expect.poll(async () => (await ofType(page, 'IMAGE')).length).toBe(1);
    const [natural] = await ofType(page, 'IMAGE');
    expect(natural!.clipTarget).toBeNull();
    expect(natural!.transform.size).toEqual({ width: 300, height: 200 });
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('clips an image to the panel it overlaps most in a stack of three; panels offer no clipping', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'panel-clip');
    const [top, middle, bottom] = await threeTiers(page);
    // Mostly over the top panel, a little over the middle one, and above all three panels in the stack.
    const t = top!.transform;
    const at = { x: t.x + 200, y: t.y + t.size.height - 60 };
    await dropPng(page, { width: 300, height: 200 }, at, true);
    await expect.poll(async () => (await ofType(page, 'IMAGE')).length).toBe(1);
    const [image] = await ofType(page, 'IMAGE');
    const stack = (await layers(page)).map((l) => l.id);
    expect(stack.indexOf(image!.id)).toBeGreaterThan(stack.indexOf(bottom!.id));

    const inside = await toScreen(page, at.x, at.y - 40);
    await page.mouse.click(inside.x, inside.y, { button: 'right' });
    const menu = page.getByTestId('context-menu');
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await menu.getByTestId('menu-clip').count()).toBe(0);
    await expect(menu.getByTestId('menu-clip-panel').innerText()).resolves.toBe('Clip to panel (Panel 1)');
    await menu.getByTestId('menu-clip-panel-other').click();
    await expect.poll(() => menu.getByTestId(`menu-clip-panel-${middle!.id}`).isVisible()).toBe(true);
    await screenshot(page, 'panel-art-clip-menu');
    await menu.getByTestId('menu-clip-panel').click();
    await expect.poll(async () => (await ofType(page, 'IMAGE'))[0]!.clipTarget).toBe(top!.id);

    // A panel's own menu has no clipping at all.
    const inBottom = await toScreen(page, centreOf(bottom!).x, centreOf(bottom!).y);
    await page.mouse.click(inBottom.x, inBottom.y, { button: 'right' });
    await expect.poll(() => menu.isVisible()).toBe(true);
    await expect.poll(() => menu.getByTestId('menu-split-h').count()).toBe(1);
    expect(await menu.locator('[data-testid^=menu-clip]').count()).toBe(0);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('puts the result of v from a pose and from a sketch inside the panel they are in', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'panel-v');
    const [top, middle] = await threeTiers(page);
    await page.getByTestId('tab-prompt').click();
    await page.getByTestId('prompt-input').fill('a girl on a rooftop');
    await blur(page);

    // A pose added mid-view sits mostly in the middle panel.
    await page.getByTestId('add-pose').click();
    await expect.poll(async () => (await ofType(page, 'POSE')).length).toBe(1);
    const [pose] = await ofType(page, 'POSE');
    await select(page, pose!.id);
    await page.keyboard.press('v');
    await expect.poll(async () => (await ofType(page, 'IMAGE')).length).toBe(1);
    const [fromPose] = await ofType(page, 'IMAGE');
    expect(fromPose!.clipTarget).toBe(middle!.id);
    expect(fromPose!.transform).toEqual(pose!.transform);
    await idle(page);

    // A sketch drawn with the brush in the top panel: the result covers that panel, clipped to it.
    await select(page, top!.id);
    await page.evaluate(() => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [] }));
    await page.keyboard.press('3');
    const c = centreOf(top!);
    const from = await toScreen(page, c.x - 150, c.y);
    const to = await toScreen(page, c.x + 150, c.y + 60);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, from.y + 20, { steps: 4 });
    await page.mouse.move(to.x, to.y, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => (await ofType(page, 'SKETCH')).length).toBe(1);
    const [sketch] = await ofType(page, 'SKETCH');
    await select(page, sketch!.id);
    await page.keyboard.press('v');
    await expect.poll(async () => (await ofType(page, 'IMAGE')).length).toBe(2);
    const fromSketch = (await ofType(page, 'IMAGE')).find((l) => l.id !== fromPose!.id)!;
    expect(fromSketch.clipTarget).toBe(top!.id);
    expect(fromSketch.transform).toEqual(top!.transform);
    await idle(page);
    await screenshot(page, 'panel-art-v');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});

/** Konva nodes of the editor's stage with this name, as their points (lines) — the overlay the user sees. */
const stageLines = (page: Page, name: string): Promise<number[][]> =>
  page.evaluate(
    (n) =>
      (window as unknown as { __komaScene: any }).__komaScene.stage
        .find(`.${n}`)
        .map((node: any) => node.points() as number[]),
    name,
  );

/** One pixel of the canvas (device pixels) under a page point. */
describe('panel craft', () => {
  it('splits with the page gutter where the preview showed, snaps onto a neighbour with a guide, frames in colour', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    const email = await newComic(page, 'panel-craft');
    setPlan(suite.server, email, 'subscriber'); // no watermark over the pixels checked
    await page.getByTestId('tab-page').click();
    await page.getByTestId('gutter-vertical').fill('40');
    await blur(page);
    await expect
      .poll(() => page.evaluate(() => (window as any).__koma.editor.doc.pages[0].gutter))
      .toEqual({ horizontal: 15, vertical: 40 });

    // Hovering the panel with the Panel tool previews the cut and says what Shift does.
    await page.getByTestId('tool-PANEL').click();
    const at = await toScreen(page, 850, 760);
    await page.mouse.move(at.x, at.y);
    await expect
      .poll(() => page.getByTestId('split-hint').textContent())
      .toContain('hold Shift or drag down to split down');
    const across = await stageLines(page, 'split-preview');
    expect(across).toHaveLength(2);
    expect(across[1]![1]! - across[0]![1]!).toBeCloseTo(40, 6);
    await page.keyboard.down('Shift');
    await expect.poll(() => page.getByTestId('split-hint').textContent()).toContain('release Shift');
    const down = await stageLines(page, 'split-preview');
    expect(down[1]![0]! - down[0]![0]!).toBeCloseTo(15, 6);
    await page.keyboard.up('Shift');
    await expect.poll(async () => (await stageLines(page, 'split-preview'))[0]![1]).toBeCloseTo(across[0]![1]!, 6);
    await screenshot(page, 'panel-craft-split-preview');

    // The click cuts exactly there: the gap is the page's 40 px vertical gutter.
    await page.mouse.down();
    await page.mouse.up();
    await expect.poll(async () => (await ofType(page, 'PANEL')).length).toBe(2);
    const [top, bottom] = (await ofType(page, 'PANEL')).sort((a, b) => a.transform.y - b.transform.y);
    const topEdge = top!.transform.y + top!.transform.size.height;
    expect(topEdge).toBeCloseTo(across[0]![1]!, 6);
    expect(bottom!.transform.y).toBeCloseTo(across[1]![1]!, 6);
    expect(bottom!.transform.y - topEdge).toBeCloseTo(40, 6);

    // The Move tool drags the top panel down until its top edge is 4 units short of the bottom panel's: it snaps
    // onto it exactly, and a guide shows along that edge while the button is held.
    await page.getByTestId('tool-MOVE').click();
    await select(page, top!.id); // the split left both parts selected: move the top one alone
    const zoom = await page.evaluate(() => (window as any).__koma.view().zoom as number);
    const from = await toScreen(page, 850, 300);
    const dy = (bottom!.transform.y - top!.transform.y - 4) * zoom;
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x, from.y + dy / 2, { steps: 4 });
    await page.mouse.move(from.x, from.y + dy, { steps: 4 });
    await expect
      .poll(() => page.evaluate(() => (window as any).__koma.ui.state.snapGuides?.ys ?? []))
      .toContain(bottom!.transform.y);
    const guides = await stageLines(page, 'snap-guide');
    expect(guides.some((points) => points[1] === bottom!.transform.y && points[3] === bottom!.transform.y)).toBe(true);
    await screenshot(page, 'panel-craft-snap-guide');
    await page.mouse.up();
    await expect
      .poll(async () => (await layers(page)).find((l) => l.id === top!.id)!.transform.y)
      .toBe(bottom!.transform.y);
    expect(await stageLines(page, 'snap-guide')).toEqual([]);
    await page.getByTestId('undo').click();
    await expect
      .poll(async () => (await layers(page)).find((l) => l.id === top!.id)!.transform.y)
      .toBe(top!.transform.y);

    // The bottom panel's frame: 24 px, green. Its left edge is x = 110.
    await select(page, bottom!.id);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('panel-border-width').fill('24');
    await blur(page);
    await page.getByTestId('panel-border-color').fill('#00a000');
    await expect
      .poll(async () => (await layers(page)).find((l) => l.id === bottom!.id)!.data)
      .toMatchObject({ borderWidth: 24, borderColor: '#00a000' });
    await page.evaluate(() => (window as any).__koma.ui.update({ selection: [] }));
    const green = [0, 160, 0];
    const y = 1800;
    await expect.poll(async () => near(await canvasPixel(page, 103, y), green, 8), { timeout: 10_000 }).toBe(true);
    expect(near(await canvasPixel(page, 117, y), green, 8)).toBe(true);
    expect(near(await canvasPixel(page, 80, y), [255, 255, 255], 8)).toBe(true);
    expect(near(await canvasPixel(page, 110, 400), [0, 0, 0], 40)).toBe(true); // the top panel keeps black
    await screenshot(page, 'panel-craft-frame');

    const { at: px } = await exportPagePng(page);
    // Centred on the edge: 98..121 green, 97 and 122 not.
    expect(px(99, y)).toEqual(green);
    expect(px(120, y)).toEqual(green);
    expect(near(px(96, y), [255, 255, 255], 1)).toBe(true);
    expect(near(px(123, y), [255, 255, 255], 1)).toBe(true);
    expect(px(110, 400)).toEqual([0, 0, 0]);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
