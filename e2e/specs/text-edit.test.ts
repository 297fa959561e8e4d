// Editing text where it stands (issue 18 item 1): the Text tool's click and the Move tool's double click open an
// editor over the bubble in the layer's own font, size and writing mode; the placeholder starts selected so typing
// replaces it; Escape cancels; a click away commits as one undo step; vertical text takes IME composition.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { newComic, toScreen } from '../support/editor-page.ts';
import { realErrors } from '../support/flows.ts';
import { textLayers as texts, type PageLayer } from '../support/editor-page.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

const undo = (page: Page) => page.evaluate(() => (window as any).__koma.editor.undo());

/** The editor's selection, focus and look. */
async function editorState(page: Page) {
  return page.getByTestId('text-editor').evaluate((el: HTMLTextAreaElement) => {
    const css = getComputedStyle(el);
    return {
      value: el.value,
      focused: document.activeElement === el,
      selectionStart: el.selectionStart,
      selectionEnd: el.selectionEnd,
      fontSize: parseFloat(css.fontSize),
      fontFamily: css.fontFamily,
      writingMode: css.writingMode,
    };
  });
}

async function centreOf(page: Page, layer: PageLayer) {
  const t = layer.transform;
  return toScreen(page, t.x + t.size.width / 2, t.y + t.size.height / 2);
}

describe('text edited in place', () => {
  it('the Text tool opens the placeholder selected, typing replaces it, a click away commits one undo step; a double click with Move edits, Escape cancels', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'text-edit');
    await page.keyboard.press('6'); // TEXT tool
    const at = await toScreen(page, 700, 700);
    await page.mouse.click(at.x, at.y);
    await expect.poll(() => page.getByTestId('text-editor').isVisible()).toBe(true);
    const [created] = await texts(page);
    const placeholder = created!.data.text as string;
    expect(placeholder.length).toBeGreaterThan(0);
    await expect.poll(async () => (await editorState(page)).focused).toBe(true);
    const opened = await editorState(page);
    expect(opened).toMatchObject({ value: placeholder, selectionStart: 0, selectionEnd: placeholder.length });
    // The editor shows the layer's own font at its size on screen.
    const zoom = await page.evaluate(() => (window as any).__koma.view().zoom);
    expect(opened.fontSize).toBeCloseTo(created!.data.fontSize * zoom, 0);
    expect(opened.writingMode).toBe('horizontal-tb');
    await page.keyboard.type('Hey!');
    expect((await editorState(page)).value).toBe('Hey!');
    await screenshot(page, 'text-edit-in-place');
    // A click away commits.
    await page.getByTestId('tab-layer').click();
    await expect.poll(() => page.getByTestId('text-editor').count()).toBe(0);
    let [bubble] = await texts(page);
    expect(bubble!.data.text).toBe('Hey!');
    // The edit is one undo step: one undo brings the placeholder back, the bubble stays.
    await undo(page);
    [bubble] = await texts(page);
    expect(bubble!.data.text).toBe(placeholder);
    await page.evaluate(() => (window as any).__koma.editor.redo());

    // Move tool: a double click on the bubble edits it in place; Escape leaves it as it was.
    await page.getByTestId('tool-MOVE').click();
    const centre = await centreOf(page, bubble!);
    await page.mouse.dblclick(centre.x, centre.y);
    await expect.poll(() => page.getByTestId('text-editor').isVisible()).toBe(true);
    await expect.poll(async () => (await editorState(page)).focused).toBe(true);
    expect(await editorState(page)).toMatchObject({ value: 'Hey!', selectionStart: 0, selectionEnd: 4 });
    await page.keyboard.type('Bye');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('text-editor').count()).toBe(0);
    expect((await texts(page))[0]!.data.text).toBe('Hey!');
    // Two more bubbles for a lettered page to look at (e2e/artifacts/lettered-page-en.png).
    for (const [k, line] of ['Wait... you saw it TOO?!', 'Run!'].entries()) {
      await page.keyboard.press('6');
      const spot = await toScreen(page, 350 + k * 400, 350 + k * 750);
      await page.mouse.click(spot.x, spot.y);
      await expect.poll(async () => (await editorState(page)).focused).toBe(true);
      await page.keyboard.type(line);
      await page.keyboard.press('Control+Enter');
      await expect.poll(() => page.getByTestId('text-editor').count()).toBe(0);
    }
    await page.getByTestId('tool-MOVE').click();
    await page.evaluate(() => (window as any).__koma.ui.update({ selection: [] }));
    await screenshot(page, 'lettered-page-en');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('edits a turned bubble turned, about its centre as the canvas turns it', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'text-edit-turned');
    await page.keyboard.press('6'); // TEXT tool
    const at = await toScreen(page, 850, 1200);
    await page.mouse.click(at.x, at.y);
    await expect.poll(async () => (await editorState(page)).focused).toBe(true);
    await page.keyboard.type('Turned');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('text-editor').count()).toBe(0);
    const [bubble] = await texts(page);
    await page.getByTestId('tool-MOVE').click();
    await page.evaluate((id) => (window as any).__koma.ui.update({ selection: [id] }), bubble!.id);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('rotate-right').click();
    await expect.poll(async () => (await texts(page))[0]!.rotation).toBe(90);
    const centre = await centreOf(page, bubble!);
    await page.mouse.dblclick(centre.x, centre.y);
    await expect.poll(() => page.getByTestId('text-editor').isVisible()).toBe(true);
    const editor = page.getByTestId('text-editor');
    // Upright the editor is wider than tall; turned a quarter, its box on screen is taller than wide, centred on the
    // bubble's centre.
    const [width, height] = await editor.evaluate((el: HTMLTextAreaElement) => [el.offsetWidth, el.offsetHeight]);
    expect(width).toBeGreaterThan(height);
    const box = (await editor.boundingBox())!;
    expect(box.height).toBeCloseTo(width, 0);
    expect(box.width).toBeCloseTo(height, 0);
    expect(Math.abs(box.x + box.width / 2 - centre.x)).toBeLessThan(3);
    expect(Math.abs(box.y + box.height / 2 - centre.y)).toBeLessThan(3);
    expect(await editor.evaluate((el: HTMLTextAreaElement) => el.value)).toBe('Turned');
    await screenshot(page, 'text-edit-turned');
    await page.keyboard.press('Escape');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('edits vertical text in a vertical editor, with IME composition', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'text-edit-ime');
    await page.keyboard.press('6');
    const at = await toScreen(page, 700, 700);
    await page.mouse.click(at.x, at.y);
    await expect.poll(() => page.getByTestId('text-editor').isVisible()).toBe(true);
    await page.getByTestId('tab-layer').click(); // commits the placeholder unchanged
    await page.getByTestId('text-vertical').check();
    await page.getByTestId('tool-MOVE').click();
    const [bubble] = await texts(page);
    expect(bubble!.data.vertical).toBe(true);
    const centre = await centreOf(page, bubble!);
    await page.mouse.dblclick(centre.x, centre.y);
    await expect.poll(() => page.getByTestId('text-editor').isVisible()).toBe(true);
    await expect.poll(async () => (await editorState(page)).focused).toBe(true);
    expect((await editorState(page)).writingMode).toBe('vertical-rl');

    // Composition through the browser's IME path: composition events, then the committed text.
    await page.getByTestId('text-editor').evaluate((el) => {
      (window as any).__composition = [];
      for (const type of ['compositionstart', 'compositionupdate', 'compositionend'])
        el.addEventListener(type, () => (window as any).__composition.push(type));
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Input.imeSetComposition', { text: 'かんじ', selectionStart: 3, selectionEnd: 3 });
    // Escape pressed while composing belongs to the IME, not to the editor.
    expect((await editorState(page)).value).toBe('かんじ');
    await cdp.send('Input.insertText', { text: '漢字' });
    expect((await editorState(page)).value).toBe('漢字');
    const events = await page.evaluate(() => (window as any).__composition as string[]);
    expect(events[0]).toBe('compositionstart');
    expect(events).toContain('compositionend');
    await screenshot(page, 'text-edit-vertical-ime');
    await page.getByTestId('tab-page').click();
    await expect.poll(() => page.getByTestId('text-editor').count()).toBe(0);
    expect((await texts(page))[0]!.data.text).toBe('漢字');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
  it('in the Japanese interface a new bubble is vertical, in the Japanese font, with Japanese sample text', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'text-edit-ja');
    await page.locator('.language-switch__select').first().selectOption('ja');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ja');
    const lines = ['今日は2024年!?', 'ちょっと｜漢字《かんじ》を読む', 'え、本当に？'];
    const spots = [
      { x: 1050, y: 450 },
      { x: 500, y: 700 },
      { x: 1000, y: 1300 },
    ];
    for (const [k, line] of lines.entries()) {
      await page.keyboard.press('6'); // TEXT tool
      const at = await toScreen(page, spots[k]!.x, spots[k]!.y);
      await page.mouse.click(at.x, at.y);
      await expect.poll(() => page.getByTestId('text-editor').isVisible()).toBe(true);
      await expect.poll(async () => (await editorState(page)).focused).toBe(true);
      const opened = await editorState(page);
      expect(opened.writingMode).toBe('vertical-rl');
      expect(opened).toMatchObject({ value: 'セリフを入力', selectionStart: 0, selectionEnd: 'セリフを入力'.length });
      const bubble = (await texts(page)).at(-1)!;
      expect(bubble.data).toMatchObject({ vertical: true, fontName: 'Noto Sans JP', text: 'セリフを入力' });
      expect(bubble.transform.size.height).toBeGreaterThan(bubble.transform.size.width);
      await page.keyboard.insertText(line);
      await page.keyboard.press('Control+Enter');
      await expect.poll(() => page.getByTestId('text-editor').count()).toBe(0);
    }
    expect((await texts(page)).map((l) => l.data.text)).toEqual(lines);
    // Nested ruby brackets are refused with a message; the text stays as it was and the editor stays open.
    await page.getByTestId('tool-MOVE').click();
    const second = (await texts(page))[1]!;
    const centre = await centreOf(page, second);
    await page.mouse.dblclick(centre.x, centre.y);
    await expect.poll(async () => (await editorState(page)).focused).toBe(true);
    await page.keyboard.insertText('｜漢字《かん《じ》》');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByText(/ruby brackets cannot be nested/).count()).toBeGreaterThan(0);
    expect((await texts(page))[1]!.data.text).toBe(lines[1]);
    expect(await page.getByTestId('text-editor').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('text-editor').count()).toBe(0);
    await page.evaluate(() => (window as any).__koma.ui.update({ selection: [] }));
    await screenshot(page, 'lettered-page-ja');
    // Close up on the bubble with a reading: right of its column, then (horizontal) above its line.
    const closeUp = async (name: string) => {
      const b = (await texts(page))[1]!;
      await page.evaluate((t) => {
        const s = (window as any).__koma;
        const host = document.querySelector('[data-testid=canvas]')!.getBoundingClientRect();
        const zoom = 1.5;
        const cx = t.x + t.size.width / 2;
        const cy = t.y + t.size.height / 2;
        s.setView({ x: host.width / 2 - cx * zoom, y: host.height / 2 - cy * zoom, zoom });
      }, b.transform);
      await screenshot(page, name);
    };
    await closeUp('lettered-ruby-vertical');
    const setting = (id: string) =>
      page.evaluate((layer) => {
        const node = (window as any).__koma.editor.doc.layers[layer];
        const layout = (window as any).__komaLayoutText(node.data);
        const glyphs = layout.kind === 'vertical' ? layout.columns.flatMap((c: any) => c.glyphs) : [];
        return { ruby: layout.ruby.map((m: any) => m.text).join(''), glyphs, kind: layout.kind };
      }, id);
    // "!?" stands upright in one em of the column (tate-chū-yoko) until the layer's switch turns it off.
    const first = (await texts(page))[0]!;
    expect((await setting(first.id)).glyphs.find((g: any) => g.text === '!?')).toMatchObject({
      kind: 'tate-chu-yoko',
      rotation: 0,
    });
    await page.evaluate((id) => (window as any).__koma.ui.update({ selection: [id] }), first.id);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('text-more').locator('summary').click();
    await page.getByTestId('text-tateChuYoko').uncheck();
    expect((await setting(first.id)).glyphs.find((g: any) => g.text === '!?')).toMatchObject({ kind: 'rotated' });
    await page.getByTestId('text-tateChuYoko').check();
    // The reading of ｜漢字《かんじ》 is set in the vertical bubble...
    expect(await setting(second.id)).toMatchObject({ kind: 'vertical', ruby: 'かんじ' });
    await page.evaluate((id) => (window as any).__koma.ui.update({ selection: [id] }), second.id);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('text-vertical').uncheck();
    await page.evaluate(() => (window as any).__koma.ui.update({ selection: [] }));
    await closeUp('lettered-ruby-horizontal');
    // ...and in the same bubble set horizontally.
    expect(await setting(second.id)).toMatchObject({ kind: 'horizontal', ruby: 'かんじ' });
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });

  it('offers 8+ English and 8+ Japanese fonts, each previewed in its own face and loaded only when needed', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'text-fonts');
    await page.getByTestId('add-text').click();
    const loaded = (family: string) =>
      page.evaluate(async (f) => {
        await document.fonts.ready;
        return [...document.fonts].some((face) => face.family.replace(/['"]/g, '') === f && face.status === 'loaded');
      }, family);
    expect(await loaded('Yusei Magic')).toBe(false);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('text-more').locator('summary').click();
    const picker = page.getByTestId('font-picker');
    const groups = picker.getByRole('radiogroup');
    await expect.poll(() => groups.nth(0).getByRole('radio').count()).toBeGreaterThanOrEqual(8);
    await expect.poll(() => groups.nth(1).getByRole('radio').count()).toBeGreaterThanOrEqual(8);
    // The previews are drawn in their fonts, which load now that the picker is open.
    await expect.poll(() => loaded('Yusei Magic'), { timeout: 10_000 }).toBe(true);
    expect(
      await picker.getByTestId('font-Yusei Magic').evaluate((el) => getComputedStyle(el.parentElement!).fontFamily),
    ).toMatch(/^"?Yusei Magic/);
    await page.getByTestId('font-Patrick Hand').check();
    await expect.poll(async () => (await texts(page))[0]!.data.fontName).toBe('Patrick Hand');
    await screenshot(page, 'text-font-picker');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
});
