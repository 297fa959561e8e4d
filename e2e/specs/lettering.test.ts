// Comic authoring in the browser: presets in both reading orders, a speech bubble typed in Japanese vertically,
// its tail dragged and the drag undone, pose joints moved, and a split whose gutter is 15 px on the drawn page.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LAYOUT_PRESETS } from '@koma/domain';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors, signUp, uniqueEmail } from '../support/flows.ts';
import { pageLayers as layers } from '../support/editor-page.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { toScreen } from '../support/editor-page.ts';

const suite = useServerAndBrowser();

async function newComic(page: Page) {
  await signUp(page, uniqueEmail('lettering'));
  await page.getByRole('button', { name: /New comic/ }).click();
  await page.waitForURL(/\/editor\/[^/]+$/);
  await page.waitForSelector('[data-testid=canvas] canvas');
}

describe('comic authoring', () => {
  it('numbers every preset in reading order, mirrored for right-to-left', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await newComic(page);
    for (const order of ['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT'] as const) {
      await page.getByTestId('tab-page').click();
      await page.getByTestId(`reading-order-${order}`).check();
      await page.getByTestId('tab-panel_presets').click();
      for (const preset of LAYOUT_PRESETS) {
        await page.getByTestId(`preset-${preset.id}`).click();
        const panels = (await layers(page)).filter((l) => l.type === 'PANEL');
        const numbers = panels.map((p) => p.data.position as number).sort((a, b) => a - b);
        expect(numbers, preset.id).toEqual(panels.map((_, i) => i + 1));
        // Panel 1 starts the reading: top left for left-to-right, top right for right-to-left.
        const first = panels.find((p) => p.data.position === 1)!.transform;
        const top = Math.min(...panels.map((p) => p.transform.y));
        expect(first.y, preset.id).toBe(top);
        const sameTier = panels.filter((p) => Math.abs(p.transform.y - top) < 1);
        if (order === 'LEFT_TO_RIGHT') expect(first.x).toBe(Math.min(...sameTier.map((p) => p.transform.x)));
        else
          expect(first.x + first.size.width).toBeCloseTo(
            Math.max(...sameTier.map((p) => p.transform.x + p.transform.size.width)),
            6,
          );
      }
      await page.getByTestId('tab-page').click();
      await page.getByTestId('show-reading-order').check();
      await screenshot(page, `lettering-preset-${order}`);
      await page.getByTestId('show-reading-order').uncheck();
    }
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('types Japanese vertically in a bubble, drags its tail, and undoes the drag', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await newComic(page);
    await page.keyboard.press('6'); // TEXT tool
    const at = await toScreen(page, 850, 900);
    await page.mouse.click(at.x, at.y);
    const editor = page.getByTestId('text-editor');
    await expect.poll(() => editor.isVisible()).toBe(true);
    await editor.fill('「こんにちは、世界！」ちょっと待って。');
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('text-vertical').check();
    let bubble = (await layers(page)).find((l) => l.type === 'TEXT')!;
    expect(bubble.data).toMatchObject({
      text: '「こんにちは、世界！」ちょっと待って。',
      vertical: true,
      backgroundType: 'SPEECH_BUBBLE',
    });
    // The bubble grew to fit the vertical text.
    expect(bubble.transform.size.height).toBeGreaterThan(240);
    // The rest of the TEXT fields sit behind "More text settings".
    await page.getByTestId('text-more').locator('summary').click();
    await page.getByTestId('text-backgroundBorderSize').fill('12');
    await page.getByTestId('text-characterSpacing').fill('1.5');
    await expect
      .poll(async () => (await layers(page)).find((l) => l.type === 'TEXT')!.data.backgroundBorderSize)
      .toBe(12);
    expect((await layers(page)).find((l) => l.type === 'TEXT')!.data.characterSpacing).toBe(1.5);

    await page.getByTestId('tool-MOVE').click(); // the bubble stays selected
    const tip = await page.evaluate((id) => {
      const s = (window as any).__koma;
      const node = s.editor.doc.layers[id];
      return (window as any).__komaTailTip?.(node) ?? null;
    }, bubble.id);
    expect(tip).not.toBeNull();
    const from = await toScreen(page, tip.x, tip.y);
    const to = await toScreen(page, tip.x + 300, tip.y - 100);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await page.mouse.up();
    bubble = (await layers(page)).find((l) => l.type === 'TEXT')!;
    expect(bubble.data.tailAngle).not.toBe(90);
    await screenshot(page, 'lettering-bubble-vertical');
    await page.keyboard.press('Control+z');
    bubble = (await layers(page)).find((l) => l.type === 'TEXT')!;
    expect(bubble.data.tailAngle).toBe(90);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('moves pose joints, one undo step each', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await newComic(page);
    await page.getByTestId('add-pose').click();
    const pose = (await layers(page)).find((l) => l.type === 'POSE')!;
    await page.keyboard.press('4'); // POSE tool
    const t = pose.transform;
    // Joint 4 (right wrist) starts at (0.3, 0.48) of the layer.
    const wrist = await toScreen(page, t.x + 0.3 * t.size.width, t.y + 0.48 * t.size.height);
    const target = await toScreen(page, t.x + 0.1 * t.size.width, t.y + 0.2 * t.size.height);
    await page.mouse.move(wrist.x, wrist.y);
    await page.mouse.down();
    await page.mouse.move(target.x, target.y, { steps: 5 });
    await page.mouse.up();
    const moved = (await layers(page)).find((l) => l.type === 'POSE')!.data.body.candidate[4];
    expect(moved[0]).toBeCloseTo(0.1, 1);
    expect(moved[1]).toBeCloseTo(0.2, 1);
    await screenshot(page, 'lettering-pose');
    await page.keyboard.press('Control+z');
    const back = (await layers(page)).find((l) => l.type === 'POSE')!.data.body.candidate[4];
    expect(back.slice(0, 2)).toEqual([0.3, 0.48]);
    await context.close();
  });

  it('leaves a 15 px white gutter on the drawn page when a panel is split', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await newComic(page);
    await page.evaluate(() => (window as any).__koma.setView({ x: 0, y: -600, zoom: 1 }));
    await page.getByTestId('tab-layer').click();
    await page.keyboard.press('5');
    const at = await toScreen(page, 400, 1200);
    await page.mouse.click(at.x, at.y);
    const panels = (await layers(page)).filter((l) => l.type === 'PANEL');
    expect(panels).toHaveLength(2);
    // Read a column of pixels across the gutter at zoom 1: the two 5 px borders and 15 px of white between them.
    const column = await page.evaluate(
      ([x, y0, y1]) => {
        const canvas = document.querySelector('[data-testid=canvas] canvas') as HTMLCanvasElement;
        const ratio = canvas.width / canvas.clientWidth;
        const data = canvas
          .getContext('2d')!
          .getImageData(Math.round(x! * ratio), Math.round(y0! * ratio), 1, Math.round((y1! - y0!) * ratio)).data;
        const dark: boolean[] = [];
        for (let i = 0; i < data.length; i += 4) dark.push(data[i]! < 128);
        return { dark, ratio };
      },
      [at.x - (await page.getByTestId('canvas').boundingBox())!.x, 1160 - 600, 1240 - 600],
    );
    const runs: { dark: boolean; length: number }[] = [];
    for (const d of column.dark) {
      const last = runs.at(-1);
      if (last && last.dark === d) last.length++;
      else runs.push({ dark: d, length: 1 });
    }
    const white = runs.filter(
      (r, i) => !r.dark && i > 0 && i < runs.length - 1 && runs[i - 1]!.dark && runs[i + 1]!.dark,
    );
    expect(white).toHaveLength(1);
    // 15 px gap minus half of each 5 px border drawn on the panel edges, at the canvas's pixel ratio.
    expect(white[0]!.length / column.ratio).toBeGreaterThanOrEqual(9);
    expect(white[0]!.length / column.ratio).toBeLessThanOrEqual(11);
    await screenshot(page, 'lettering-split');
    await context.close();
  });
});
