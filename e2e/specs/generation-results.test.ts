// Issue 19, items 4–7 and 9: the results tray (pick and discard, editing meanwhile) and recipes with "use these
// settings"; the queue panel (four jobs, cancel one, positions move up); failures that say why and what was
// refunded, in both languages, and moderation that names its rule and words; "No faces found"; the builtin
// engine's badge and its zero charge.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { blur, creditTotal, idle, newComic, select, toScreen } from '../support/editor-page.ts';

// The builtin engine slowed to 150 ms a step, one job at a time, so queues stay visible; FLUX Schnell goes to a
// ComfyUI server that is down (nothing listens on port 2): "ComfyUI down" as a user meets it.
const configDir = mkdtempSync(path.join(tmpdir(), 'koma-e2e-results-'));
const ENGINES = path.join(configDir, 'engines.json');
writeFileSync(
  ENGINES,
  JSON.stringify({
    default: 'builtin',
    builtin: { stepDelayMs: 150 },
    routes: [{ modelTypes: ['fluxschnell'], engine: 'comfyui' }],
    comfyui: { servers: ['http://127.0.0.1:2'] },
  }),
);
const suite = useServerAndBrowser({
  env: { STARTING_CREDITS: '100', ENGINES_CONFIG: ENGINES, JOB_CONCURRENCY_BUILTIN: '1' },
});
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

type Layers = Record<
  string,
  {
    type: string;
    data: { variations?: { id: string }[]; variationsIdx?: number; faceStore?: Record<string, unknown[]> };
  }
>;
const layers = (page: Page): Promise<Layers> =>
  page.evaluate(() => (window as unknown as { __koma: any }).__koma.editor.doc.layers as Layers);
const variationsOf = async (page: Page, id: string) => {
  const l = (await layers(page))[id]!;
  return { ids: l.data.variations!.map((v) => v.id), shown: l.data.variationsIdx! };
};
const toast = (page: Page) =>
  page
    .getByTestId('toast')
    .innerText()
    .catch(() => '');

async function settings(page: Page, values: { steps?: number; batch?: number }): Promise<void> {
  await page.getByTestId('tab-settings').click();
  if (values.steps !== undefined) await page.getByTestId('steps-input').fill(String(values.steps));
  if (values.batch !== undefined) await page.getByTestId('batch-input').fill(String(values.batch));
  await page.getByTestId('tab-prompt').click();
}

describe('results', () => {
  it('four results in a tray: pick, keep and discard by click and keyboard while editing goes on; recipes', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'tray');
    await settings(page, { steps: 3, batch: 4 });
    await page.getByTestId('prompt-input').fill('a fox in the snow');
    await blur(page);
    // The builtin engine is free by default, and the button says why.
    await expect(page.getByTestId('generate-cost').innerText()).resolves.toBe('Free (preview engine)');
    await page.getByTestId('generate-button').click();
    await idle(page);
    expect(await creditTotal(page)).toBe(100);
    const layerId = Object.entries(await layers(page)).find(([, l]) => l.type === 'IMAGE')![0];
    const all = (await variationsOf(page, layerId)).ids;
    expect(all).toHaveLength(4);

    // The tray beside the layer shows the four; the preview engine's badge is on the picture.
    const tray = page.getByTestId('results-tray');
    await expect.poll(() => page.getByTestId('tray-item').count()).toBe(4);
    await expect(page.locator(`[data-testid=builtin-badge][data-layer-id="${layerId}"]`).innerText()).resolves.toBe(
      'Preview engine — not a diffusion model',
    );
    await page.waitForTimeout(300);
    await screenshot(page, 'results-tray');

    // Editing goes on meanwhile: a pose layer is added and the prompt changed; the tray stays.
    await page.getByTestId('add-pose').click();
    await page.getByTestId('prompt-input').fill('a fox in the rain');
    await blur(page);
    expect(await tray.count()).toBe(1);

    // Click picks the third; → picks the fourth, space drops it; the first is unticked; Enter settles.
    await page.getByTestId('tray-pick-2').click();
    expect((await variationsOf(page, layerId)).shown).toBe(2);
    await tray.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await variationsOf(page, layerId)).shown).toBe(3);
    await page.keyboard.press(' ');
    await expect(page.getByTestId('tray-keep-3').isChecked()).resolves.toBe(false);
    await page.getByTestId('tray-keep-0').uncheck();
    await tray.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => tray.count()).toBe(0);
    expect(await variationsOf(page, layerId)).toEqual({ ids: [all[1], all[2]], shown: 0 });
    // One undo step brings all four back.
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await variationsOf(page, layerId)).ids).toEqual(all);

    // Every result carries its recipe in the layer tab; "use these settings" puts it back into the tabs.
    await select(page, layerId);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('recipe').locator('summary').click();
    await expect(page.getByTestId('recipe-prompt').innerText()).resolves.toBe('a fox in the snow');
    await expect(page.getByTestId('recipe-steps').innerText()).resolves.toBe('3');
    await expect(page.getByTestId('recipe-engine').innerText()).resolves.toBe('builtin');
    await expect(page.getByTestId('builtin-note').innerText()).resolves.toContain('docs/engines-config.md');
    await screenshot(page, 'results-recipe');
    await page.getByTestId('recipe-use').click();
    await page.getByTestId('tab-prompt').click();
    await expect(page.getByTestId('prompt-input').inputValue()).resolves.toBe('a fox in the snow');

    // Detection on a picture without faces (a flat sky, dropped from the desktop) says so: no face offered,
    // nothing outlined.
    const sky = await toScreen(page, 1500, 300);
    await page.evaluate(
      async ([x, y]) => {
        const c = document.createElement('canvas');
        c.width = 480;
        c.height = 320;
        const g = c.getContext('2d')!;
        g.fillStyle = '#8ec5ff';
        g.fillRect(0, 0, 480, 320);
        const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
        const transfer = new DataTransfer();
        transfer.items.add(new File([blob], 'sky.png', { type: 'image/png' }));
        const target = document.querySelector('[data-testid=canvas]')!;
        const init = { dataTransfer: transfer, clientX: x, clientY: y, bubbles: true, cancelable: true };
        target.dispatchEvent(new DragEvent('dragover', init));
        target.dispatchEvent(new DragEvent('drop', init));
      },
      [sky.x, sky.y] as const,
    );
    const skyId = async () =>
      Object.entries(await layers(page)).find(
        ([id, l]) => l.type === 'IMAGE' && id !== layerId && (l.data.variations?.length ?? 0) > 0,
      )?.[0];
    await expect.poll(skyId, { timeout: 20_000 }).toBeDefined();
    const skyLayer = (await skyId())!;
    await select(page, skyLayer);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('op-detect-faces').click();
    await expect.poll(() => toast(page), { timeout: 60_000 }).toBe('No faces found');
    const faces = async () => {
      const l = (await layers(page))[skyLayer]!;
      return l.data.faceStore?.[l.data.variations![l.data.variationsIdx!]!.id]?.length;
    };
    expect(await faces()).toBe(0);
    expect(await page.locator('[data-testid^=op-enhance-face-]').count()).toBe(0);
    expect(await page.locator('[data-testid^=face-outline-]').count()).toBe(0);
    await expect(page.getByTestId('faces-none').innerText()).resolves.toBe('No faces found');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('the queue panel', () => {
  it('lists four jobs with position, progress and cost; cancelling one moves the others up', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'queue');
    await settings(page, { steps: 30, batch: 1 });
    await page.getByTestId('prompt-input').fill('a harbour at night');
    await blur(page);
    // Four jobs at four points beside the page: one runs, three wait.
    for (let i = 0; i < 4; i++) {
      const at = await toScreen(page, -150, 300 + i * 500);
      await page.mouse.move(at.x, at.y);
      await page.keyboard.press('g');
    }
    await page.getByTestId('queue-toggle').click();
    const rows = page.getByTestId('queue-row');
    await expect.poll(() => rows.count()).toBe(4);
    const positions = async () =>
      (await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-position') ?? '')))
        .filter((p) => p !== '')
        .map(Number)
        .sort((a, b) => a - b);
    await expect.poll(positions, { timeout: 10_000 }).toEqual([0, 1, 2]);
    await expect.poll(() => page.locator('[data-testid=queue-row][data-status=IN_PROGRESS]').count()).toBe(1);
    await expect(page.getByTestId('queue-toggle').innerText()).resolves.toBe('Queue (4)');
    for (const cost of await page.getByTestId('queue-cost').allInnerTexts()) expect(cost).toBe(' · 0 cr');
    // Rows name the operation in words, not by its wire kind.
    for (const row of await rows.allInnerTexts()) expect(row).toMatch(/^Generate /);
    await page.waitForTimeout(400);
    await screenshot(page, 'queue-panel');

    // Cancel the first waiting job: the two behind it move up.
    await page.locator('[data-testid=queue-row][data-position="0"]').getByTestId('queue-cancel').click();

    await expect.poll(positions, { timeout: 10_000 }).toEqual([0, 1]);
    await expect
      .poll(() => page.locator('[data-testid=queue-row][data-status=FAILED]').getByTestId('queue-failure').innerText())
      .toBe('Cancelled.');
    await screenshot(page, 'queue-panel-cancelled');
    // The rest run to the end, one after the other.
    await expect
      .poll(() => page.locator('[data-testid=queue-row][data-status=COMPLETED]').count(), { timeout: 60_000 })
      .toBe(3);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('failures explain themselves', () => {
  it('ComfyUI down: the reason and the refund in words, in English and Japanese; moderation names rule and words', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'failure');
    await settings(page, { steps: 4, batch: 2 });
    await page.getByTestId('tab-model').click();
    await page.getByTestId('model-fluxschnell').click();
    await page.getByTestId('tab-prompt').click();
    await page.getByTestId('prompt-input').fill('a lighthouse in a storm');
    await blur(page);
    // Not the builtin engine: charged, 2 credits a picture.
    await expect(page.getByTestId('generate-cost').innerText()).resolves.toBe('4 credits');
    await page.getByTestId('generate-button').click();
    const english =
      /^Failed: the (engine could not be reached|connection to the engine broke)\. 4 credits were refunded\.$/;
    await expect.poll(() => toast(page), { timeout: 60_000 }).toMatch(english);
    await expect.poll(() => creditTotal(page)).toBe(100);
    await page.getByTestId('queue-toggle').click();
    await expect(page.getByTestId('queue-failure').innerText()).resolves.toMatch(english);
    await screenshot(page, 'failure-explained');
    // The server logged the failed job with its reason.
    const logged = suite.server
      .output()
      .split('\n')
      .filter((l) => l.includes('failed:'));
    expect(logged.join('\n')).toMatch(
      /failed: (engine_unreachable|connection_lost): .*ComfyUI at http:\/\/127\.0\.0\.1:2/,
    );

    // In Japanese, retried from the queue: the same reason in Japanese.
    await page.getByLabel('Language').selectOption('ja');
    await page.getByTestId('prompt-input').fill('嵐の中の灯台');
    await blur(page);
    await page.getByTestId('generate-button').click();
    const japanese =
      /^失敗しました：(エンジンに接続できませんでした|エンジンとの接続が切れました)。4 クレジットを返金しました。$/;
    await expect.poll(() => toast(page), { timeout: 60_000 }).toMatch(japanese);
    await page.getByTestId('queue-retry').first().click();
    await expect
      .poll(async () => (await page.getByTestId('queue-failure').allInnerTexts()).length, { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2);
    for (const text of await page.getByTestId('queue-failure').allInnerTexts()) expect(text).toMatch(japanese);
    for (const row of await page.getByTestId('queue-row').allInnerTexts()) expect(row).toMatch(/^画像生成/);
    await screenshot(page, 'failure-explained-ja');

    // A refusal names its rule and the words, in the user's language; stripped words are shown.
    await page.getByTestId('tab-model').click();
    await page.getByTestId('model-animaginexl4.0').click();
    await page.getByTestId('tab-prompt').click();
    await page.getByTestId('prompt-input').fill('Taylor Swift on a stage');
    await blur(page);
    await page.getByTestId('generate-button').click();
    await expect.poll(() => toast(page)).toBe('プロンプトが拒否されました：実在の著名人は描けません（Taylor Swift）');
    await page.getByLabel('言語').selectOption('en');
    await page.getByTestId('prompt-input').fill('a nude marble statue in a garden');
    await blur(page);
    await page.getByTestId('generate-button').click();
    await expect.poll(() => toast(page)).toBe('Removed from the prompt: nude');
    await idle(page);

    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 150_000);
});
