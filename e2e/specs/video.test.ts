// Image to video, re-attaching to jobs from the server, redo after a failed generation and the outpaint size, against
// the real server and its builtin engine (its "video" is a labelled animated WebP preview; no GPU).
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { blur, creditTotal, idle, newComic, select, toScreen } from '../support/editor-page.ts';

// Charges are checked: the builtin engine charges as in a demo of billing (BUILTIN_CHARGES).
const suite = useServerAndBrowser({ slowEngine: true, env: { STARTING_CREDITS: '2000', BUILTIN_CHARGES: 'true' } });

interface Layer {
  type: string;
  name: string;
  data: {
    variations?: { id: string }[];
    videos?: { id: string; mime: string; model: string; duration: number; engine: string; note: string | null }[];
  };
}

interface Snapshot {
  layers: Record<string, Layer>;
  processing: Record<string, { status: string }>;
}

async function snapshot(page: Page): Promise<Snapshot> {
  return page.evaluate(() => {
    const s = (window as unknown as { __koma: any }).__koma;
    return { layers: s.editor.doc.layers, processing: s.ui.state.processing };
  });
}

const images = (snap: Snapshot) =>
  Object.entries(snap.layers)
    .filter(([, l]) => l.type === 'IMAGE')
    .map(([id, l]) => ({ id, ...l }));

/** `g` just left of the page (no panel there): a new free layer; resolves with its id once it exists. */
async function generateBesideThePage(page: Page, prompt: string, y = 1200): Promise<string> {
  const before = new Set(images(await snapshot(page)).map((l) => l.id));
  await page.getByTestId('prompt-input').fill(prompt);
  await blur(page);
  const at = await toScreen(page, -60, y);
  await page.mouse.move(at.x, at.y);
  await page.keyboard.press('g');
  await expect.poll(async () => images(await snapshot(page)).filter((l) => !before.has(l.id)).length).toBe(1);
  return images(await snapshot(page)).find((l) => !before.has(l.id))!.id;
}

async function variationsOf(page: Page, id: string): Promise<number> {
  return (await snapshot(page)).layers[id]?.data.variations?.length ?? 0;
}

async function saved(page: Page): Promise<void> {
  await expect
    .poll(async () => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 10_000 })
    .toBe('saved');
}

/** The user's active jobs as the server lists them, with the tags the editor sent. */
async function activeJobs(page: Page): Promise<{ job_id: string; client?: { job?: { layerId?: string } } }[]> {
  return page.evaluate(async () => {
    const res = await fetch('/api/jobs?status=active');
    return ((await res.json()) as { jobs: { job_id: string; client?: { job?: { layerId?: string } } }[] }).jobs;
  });
}

/** A page of an existing context that records its console errors like openPage does. */
async function pageOf(context: BrowserContext, errors: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return page;
}

describe('image to video', () => {
  it('makes a clip from an image layer, charges duration × credits per second, and plays it in the layer tab', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await newComic(page, 'video');
    const start = await creditTotal(page);
    const layerId = await generateBesideThePage(page, 'a girl on a windy hill');
    await expect.poll(() => variationsOf(page, layerId), { timeout: 60_000 }).toBe(1);
    await idle(page);
    await expect.poll(() => creditTotal(page)).toBe(start - 6);
    // A second image, to be offered as the end frame.
    const endId = await generateBesideThePage(page, 'the same hill at dusk', 400);
    await expect.poll(() => variationsOf(page, endId), { timeout: 60_000 }).toBe(1);
    await idle(page);

    await select(page, layerId);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('op-video').click();
    const options = await page.getByTestId('video-model').locator('option').allInnerTexts();
    expect(options).toEqual([
      'Wan 2.2 · 50 cr/s',
      'Wan 2.1 · 50 cr/s',
      'Kling 1.6 Pro · 100 cr/s',
      'Kling 2.0 Master · 300 cr/s',
      'Vidu Q1 · 100 cr/s',
    ]);
    // Wan takes no end frame and lasts 5 s: 250 credits on the button.
    await expect(page.getByTestId('video-end-frame').count()).resolves.toBe(0);
    await expect(page.getByTestId('video-duration').locator('option').allInnerTexts()).resolves.toEqual(['5 s']);
    await expect(page.getByTestId('video-run').innerText()).resolves.toBe('Make video · 250 cr');
    // Kling 1.6 takes an end frame (another image layer) and 5 or 10 s: 100 × 10.
    await page.getByTestId('video-model').selectOption('kling1.6_i2v');
    await page.getByTestId('video-duration').selectOption('10');
    await expect(page.getByTestId('video-run').innerText()).resolves.toBe('Make video · 1000 cr');
    const ends = await page
      .getByTestId('video-end-frame')
      .locator('option')
      .evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value));
    expect(ends).toEqual(['', endId]);
    await page.getByTestId('video-end-frame').selectOption(endId);
    await page.getByTestId('video-run').scrollIntoViewIfNeeded();
    await screenshot(page, 'video-form');
    // Back to Wan: the end frame goes away with it and the price follows.
    await page.getByTestId('video-model').selectOption('wan22_i2v');
    await expect(page.getByTestId('video-end-frame').count()).resolves.toBe(0);
    await page.getByTestId('video-prompt').fill('the wind moves her hair');
    await expect(page.getByTestId('video-run').innerText()).resolves.toBe('Make video · 250 cr');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/video') && r.method() === 'POST');
    await page.getByTestId('video-run').click();
    const body = (await sent).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'wan22_i2v', duration: 5, prompt: 'the wind moves her hair' });
    expect(body).not.toHaveProperty('end_image');

    // The layer shows the job running, then keeps the clip; the credits are refreshed when it starts.
    await expect
      .poll(async () => (await snapshot(page)).layers[layerId]?.data.videos?.length ?? 0, { timeout: 60_000 })
      .toBe(1);
    await idle(page);
    await expect.poll(() => creditTotal(page), { timeout: 10_000 }).toBe(start - 12 - 250);
    const clip = (await snapshot(page)).layers[layerId]!.data.videos![0]!;
    expect(clip).toMatchObject({ mime: 'image/webp', model: 'wan22_i2v', duration: 5, engine: 'builtin' });
    expect(clip.note).toContain('not a video model');

    // Played in the layer tab: the builtin preview is an animated WebP, so an <img> that really loaded.
    const preview = page.getByTestId('video-preview');
    await preview.waitFor();
    await expect
      .poll(() =>
        preview.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    expect(await preview.getAttribute('src')).toBe(`/api/videos/${clip.id}`);
    await expect(page.getByTestId('video-note').innerText()).resolves.toContain('not a video model');
    await expect(page.getByTestId('video-clip').innerText()).resolves.toContain('Wan 2.2 · 5 s');
    await page.getByTestId('video-clips').scrollIntoViewIfNeeded();
    await screenshot(page, 'video-layer-tab');

    // Undo forgets the clip, redo brings it back.
    await blur(page);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await snapshot(page)).layers[layerId]!.data.videos!.length).toBe(0);
    await page.keyboard.press('Control+Shift+Z');
    await expect.poll(async () => (await snapshot(page)).layers[layerId]!.data.videos!.length).toBe(1);
    await saved(page);

    // A clip whose bytes cannot be loaded says so in place of the player, and nothing breaks.
    await page.route('**/api/videos/**', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"not_found"}' }),
    );
    await page.reload();
    await page.waitForSelector('[data-testid=canvas] canvas');
    await select(page, layerId);
    await page.getByTestId('tab-layer').click();
    await expect(page.getByTestId('video-error').innerText()).resolves.toBe('This video could not be loaded.');
    await expect(page.getByTestId('video-preview').count()).resolves.toBe(0);
    await page.getByTestId('video-error').scrollIntoViewIfNeeded();
    await screenshot(page, 'video-failed-to-load');
    await page.getByTestId('video-remove').click();
    await expect.poll(async () => (await snapshot(page)).layers[layerId]!.data.videos!.length).toBe(0);

    expect(realErrors(problems.errors)).toEqual([]);
    expect(problems.external).toEqual([]);
    await context.close();
  }, 240_000);
});

describe('jobs survive a reload', () => {
  it('re-attaches from the server list in another browser, and lands a job that finished while every page was closed', async () => {
    const errors: string[] = [];
    const first = await openPage(suite.browser, suite.server.baseUrl, { viewport: { width: 1400, height: 900 } });
    await newComic(first.page, 'reattach');
    const editorUrl = first.page.url();
    const layerId = await generateBesideThePage(first.page, 'a cat on a rooftop at night');
    await expect
      .poll(async () => (await snapshot(first.page)).processing[layerId]?.status, { timeout: 10_000, interval: 100 })
      .toBe('IN_PROGRESS');
    await saved(first.page);
    // The server keeps which layer the job is for.
    const active = await activeJobs(first.page);
    expect(active.map((j) => j.client?.job?.layerId)).toEqual([layerId]);
    // This browser remembers only the job's id.
    const stored = await first.page.evaluate(() => localStorage.getItem('koma.generation.jobs'));
    expect(stored).toContain(active[0]!.job_id);
    expect(stored).not.toContain(layerId);
    await first.page.close();

    // Another browser of the same account (no local record at all) finds the job through the server.
    const other = await suite.browser.newContext({
      baseURL: suite.server.baseUrl,
      viewport: { width: 1400, height: 900 },
    });
    await other.addCookies(await first.context.cookies());
    await other.addInitScript(() => {
      (window as unknown as { __jobsAtStart: string | null }).__jobsAtStart =
        localStorage.getItem('koma.generation.jobs');
    });
    const otherPage = await pageOf(other, errors);
    await otherPage.goto(editorUrl);
    await otherPage.waitForSelector('[data-testid=canvas] canvas');
    expect(await otherPage.evaluate(() => (window as unknown as { __jobsAtStart: unknown }).__jobsAtStart)).toBeNull();
    // Re-attached: shown as running, or (on a slow machine the clip may finish before this page has loaded) already
    // landed, which only the server's list could have brought to a browser with no record of the job.
    await expect
      .poll(
        async () =>
          (await snapshot(otherPage)).processing[layerId]?.status ??
          ((await variationsOf(otherPage, layerId)) > 0 ? 'landed' : 'none'),
        { timeout: 10_000, interval: 100 },
      )
      .not.toBe('none');
    await screenshot(otherPage, 'video-reattached-elsewhere');
    await expect.poll(() => variationsOf(otherPage, layerId), { timeout: 60_000 }).toBe(1);
    await idle(otherPage);
    await saved(otherPage);
    await other.close();

    // Back in the first browser: its remembered job finished meanwhile and was landed elsewhere; nothing doubles.
    const again = await pageOf(first.context, errors);
    await again.goto(editorUrl);
    await again.waitForSelector('[data-testid=canvas] canvas');
    await expect.poll(() => variationsOf(again, layerId), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => again.evaluate(() => localStorage.getItem('koma.generation.jobs'))).toBe('[]');

    // A job that finishes while no page is open lands when the page comes back.
    const laterId = await generateBesideThePage(again, 'a fox in the snow', 400);
    await expect
      .poll(async () => (await snapshot(again)).processing[laterId]?.status, { timeout: 10_000, interval: 100 })
      .toBe('IN_PROGRESS');
    await saved(again);
    const [job] = await activeJobs(again);
    await again.close();
    const cookie = (await first.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    await expect
      .poll(
        async () => {
          const res = await fetch(`${suite.server.baseUrl}/api/jobs/${job!.job_id}`, { headers: { cookie } });
          return ((await res.json()) as { status: string }).status;
        },
        { timeout: 60_000 },
      )
      .toBe('COMPLETED');
    // A browser that never saw the job fills the empty placeholder from the server's list of recently ended jobs.
    const fresh = await suite.browser.newContext({
      baseURL: suite.server.baseUrl,
      viewport: { width: 1400, height: 900 },
    });
    await fresh.addCookies(await first.context.cookies());
    const freshPage = await pageOf(fresh, errors);
    await freshPage.goto(editorUrl);
    await freshPage.waitForSelector('[data-testid=canvas] canvas');
    await expect.poll(() => variationsOf(freshPage, laterId), { timeout: 10_000 }).toBe(1);
    await idle(freshPage);
    await saved(freshPage);
    await fresh.close();
    // The browser that sent it still remembers the job: it finds it landed and adds nothing.
    const back = await pageOf(first.context, errors);
    await back.goto(editorUrl);
    await back.waitForSelector('[data-testid=canvas] canvas');
    await expect.poll(() => variationsOf(back, laterId), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => back.evaluate(() => localStorage.getItem('koma.generation.jobs'))).toBe('[]');
    expect(Object.keys((await snapshot(back)).processing)).toEqual([]);
    await back.waitForTimeout(500);
    await screenshot(back, 'video-landed-after-away');

    expect(realErrors([...first.problems.errors, ...errors])).toEqual([]);
    await first.context.close();
  }, 120_000);
});

describe('a failed generation', () => {
  it('takes its layer away with the toast and leaves redo disabled', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await newComic(page, 'failed');
    // The engine falls over mid-job: the stream the server would send, with the job's FAILED line.
    await page.route('**/api/diffusion/txt2img', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/x-ndjson',
        body:
          `${JSON.stringify({ status: 'IN_QUEUE', job_id: 'failing-job', queue_position: 0 })}\n` +
          `${JSON.stringify({ status: 'FAILED', job_id: 'failing-job', error: 'The GPU worker fell over', code: 'engine_failed' })}\n`,
      }),
    );
    await page.getByTestId('prompt-input').fill('a castle in the clouds');
    await blur(page);
    const at = await toScreen(page, -60, 1200);
    await page.mouse.move(at.x, at.y);
    await page.keyboard.press('g');
    await expect
      .poll(() =>
        page
          .getByTestId('toast')
          .innerText()
          .catch(() => ''),
      )
      // The reason in words (issue 19), not the generic "Failed to perform the image operation".
      .toBe('Failed: the engine reported an error: The GPU worker fell over');
    await expect.poll(async () => images(await snapshot(page)).length).toBe(0);
    await expect(page.getByTestId('redo').isDisabled()).resolves.toBe(true);
    await page.keyboard.press('Control+Shift+Z');
    await page.waitForTimeout(300);
    expect(images(await snapshot(page))).toHaveLength(0);
    await screenshot(page, 'video-failed-generation');
    await page.unroute('**/api/diffusion/txt2img');

    // A job the user cancels on the real server ends the same way, and is refunded.
    const before = await creditTotal(page);
    await page.mouse.move(at.x, at.y);
    await page.keyboard.press('g');
    await expect.poll(async () => images(await snapshot(page)).length).toBe(1);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('op-cancel').click({ timeout: 10_000 });
    await expect.poll(async () => images(await snapshot(page)).length, { timeout: 10_000 }).toBe(0);
    await expect(page.getByTestId('redo').isDisabled()).resolves.toBe(true);
    await page.keyboard.press('Control+Shift+Z');
    await page.waitForTimeout(300);
    expect(images(await snapshot(page))).toHaveLength(0);
    await expect.poll(() => creditTotal(page), { timeout: 10_000 }).toBe(before);

    expect(realErrors(problems.errors).filter((e) => !e.includes('Job failed'))).toEqual([]);
    await context.close();
  }, 90_000);
});

describe('outpaint', () => {
  it('outpaints by the sides the user chose, snapped to 8, into a placeholder grown by as much', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await newComic(page, 'outpaint');
    const layerId = await generateBesideThePage(page, 'a lighthouse on a cliff');
    await expect.poll(() => variationsOf(page, layerId), { timeout: 60_000 }).toBe(1);
    await idle(page);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('op-outpaint').click();
    for (const side of ['left', 'right', 'top', 'bottom']) {
      await expect(page.getByTestId(`outpaint-${side}`).inputValue()).resolves.toBe('128');
    }
    await page.getByTestId('outpaint-left').fill('0');
    await page.getByTestId('outpaint-right').fill('250');
    await page.getByTestId('outpaint-top').fill('0');
    await page.getByTestId('outpaint-bottom').focus(); // leaving the right side snaps it
    await expect(page.getByTestId('outpaint-right').inputValue()).resolves.toBe('248');
    await page.getByTestId('outpaint-bottom').fill('0');
    await page.getByTestId('outpaint-left').focus();
    // Nothing to extend: the button waits.
    await page.getByTestId('outpaint-right').fill('0');
    await expect(page.getByTestId('outpaint-run').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('outpaint-form').innerText()).resolves.toContain(
      'Choose at least one side to extend.',
    );
    await page.getByTestId('outpaint-right').fill('248');
    await page.getByTestId('outpaint-bottom').fill('64');
    await expect(page.getByTestId('outpaint-run').innerText()).resolves.toBe('Outpaint · 6 cr');
    await page.getByTestId('outpaint-run').scrollIntoViewIfNeeded();
    await screenshot(page, 'video-outpaint-form');
    const source = (await snapshot(page)).layers[layerId] as unknown as {
      transform: { x: number; y: number; size: { width: number; height: number } };
      originalSize: { width: number; height: number };
    };
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/diffusion/outpaint'));
    await page.getByTestId('outpaint-run').click();
    const body = (await sent).postDataJSON() as Record<string, unknown>;
    // The chosen sides; the spec's constants unchanged.
    expect(body).toMatchObject({ left: 0, right: 248, top: 0, bottom: 64, overlap: 0.05, blur: 20 });
    expect(body.steps as number).toBeGreaterThanOrEqual(30);
    await expect.poll(async () => images(await snapshot(page)).length).toBe(2);
    const placeholder = images(await snapshot(page)).find((l) => l.id !== layerId)! as unknown as typeof source & {
      id: string;
    };
    const sx = source.transform.size.width / source.originalSize.width;
    const sy = source.transform.size.height / source.originalSize.height;
    expect(placeholder.transform).toEqual({
      x: source.transform.x,
      y: source.transform.y,
      size: { width: source.transform.size.width + 248 * sx, height: source.transform.size.height + 64 * sy },
    });
    await expect.poll(() => variationsOf(page, placeholder.id), { timeout: 60_000 }).toBe(1);
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 120_000);
});
