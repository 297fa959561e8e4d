// Issue 14 item 3: every open editor of a workspace learns of a save made elsewhere within 2 s. Two browser
// contexts (two devices: no BroadcastChannel between them, only the server's event stream) on one workspace.
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { newComic } from '../support/editor-page.ts';
import { useServerAndBrowser } from '../support/suite.ts';

const suite = useServerAndBrowser();

type Koma = { __koma: any };

const status = (page: Page) => page.getByTestId('save-status').getAttribute('data-status');

async function saveNow(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as Koma).__koma.autosave.saveNow());
  await expect.poll(() => status(page), { timeout: 10_000 }).toBe('saved');
}

/** Ids of the layers on the open page, in order. */
function layers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const s = (window as unknown as Koma).__koma;
    return [...s.editor.doc.layers[s.activeRoot()].children];
  });
}

function layer(page: Page, id: string): Promise<{ visible: boolean; locked: boolean } | null> {
  return page.evaluate((l) => (window as unknown as Koma).__koma.editor.doc.layers[l] ?? null, id);
}

/** The document the server holds, its page-1 layers by id. */
async function serverLayers(page: Page): Promise<Record<string, { visible: boolean; locked: boolean }>> {
  return page.evaluate(async () => {
    const id = location.pathname.split('/').pop()!;
    const record = await (await fetch(`/api/workspace/${id}`)).json();
    const out: Record<string, unknown> = {};
    const walk = (node: any) => {
      out[node.id] = { visible: node.visible, locked: node.locked };
      for (const child of node.children ?? []) walk(child);
    };
    for (const p of record.data.pages) walk(p.rootLayer);
    return out;
  }) as Promise<Record<string, { visible: boolean; locked: boolean }>>;
}

function row(page: Page, id: string) {
  return page.locator(`[data-testid=layer-row][data-layer-id="${id}"]`);
}

/** A: a comic with two text layers, saved. B: a second context (another device) signed in as the same user. */
async function twoDevices(
  label: string,
): Promise<{ a: Page; b: Page; ids: string[]; contexts: BrowserContext[]; errors: string[][] }> {
  const one = await openPage(suite.browser, suite.server.baseUrl, { viewport: { width: 1440, height: 900 } });
  await newComic(one.page, label);
  const before = await layers(one.page);
  await one.page.getByTestId('add-text').click();
  await one.page.keyboard.press('Escape');
  await one.page.getByTestId('add-text').click();
  await one.page.keyboard.press('Escape');
  await expect.poll(() => layers(one.page).then((l) => l.length)).toBe(before.length + 2);
  await saveNow(one.page);
  const ids = (await layers(one.page)).filter((id) => !before.includes(id));
  const two = await openPage(suite.browser, suite.server.baseUrl, { viewport: { width: 1440, height: 900 } });
  await two.context.addCookies(await one.context.cookies());
  await two.page.goto(one.page.url());
  await two.page.waitForSelector('[data-testid=canvas] canvas');
  await expect.poll(() => layers(two.page)).toEqual(await layers(one.page));
  // Let each stream deliver its `head` before the test saves.
  await one.page.waitForTimeout(300);
  return {
    a: one.page,
    b: two.page,
    ids,
    contexts: [one.context, two.context],
    errors: [one.problems.errors, two.problems.errors],
  };
}

describe('live tabs', () => {
  it('B saves, A shows the change within 2 s without a reload, and says saved', async () => {
    const { a, b, contexts, errors } = await twoDevices('live-load');
    const view = await a.evaluate(() => (window as unknown as Koma).__koma.view());
    // Every status A shows from here on: taking in B's version is not an edit of A's, so A must not save it again.
    await a.evaluate(() => {
      const w = window as unknown as Koma & { statuses: string[] };
      w.statuses = [];
      w.__koma.autosave.onStatus((s: string) => w.statuses.push(s));
    });
    await b.getByTestId('add-text').click();
    await b.keyboard.press('Escape');
    const expected = await layers(b);
    await saveNow(b);
    const heard = Date.now();
    await expect.poll(() => layers(a), { timeout: 2_000, interval: 50 }).toEqual(expected);
    const took = Date.now() - heard;
    // Shown, not only held: the layer list lists it.
    await expect.poll(() => a.getByTestId('layer-row').count()).toBe(expected.length);
    expect(await status(a)).toBe('saved');
    const revision = () =>
      a.evaluate(async () => {
        const record = await (await fetch(`/api/workspace/${location.pathname.split('/').pop()!}`)).json();
        return record.revision as number;
      });
    const revisionAfterB = await revision();
    await a.waitForTimeout(1_000);
    expect(await revision()).toBe(revisionAfterB);
    expect(await a.evaluate(() => (window as unknown as { statuses: string[] }).statuses)).toEqual([]);
    // Loaded in place: the view did not move.
    expect(await a.evaluate(() => (window as unknown as Koma).__koma.view())).toEqual(view);
    await screenshot(a, 'live-tabs-a-after-b-saved');
    console.log(`A showed B's save ${took} ms after B's save was acknowledged`);
    for (const e of errors) expect(realErrors(e)).toEqual([]);
    for (const c of contexts) await c.close();
  });

  it('edits to different layers on both devices both reach the server', async () => {
    const { a, b, ids, contexts } = await twoDevices('live-rebase');
    const [first, second] = ids as [string, string];
    // A holds an unsaved edit (its timer stopped, so it cannot save first by chance).
    await a.evaluate(() => (window as unknown as Koma).__koma.autosave.stop());
    await row(a, first).getByTestId('toggle-visibility').click();
    await expect.poll(() => status(a)).toBe('dirty');
    await row(b, second).getByTestId('toggle-lock').click();
    await saveNow(b);
    // A rebases its edit onto B's version and saves it, without being asked.
    await expect
      .poll(() => serverLayers(a), { timeout: 5_000 })
      .toMatchObject({
        [first]: { visible: false, locked: false },
        [second]: { visible: true, locked: true },
      });
    await expect.poll(() => status(a)).toBe('saved');
    expect(await layer(a, second)).toMatchObject({ locked: true });
    // And B, in turn, shows A's edit.
    await expect.poll(() => layer(b, first), { timeout: 5_000 }).toMatchObject({ visible: false });
    await expect(a.getByTestId('conflict-keep-mine').count()).resolves.toBe(0);
    for (const c of contexts) await c.close();
  });

  it('edits to the same layer raise the conflict dialog at once, with no further edit', async () => {
    const { a, b, ids, contexts } = await twoDevices('live-conflict');
    const [first] = ids as [string];
    await a.evaluate(() => (window as unknown as Koma).__koma.autosave.stop());
    await row(a, first).getByTestId('toggle-visibility').click();
    await row(b, first).getByTestId('toggle-lock').click();
    await saveNow(b);
    await expect
      .poll(() => a.getByTestId('conflict-keep-mine').isVisible(), { timeout: 2_000, interval: 50 })
      .toBe(true);
    expect(await status(a)).toBe('conflict');
    // Two browser contexts share no BroadcastChannel: B is another device as far as A can tell, and says so.
    await expect(a.locator('#conflict-title').textContent()).resolves.toBe(
      'This workspace was saved on another device',
    );
    await screenshot(a, 'live-tabs-conflict');
    // Keeping A's version stores it; B then shows it in place.
    await a.getByTestId('conflict-keep-mine').click();
    await expect.poll(() => layer(b, first), { timeout: 5_000 }).toMatchObject({ visible: false, locked: false });
    expect(await status(b)).toBe('saved');
    for (const c of contexts) await c.close();
  });
});
