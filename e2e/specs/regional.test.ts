// Regional prompts and sketch-map (brush-based) generation in the editor, against the real server and its builtin
// engine: regions drawn in a panel's frame and generated into it, a sketch-map brush painted and erased at the view
// centre and generated there; the empty-field messages, a refused prompt's toast, credits and undo.
import { describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { creditTotal, newComic, toScreen } from '../support/editor-page.ts';

// Charges are checked: the builtin engine charges as in a demo of billing (BUILTIN_CHARGES).
const suite = useServerAndBrowser({ env: { STARTING_CREDITS: '100', BUILTIN_CHARGES: 'true' } });

interface Layer {
  type: string;
  transform: { x: number; y: number; size: { width: number; height: number } };
  locked: boolean;
  clipTarget: string | null;
  data: { variations?: { id: string }[]; params?: unknown };
}

interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface Snapshot {
  layers: Record<string, Layer>;
  children: string[];
  selection: string[];
  regions: { color: string; prompt: string; negativePrompt: string; rect: Rect | null }[];
  sketchMap: {
    backgroundPrompt: string;
    brushes: { radius: number; prompt: string; strokes: { points: number[]; radius: number; erase: boolean }[] }[];
  };
  processing: Record<string, unknown>;
}

async function snapshot(page: Page): Promise<Snapshot> {
  return page.evaluate(() => {
    const s = (window as unknown as { __koma: any }).__koma;
    const doc = s.editor.doc;
    return {
      layers: doc.layers,
      children: doc.layers[s.activeRoot()].children,
      selection: s.ui.state.selection,
      regions: doc.regionalPrompts,
      sketchMap: doc.sketchMap,
      processing: s.ui.state.processing,
    };
  });
}

/** A new comic, open, with its one default panel on the page. */
async function openComic(page: Page, label: string): Promise<string> {
  const email = await newComic(page, label);
  await expect.poll(async () => (await snapshot(page)).children.length).toBe(1);
  return email;
}

const images = (snap: Snapshot) =>
  Object.entries(snap.layers)
    .filter(([, l]) => l.type === 'IMAGE')
    .map(([id, l]) => ({ id, ...l }));

/** A drag inside the frame, between two points given as fractions of it. */
async function dragInFrame(page: Page, from: [number, number], to: [number, number]): Promise<void> {
  const frame = (await page.getByTestId('composite-frame').boundingBox())!;
  const at = ([fx, fy]: [number, number]) => ({ x: frame.x + fx * frame.width, y: frame.y + fy * frame.height });
  const a = at(from);
  const b = at(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(a.x + ((b.x - a.x) * i) / 8, a.y + ((b.y - a.y) * i) / 8);
  await page.mouse.up();
}

/** Fills a prompt box and leaves it, which is when the edit is committed (one undo step). */
async function commitText(page: Page, testId: string, index: number, text: string): Promise<void> {
  const box = page.getByTestId(testId).nth(index);
  await box.fill(text);
  await box.blur();
}

function bodiesOf(page: Page, path: string): Record<string, any>[] {
  const bodies: Record<string, any>[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === path) {
      bodies.push(request.postDataJSON() as Record<string, any>);
    }
  });
  return bodies;
}

describe('regional prompts and the sketch map', () => {
  it('draws two regions in a panel, names empty fields, shows a refused prompt, and generates into the panel', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await openComic(page, 'regional');
    const panelId = (await snapshot(page)).children[0]!;
    const sent = bodiesOf(page, '/api/regional');

    // The frame is the selected panel.
    const inPanel = await toScreen(page, 850, 1200);
    await page.mouse.click(inPanel.x, inPanel.y);
    await expect.poll(async () => (await snapshot(page)).selection).toEqual([panelId]);
    await page.getByTestId('prompt-input').fill('a knight facing a dragon in a ruined castle');
    await page.getByTestId('negative-prompt-input').fill('lowres, blurry');
    await page.getByTestId('regions-section').locator('summary').click();
    await expect(page.getByTestId('composite-frame').getAttribute('data-panel-id')).resolves.toBe(panelId);
    await expect(page.getByTestId('regional-generate-cost').innerText()).resolves.toBe('6 credits');

    // Two regions, each drawn by a drag; each drag is one undo step that adds the region with its box.
    await dragInFrame(page, [0.08, 0.15], [0.45, 0.85]);
    await dragInFrame(page, [0.55, 0.1], [0.92, 0.6]);
    let snap = await snapshot(page);
    expect(snap.regions).toHaveLength(2);
    expect(snap.regions[0]!.rect!.x0).toBeCloseTo(0.08, 1);
    expect(snap.regions[0]!.rect!.y1).toBeCloseTo(0.85, 1);
    expect(snap.regions[1]!.rect!.x1).toBeCloseTo(0.92, 1);
    // New regions start with the prompt tab's negative prompt and different colours.
    expect(snap.regions.map((r) => r.negativePrompt)).toEqual(['lowres, blurry', 'lowres, blurry']);
    expect(snap.regions[0]!.color).not.toBe(snap.regions[1]!.color);
    expect(await page.getByTestId('region-box').count()).toBe(2);

    // Moving the second region by its box keeps its size.
    const before = snap.regions[1]!.rect!;
    await dragInFrame(page, [0.7, 0.3], [0.7, 0.4]);
    snap = await snapshot(page);
    const moved = snap.regions[1]!.rect!;
    expect(moved.y0 - before.y0).toBeCloseTo(0.1, 1);
    expect(moved.x1 - moved.x0).toBeCloseTo(before.x1 - before.x0, 5);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await snapshot(page)).regions[1]!.rect).toEqual(before);

    // An empty region prompt is named before anything is sent or charged.
    await commitText(page, 'region-prompt', 0, 'a knight in silver armour');
    await page.getByTestId('regional-generate').click();
    await expect(page.getByTestId('regional-issues').innerText()).resolves.toContain('Region 2: Prompt is empty.');
    expect(sent).toHaveLength(0);
    expect(images(await snapshot(page))).toHaveLength(0);

    // A prompt the server refuses: its answer is the toast, and the placeholder layer goes away.
    await commitText(page, 'region-prompt', 1, 'barack obama');
    await expect.poll(() => page.getByTestId('regional-issues').count()).toBe(0);
    await page.getByTestId('regional-generate').click();
    await expect.poll(() => page.getByTestId('toast').innerText()).toContain('real public figures are not allowed');
    await expect.poll(async () => images(await snapshot(page)).length).toBe(0);
    expect(await creditTotal(page)).toBe(100);

    await commitText(page, 'region-prompt', 1, 'a green dragon breathing fire');
    await screenshot(page, 'regional-drawn');
    await page.getByTestId('regional-generate').click();
    await expect.poll(async () => images(await snapshot(page)).length).toBe(1);
    snap = await snapshot(page);
    const image = images(snap)[0]!;
    expect(image.clipTarget).toBe(panelId);
    expect(image.locked).toBe(true);
    await expect
      .poll(async () => images(await snapshot(page))[0]?.data.variations?.length ?? 0, { timeout: 30_000 })
      .toBe(1);
    await expect.poll(async () => creditTotal(page), { timeout: 10_000 }).toBe(94);

    // What was sent: the frame's pixels (multiples of 8, 256 to 2048) and both regions as fractions of it.
    const body = sent.at(-1)!;
    expect(body.width % 8).toBe(0);
    expect(body.height % 8).toBe(0);
    expect(body.width).toBeGreaterThanOrEqual(256);
    expect(body.height).toBeLessThanOrEqual(2048);
    expect(body.prompt).toBe('a knight facing a dragon in a ruined castle');
    expect(body.regions).toHaveLength(2);
    expect(body.regions[1]).toMatchObject({
      prompt: 'a green dragon breathing fire',
      negative_prompt: 'lowres, blurry',
    });
    for (const r of body.regions as Rect[]) {
      expect(r.x0).toBeGreaterThanOrEqual(0);
      expect(r.x1).toBeLessThanOrEqual(1);
      expect(r.x0).toBeLessThan(r.x1);
      expect(r.y0).toBeLessThan(r.y1);
      expect(Math.abs(r.x0 * body.width - Math.round(r.x0 * body.width))).toBeLessThan(1e-6);
    }
    // The picture covers the panel's box.
    const panel = snap.layers[panelId]!.transform;
    expect(image.transform.size.width).toBeGreaterThanOrEqual(panel.size.width - 1);
    expect(image.transform.size.height).toBeGreaterThanOrEqual(panel.size.height - 1);
    await page.waitForTimeout(300);
    await screenshot(page, 'regional-generated');

    // Undo takes the image away (its variation, then the layer), the regions stay.
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    await expect.poll(async () => images(await snapshot(page)).length).toBe(0);
    expect((await snapshot(page)).regions).toHaveLength(2);

    expect(realErrors(problems.errors).filter((e) => !e.includes('public figures'))).toEqual([]);
    expect(problems.external).toEqual([]);
    await context.close();
  });

  it('paints a sketch-map brush stroke at the view centre, erases part of it, and generates', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await openComic(page, 'sketchmap');
    const sent = bodiesOf(page, '/api/diffusion/smd');
    await page.getByTestId('negative-prompt-input').fill('lowres');
    await page.getByTestId('sketch-section').locator('summary').click();
    // Nothing selected: the frame is the chosen size (832 × 1216 by default) at the view centre.
    await expect(page.getByTestId('composite-frame').getAttribute('data-pixels')).resolves.toBe('832x1216');
    await expect(page.getByTestId('composite-frame').getAttribute('data-panel-id')).resolves.toBe('');
    await expect(page.getByTestId('sketch-generate-cost').innerText()).resolves.toBe('6 credits');

    // Nothing painted and no background prompt: both are named.
    await page.getByTestId('sketch-generate').click();
    const issues = await page.getByTestId('sketch-issues').innerText();
    expect(issues).toContain('Background prompt is empty');
    expect(issues).toContain('Paint in the frame');

    await commitText(page, 'sketch-background', 0, 'a sunny meadow under a blue sky');
    // The list follows the fixes: the background prompt drops off, the paint is still missing.
    await expect.poll(() => page.getByTestId('sketch-issues').innerText()).not.toContain('Background prompt');
    await page.getByTestId('brush-add').click();
    await expect(page.getByTestId('brush-radius').inputValue()).resolves.toBe('80');
    await commitText(page, 'brush-prompt', 0, 'a red fox');
    await dragInFrame(page, [0.2, 0.6], [0.8, 0.65]);
    let snap = await snapshot(page);
    expect(snap.sketchMap.brushes).toHaveLength(1);
    const stroke = snap.sketchMap.brushes[0]!.strokes[0]!;
    expect(stroke).toMatchObject({ radius: 80, erase: false });
    expect(stroke.points.length).toBeGreaterThanOrEqual(4);
    expect(stroke.points[0]).toBeCloseTo(0.2, 1);
    await expect.poll(() => page.getByTestId('sketch-issues').count()).toBe(0);

    // The eraser takes part of it back; undo brings it back, redo erases again.
    await page.getByTestId('sketch-eraser').click();
    await dragInFrame(page, [0.45, 0.55], [0.55, 0.7]);
    snap = await snapshot(page);
    expect(snap.sketchMap.brushes[0]!.strokes.map((s) => s.erase)).toEqual([false, true]);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await snapshot(page)).sketchMap.brushes[0]!.strokes.length).toBe(1);
    await page.keyboard.press('Control+Shift+Z');
    await expect.poll(async () => (await snapshot(page)).sketchMap.brushes[0]!.strokes.length).toBe(2);
    await page.getByTestId('sketch-paint').click();
    await screenshot(page, 'sketch-map-painted');

    await page.getByTestId('sketch-generate').click();
    await expect.poll(async () => images(await snapshot(page)).length).toBe(1);
    const image = images(await snapshot(page))[0]!;
    expect(image.clipTarget).toBeNull();
    expect(image.transform.size).toEqual({ width: 832, height: 1216 });
    await expect
      .poll(async () => images(await snapshot(page))[0]?.data.variations?.length ?? 0, { timeout: 30_000 })
      .toBe(1);
    await expect.poll(async () => creditTotal(page), { timeout: 10_000 }).toBe(94);

    // The brush went as a black-and-white PNG of the frame size, white where painted and not where erased.
    const body = sent.at(-1)!;
    expect(body).toMatchObject({
      backgroundPrompt: 'a sunny meadow under a blue sky',
      backgroundNegativePrompt: 'lowres',
      width: 832,
      height: 1216,
    });
    expect(body.brushes).toHaveLength(1);
    expect(body.brushes[0].prompt).toBe('a red fox');
    const mask = await page.evaluate(async (url: string) => {
      const bitmap = await createImageBitmap(await (await fetch(url)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const at = (x: number, y: number) => data[(Math.round(y) * bitmap.width + Math.round(x)) * 4]!;
      const values = new Set<number>();
      for (let i = 0; i < data.length; i += 4) values.add(data[i]!);
      return {
        width: bitmap.width,
        height: bitmap.height,
        values: [...values].sort((a, b) => a - b),
        painted: at(0.25 * bitmap.width, 0.605 * bitmap.height),
        erased: at(0.5 * bitmap.width, 0.625 * bitmap.height),
        outside: at(0.5 * bitmap.width, 0.2 * bitmap.height),
      };
    }, body.brushes[0].mask as string);
    expect(mask).toEqual({ width: 832, height: 1216, values: [0, 255], painted: 255, erased: 0, outside: 0 });
    await page.waitForTimeout(300);
    await screenshot(page, 'sketch-map-generated');

    expect(realErrors(problems.errors)).toEqual([]);
    expect(problems.external).toEqual([]);
    await context.close();
  });
});
