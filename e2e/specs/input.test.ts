// Bringing images in and knowing what happened (issue 16): Upload (several files), paste and drop through one
// import path with progress and clear refusals; shortcuts after a slider; a toast for every command that cannot run;
// pages fitted in view; the workspace name in the top bar; the shortcut sheet.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { fitRect } from '@koma/editor';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { blur, newComic, select } from '../support/editor-page.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

type Layer = { type: string; name: string; data: { filterParams?: { exposure: number } } };
const imageLayers = (page: Page) =>
  page.evaluate(() => {
    const s = (window as unknown as { __koma: any }).__koma;
    const doc = s.editor.doc;
    return (doc.layers[s.activeRoot()].children as string[])
      .map((id) => ({ id, ...(doc.layers[id] as Layer) }))
      .filter((l) => l.type === 'IMAGE');
  });
const view = (page: Page) =>
  page.evaluate(() => (window as unknown as { __koma: any }).__koma.view() as { x: number; y: number; zoom: number });

async function png(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
}

/** Incompressible pixels, so the PNG is as large as its pixel count says. */
async function noisePng(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

async function upload(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('upload-images').click()]);
  expect(chooser.isMultiple()).toBe(true);
  await chooser.setFiles(files);
}

const toasts = (page: Page) => page.getByTestId('toast').allInnerTexts();

describe('bringing images in', () => {
  it('uploads several files, pastes an image, drops, shows progress, and refuses what is not an image', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await newComic(page, 'import');

    // Upload: a picker that takes several files at once; each becomes an image layer.
    await upload(page, [
      { name: 'red.png', mimeType: 'image/png', buffer: await png(300, 200, [255, 0, 0]) },
      { name: 'green.png', mimeType: 'image/png', buffer: await png(200, 300, [0, 160, 0]) },
    ]);
    await expect.poll(async () => (await imageLayers(page)).map((l) => l.name)).toEqual(['red.png', 'green.png']);

    // Paste: image data on the system clipboard (as "Copy image" on another site leaves it), then Ctrl+V.
    await page.getByTestId('canvas').click({ position: { x: 20, y: 20 } });
    await page.evaluate(async () => {
      const c = document.createElement('canvas');
      c.width = 120;
      c.height = 80;
      const g = c.getContext('2d')!;
      g.fillStyle = '#0000ff';
      g.fillRect(0, 0, 120, 80);
      const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
    });
    await page.keyboard.press('Control+v');
    await expect.poll(async () => (await imageLayers(page)).length).toBe(3);

    // Not an image: a text file picked or dropped is refused in words, and nothing is added.
    await upload(page, [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }]);
    await expect.poll(() => toasts(page)).toContain('notes.txt is not an image');
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['%PDF-1.4'], 'book.pdf', { type: 'application/pdf' }));
      const target = document.querySelector('[data-testid=canvas]')!;
      const r = target.getBoundingClientRect();
      const init = {
        dataTransfer: transfer,
        clientX: r.left + 200,
        clientY: r.top + 200,
        bubbles: true,
        cancelable: true,
      };
      target.dispatchEvent(new DragEvent('dragover', init));
      target.dispatchEvent(new DragEvent('drop', init));
    });
    await expect.poll(() => toasts(page)).toContain('book.pdf is not an image');
    // Claims to be a PNG but is not one.
    await upload(page, [{ name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('not really a png') }]);
    await expect.poll(() => toasts(page)).toContain('broken.png could not be read as an image');
    expect((await imageLayers(page)).length).toBe(3);
    await screenshot(page, 'import-refused');

    // A large file shows its upload progress (the upload is slowed to 4 MB/s so there is time to see it).
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 4 * 1024 * 1024,
    });
    const big = await noisePng(1400, 1000);
    expect(big.length).toBeGreaterThan(4_000_000);
    await upload(page, [{ name: 'big.png', mimeType: 'image/png', buffer: big }]);
    const progress = page.getByTestId('import-progress');
    await expect.poll(() => progress.isVisible(), { timeout: 5000 }).toBe(true);
    await expect.poll(() => progress.innerText(), { timeout: 5000 }).toMatch(/big\.png.*\d+ ?%/s);
    await screenshot(page, 'import-progress');
    await expect.poll(async () => (await imageLayers(page)).length, { timeout: 20_000 }).toBe(4);
    await expect.poll(() => progress.count()).toBe(0);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    expect(realErrors(problems.errors)).toEqual([]);
    expect(problems.external).toEqual([]);
    await context.close();
  });
});

describe('keys and feedback', () => {
  it('keeps shortcuts after a slider: Ctrl+Z undoes the slider move', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'slider');
    await page.evaluate(async () => {
      const c = document.createElement('canvas');
      c.width = 300;
      c.height = 200;
      const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), 'image/png'));
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], 'clear.png', { type: 'image/png' }));
      const target = document.querySelector('[data-testid=canvas]')!;
      const r = target.getBoundingClientRect();
      const init = {
        dataTransfer: transfer,
        clientX: r.left + 300,
        clientY: r.top + 300,
        bubbles: true,
        cancelable: true,
      };
      target.dispatchEvent(new DragEvent('dragover', init));
      target.dispatchEvent(new DragEvent('drop', init));
    });
    await expect.poll(async () => (await imageLayers(page)).length).toBe(1);
    const [image] = await imageLayers(page);
    await select(page, image!.id);
    await page.getByTestId('tab-layer').click();
    const slider = page.getByTestId('filter-exposure');
    const box = (await slider.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
    await expect.poll(async () => (await imageLayers(page))[0]!.data.filterParams!.exposure).toBeGreaterThan(0.5);
    // The slider keeps the focus, as a browser leaves it; the shortcut must still reach the editor.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe('range');
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await imageLayers(page))[0]!.data.filterParams!.exposure).toBe(0);
    // Tool keys too; while a text field has focus they type instead.
    await page.keyboard.press('3');
    await expect.poll(() => page.getByTestId('tool-BRUSH').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('tab-prompt').click();
    await page.getByTestId('prompt-input').click();
    await page.keyboard.press('1');
    expect(await page.getByTestId('tool-BRUSH').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('prompt-input').inputValue()).toBe('1');
    await context.close();
  });

  it('says why a command cannot run, in English and in Japanese', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'toasts');
    await blur(page);
    const says = async (key: string, text: string) => {
      await page.keyboard.press(key);
      await expect.poll(() => toasts(page), { message: key }).toContain(text);
    };
    await says('g', 'Enter a prompt first');
    await says('v', 'Select a pose or sketch layer');
    await says('e', 'Select an image to estimate a pose from');
    await says('f', 'Select a layer first');
    await says('Delete', 'Select a layer first');
    await says('m', 'Select a panel first');
    await screenshot(page, 'toast-en');

    await page.getByLabel('Language').selectOption('ja');
    await blur(page);
    await says('g', '先にプロンプトを入力してください');
    await says('v', 'ポーズかスケッチのレイヤーを選択してください');
    await says('e', 'ポーズを推定する画像を選択してください');
    await screenshot(page, 'toast-ja');
    await page.getByLabel('言語').selectOption('en');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('fits a new page in view, and each page switched to', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'fit');
    const fitted = async () => {
      const viewport = await page.evaluate(() => (window as unknown as { __koma: any }).__koma.viewport);
      return fitRect({ x: 0, y: 0, width: 1700, height: 2400 }, viewport);
    };
    await page.getByTestId('add-page').click();
    await expect.poll(async () => (await view(page)).zoom).toBeCloseTo((await fitted()).zoom, 4);
    expect((await view(page)).x).toBeCloseTo((await fitted()).x, 1);
    // Zoomed in on page 2, going to page 1 and back fits each.
    await blur(page);
    await page.keyboard.press('=');
    await page.keyboard.press('=');
    await page.waitForTimeout(700);
    expect((await view(page)).zoom).toBeGreaterThan((await fitted()).zoom);
    await page.getByTestId('page-thumb').first().click();
    await expect.poll(async () => (await view(page)).zoom).toBeCloseTo((await fitted()).zoom, 4);
    await page.getByTestId('page-thumb').nth(1).click();
    await expect.poll(async () => (await view(page)).zoom).toBeCloseTo((await fitted()).zoom, 4);
    await screenshot(page, 'page-fitted');
    await context.close();
  });

  it('shows the workspace name in the top bar, renames it in place, and the dashboard title opens it', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'name');
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const name = page.getByTestId('workspace-name');
    await expect.poll(() => name.innerText()).toBe('Untitled comic');
    await name.click();
    const field = page.getByTestId('workspace-name-input');
    await field.fill('   ');
    await field.press('Enter');
    await expect.poll(() => page.getByText('Enter a name.').isVisible()).toBe(true);
    await field.fill('Chapter 2');
    // While the name is typed, letters are not shortcuts.
    expect(await page.getByTestId('tool-MOVE').getAttribute('aria-pressed')).toBe('true');
    await field.press('Enter');
    await expect.poll(() => name.innerText()).toBe('Chapter 2');
    await expect
      .poll(async () => ((await (await page.request.get(`/api/workspace/${id}`)).json()) as { name: string }).name)
      .toBe('Chapter 2');
    // Escape leaves the name as it was.
    await name.click();
    await page.getByTestId('workspace-name-input').fill('Nope');
    await page.getByTestId('workspace-name-input').press('Escape');
    await expect.poll(() => name.innerText()).toBe('Chapter 2');
    await screenshot(page, 'workspace-name');

    await page.goto('/dashboard');
    await page.locator(`[data-workspace-id="${id}"]`).getByRole('link', { name: 'Chapter 2', exact: true }).click();
    await page.waitForURL(new RegExp(`/editor/${id}$`));
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('lists every shortcut in a sheet opened with ? or from the menu, translated; tool tooltips show keys', async () => {
    const { context, page } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'sheet');
    expect(await page.getByTestId('tool-MOVE').getAttribute('title')).toContain('1');
    expect(await page.getByTestId('tool-TEXT').getAttribute('title')).toContain('6');
    await blur(page);
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect.poll(() => sheet.isVisible()).toBe(true);
    // The title and the Close button both stay in view at 900 px high: the list scrolls between them.
    const shown = async (name: string | RegExp, role: 'heading' | 'button') => {
      const box = (await sheet.getByRole(role, { name }).boundingBox())!;
      const frame = (await sheet.boundingBox())!;
      return box.y >= frame.y && box.y + box.height <= frame.y + frame.height;
    };
    expect(await shown('Keyboard shortcuts', 'heading')).toBe(true);
    expect(await shown('Close', 'button')).toBe(true);
    expect(await sheet.evaluate((el) => el.scrollTop)).toBe(0);
    // Every row of editor.md §2's table.
    const effects = [
      'Pick a tool: Move, Select, Brush, Pose, Panel, Text',
      'Shrink or grow the brush by 5 (1 to 100)',
      'Previous or next variation',
      'Bring layer to front',
      'Send layer to back',
      'Delete the selected layers',
      'Hold to pan',
      'Undo',
      'Redo',
      'Clear the selection',
      'Generate from a pose or sketch layer',
      'Add a 512×512 panel',
      'Toggle the panel border',
      'Recentre the view',
      'Estimate a pose from an image',
      'Zoom out or in',
      'Shrink or enlarge the layer by 10 %',
      'Generate a layer at the mouse position',
    ];
    for (const effect of effects) expect(await sheet.getByText(effect, { exact: true }).count(), effect).toBe(1);
    expect(await sheet.getByTestId('shortcut-row').count()).toBeGreaterThanOrEqual(effects.length);
    await screenshot(page, 'shortcut-sheet');
    await page.keyboard.press('Escape');
    await expect.poll(() => sheet.count()).toBe(0);

    await page.getByLabel('Language').selectOption('ja');
    await page.getByTestId('shortcuts-button').click();
    const ja = page.getByRole('dialog', { name: 'キーボードショートカット' });
    await expect.poll(() => ja.isVisible()).toBe(true);
    expect(await ja.getByText('元に戻す', { exact: true }).count()).toBe(1);
    await screenshot(page, 'shortcut-sheet-ja');
    await page.keyboard.press('Escape');
    await page.getByLabel('言語').selectOption('en');
    await context.close();
  });
});
