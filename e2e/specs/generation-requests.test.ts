// Issue 19, items 1–3 and 10: what every entry point sends is what the Prompt, Model and Settings tabs show, and
// the price shown is the price charged (Generate, g, v, "Regenerate with its settings", variations, refine,
// inpaint with its own prompt, edit, outpaint); panels get pictures of their shape; the plan dialogs say what the
// job costs and what to do next; subscriber-only presets are marked and LoRAs filtered by the model's base.
import { describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { blur, creditTotal, idle, newComic, select, toScreen } from '../support/editor-page.ts';

// The builtin engine charges here as in a demo of billing, so that every price is a real number to compare; it
// runs slowed, one job at a time, so a job can be seen waiting.
const SUBSCRIBE_URL = 'https://example.com/subscribe';
const suite = useServerAndBrowser({
  slowEngine: true,
  env: { STARTING_CREDITS: '1000', BUILTIN_CHARGES: 'true', SUBSCRIBE_URL },
});

/** Occupies the single builtin lane with a long job of its own (30 steps), so the next one waits. */
async function occupyLane(page: Page): Promise<void> {
  await page.evaluate(() => {
    void fetch('/api/diffusion/txt2img', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: 'aamxl',
        prompt: 'a quiet street',
        width: 512,
        height: 512,
        steps: 30,
        num_images: 1,
      }),
    }).then((r) => r.text());
  });
}

interface Sent {
  path: string;
  body: Record<string, unknown>;
  jobId?: string;
}

/** Records every generation request the page posts, with the job id its answer names. */
function recordRequests(page: Page): Sent[] {
  const sent: Sent[] = [];
  const byRequest = new Map<Request, Sent>();
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() !== 'POST' || !/^\/api\/(diffusion|upscale|background|edit|regional|video)/.test(path)) return;
    const body = r.postDataJSON() as Record<string, unknown>;
    if (!('client' in body)) return; // a request of the test's own, not the editor's
    const entry: Sent = { path, body };
    sent.push(entry);
    byRequest.set(r, entry);
  });
  page.on('response', (res) => {
    const entry = byRequest.get(res.request());
    const id = res.headers()['x-job-id'];
    if (entry && id) entry.jobId = id;
  });
  return sent;
}

/** What the tabs show, read from the page as a user would see it. */
async function visibleState(page: Page) {
  const value = (id: string) => page.getByTestId(id).inputValue();
  await page.getByTestId('tab-prompt').click();
  const prompt = await value('prompt-input');
  const negative = await value('negative-prompt-input');
  await page.getByTestId('tab-model').click();
  const model = (await page.locator('[role=radio][aria-checked=true]').getAttribute('data-testid'))!.slice(6);
  await page.getByTestId('tab-settings').click();
  const [width, height] = (await value('dimension-select')).split('x').map(Number);
  const state = {
    prompt,
    negative,
    model,
    steps: Number(await value('steps-input')),
    cfg: Number(await value('cfg-input')),
    seed: Number(await value('seed-input')),
    batch: Number(await value('batch-input')),
    lightning: await value('lightning-select'),
    width: width!,
    height: height!,
  };
  await page.getByTestId('tab-prompt').click();
  return state;
}

/** The job's charge as the server recorded it. */
async function charged(page: Page, jobId: string | undefined): Promise<number> {
  expect(jobId, 'the answer names its job').toBeTruthy();
  return page.evaluate(async (id) => {
    const res = await fetch(`/api/jobs/${id}`);
    return ((await res.json()) as { cost: number }).cost;
  }, jobId!);
}

/** The credits at the end of a button's label ("Variations · 24 cr"). */
async function priceOn(page: Page, testId: string): Promise<number> {
  const text = await page.getByTestId(testId).innerText();
  const match = /· (\d+) cr$/.exec(text);
  expect(match, `${testId} shows a price: ${text}`).not.toBeNull();
  return Number(match![1]);
}

async function next(page: Page, sent: Sent[], count: number): Promise<Sent> {
  await expect.poll(() => sent.length, { timeout: 10_000 }).toBe(count);
  await expect.poll(() => sent[count - 1]!.jobId, { timeout: 10_000 }).toBeTruthy();
  return sent[count - 1]!;
}

type Doc = Record<
  string,
  {
    type: string;
    clipTarget: string | null;
    transform: { x: number; y: number; size: { width: number; height: number } };
    data: {
      variations?: { id: string }[];
      params?: { prompt: string; model: string; seed: number; steps: number } | null;
    };
  }
>;

const layers = (page: Page): Promise<Doc> =>
  page.evaluate(() => (window as unknown as { __koma: any }).__koma.editor.doc.layers as Doc);
const selection = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as { __koma: any }).__koma.ui.state.selection as string[]);

describe('the request is what the tabs show', () => {
  it('Generate, g and v send the visible settings; a selected image is not re-run; panels get their shape', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    const sent = recordRequests(page);
    await newComic(page, 'requests');
    await page.getByTestId('prompt-input').fill('a lighthouse at dusk');
    await page.getByTestId('negative-prompt-input').fill('blurry');
    await page.getByTestId('tab-settings').click();
    await page.getByTestId('steps-input').fill('4');
    await page.getByTestId('seed-input').fill('7');
    await page.getByTestId('batch-input').fill('2');
    await blur(page);
    await page.evaluate(() => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [] }));

    // 1. The Generate button with nothing selected: a new layer, every field as shown, charged as shown.
    let shown = await visibleState(page);
    let price = Number(await page.getByTestId('generate-cost').getAttribute('data-credits'));
    await page.getByTestId('generate-button').click();
    let req = await next(page, sent, 1);
    expect(req.path).toBe('/api/diffusion/txt2img');
    expect(req.body).toMatchObject({
      model: shown.model,
      prompt: shown.prompt,
      negative_prompt: shown.negative,
      steps: shown.steps,
      cfg: shown.cfg,
      seed: shown.seed,
      num_images: shown.batch,
      width: shown.width,
      height: shown.height,
      lightning: shown.lightning,
    });
    await idle(page);
    expect(await charged(page, req.jobId)).toBe(price);
    expect(price).toBe(12); // animagine, 6 × 2
    const first = (await selection(page))[0]!;

    // 2. With that image selected, a new model and prompt: Generate sends them (it used to re-run the image).
    await page.getByTestId('tab-model').click();
    await page.getByTestId('model-fluxdev').click();
    await page.getByTestId('tab-settings').click();
    await page.getByTestId('steps-input').fill('4'); // choosing a model set its own default steps
    await page.getByTestId('tab-prompt').click();
    await page.getByTestId('prompt-input').fill('a red umbrella in the rain');
    await blur(page);
    expect(await selection(page)).toEqual([first]);
    shown = await visibleState(page);
    price = Number(await page.getByTestId('generate-cost').getAttribute('data-credits'));
    expect(price).toBe(40); // FLUX dev, 20 × 2
    // The balance shows the charge at submit, while the job still waits behind another one (6 credits).
    const before = await creditTotal(page);
    await occupyLane(page);
    await page.getByTestId('generate-button').click();
    const queued = () =>
      page.evaluate(() =>
        Object.values((window as unknown as { __koma: any }).__koma.ui.state.processing).some(
          (p) => (p as { status: string }).status === 'IN_QUEUE',
        ),
      );
    await expect
      .poll(async () => ({ queued: await queued(), credits: await creditTotal(page) }), { timeout: 4000 })
      .toEqual({ queued: true, credits: before - 6 - price });
    req = await next(page, sent, 2);
    expect(req.body).toMatchObject({ model: 'fluxdev', prompt: 'a red umbrella in the rain', steps: shown.steps });
    const processing = () =>
      page.evaluate(() => Object.keys((window as unknown as { __koma: any }).__koma.ui.state.processing).length);
    await expect.poll(processing, { timeout: 30_000 }).toBe(0); // behind the 30-step job
    expect(await charged(page, req.jobId)).toBe(price);

    // 3. "Regenerate with its settings" is its own action, with the price of the image's own settings.
    await select(page, first);
    await page.getByTestId('tab-layer').click();
    await expect(page.getByTestId('op-regenerate').innerText()).resolves.toMatch(
      /^Regenerate with its settings · 12 cr$/,
    );
    await page.getByTestId('op-regenerate').click();
    req = await next(page, sent, 3);
    expect(req.body).toMatchObject({ model: 'animaginexl4.0', prompt: 'a lighthouse at dusk', steps: 4, seed: 9 });
    await idle(page);
    expect(await charged(page, req.jobId)).toBe(12);

    // 4. v from a pose: the visible settings with the pose as a controlnet; the Generate button's price.
    await page.getByTestId('tab-prompt').click();
    price = Number(await page.getByTestId('generate-cost').getAttribute('data-credits'));
    await page.getByTestId('add-pose').click();
    const poseId = Object.entries(await layers(page)).find(([, l]) => l.type === 'POSE')![0];
    await select(page, poseId);
    shown = await visibleState(page);
    await page.keyboard.press('v');
    req = await next(page, sent, 4);
    expect(req.body).toMatchObject({ model: 'fluxdev', prompt: shown.prompt, steps: shown.steps, qualityTags: true });
    expect((req.body.controlnets as { model: string }[])[0]!.model).toBe('controlnet-openpose');
    await idle(page);
    expect(await charged(page, req.jobId)).toBe(price);

    // 5. Panels get pictures of their shape: three tiers give wide panels.
    await page.getByTestId('tab-panel_presets').click();
    await page.getByTestId('preset-three-tiers').click();
    await expect.poll(async () => Object.values(await layers(page)).filter((l) => l.type === 'PANEL').length).toBe(3);
    const panels = Object.entries(await layers(page)).filter(([, l]) => l.type === 'PANEL');
    const [topId, top] = panels.sort((a, b) => a[1].transform.y - b[1].transform.y)[0]!;
    await select(page, topId);
    await page.getByTestId('tab-prompt').click();
    const size = page.getByTestId('generate-size');
    const width = Number(await size.getAttribute('data-width'));
    const height = Number(await size.getAttribute('data-height'));
    const aspect = top.transform.size.width / top.transform.size.height;
    expect(Math.abs(width / height / aspect - 1)).toBeLessThan(0.06);
    expect([width % 64, height % 64]).toEqual([0, 0]);
    await page.getByTestId('generate-button').click();
    req = await next(page, sent, 5);
    expect(req.body).toMatchObject({ width, height, model: 'fluxdev' });
    await idle(page);
    const filled = Object.values(await layers(page)).find((l) => l.type === 'IMAGE' && l.clipTarget === topId)!;
    const box = filled.transform.size;
    // The picture covers the panel: nearly all of it shows (34 % did before).
    const seen = (top.transform.size.width * top.transform.size.height) / (box.width * box.height);
    expect(seen).toBeGreaterThan(0.9);
    expect(box.width).toBeGreaterThanOrEqual(top.transform.size.width - 0.5);
    expect(box.height).toBeGreaterThanOrEqual(top.transform.size.height - 0.5);
    await screenshot(page, 'requests-panel-shape');

    // 6. g over the middle panel: the same rule from the keyboard.
    const [middleId, middle] = panels[1]!;
    const at = await toScreen(
      page,
      middle.transform.x + middle.transform.size.width / 2,
      middle.transform.y + middle.transform.size.height / 2,
    );
    await blur(page);
    await page.mouse.move(at.x, at.y);
    await page.keyboard.press('g');
    req = await next(page, sent, 6);
    const r = Number(req.body.width) / Number(req.body.height);
    expect(Math.abs(r / (middle.transform.size.width / middle.transform.size.height) - 1)).toBeLessThan(0.06);
    await idle(page);
    expect(Object.values(await layers(page)).some((l) => l.type === 'IMAGE' && l.clipTarget === middleId)).toBe(true);

    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 120_000);

  it('image operations send the tabs’ settings and charge what their buttons show; inpaint takes a prompt', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    const sent = recordRequests(page);
    await newComic(page, 'ops-requests');
    await page.getByTestId('prompt-input').fill('a cat on a roof');
    await blur(page);
    const outside = await toScreen(page, -80, 1200);
    await page.mouse.move(outside.x, outside.y);
    await page.keyboard.press('g');
    await next(page, sent, 1);
    await idle(page);
    const layerId = (await selection(page))[0]!;

    // Now the tabs say something else: FLUX Schnell, 3 steps, another prompt. Variations follow them.
    await page.getByTestId('tab-model').click();
    await page.getByTestId('model-fluxschnell').click();
    await page.getByTestId('tab-settings').click();
    await page.getByTestId('steps-input').fill('3');
    await page.getByTestId('tab-prompt').click();
    await page.getByTestId('prompt-input').fill('the same cat at night');
    await blur(page);
    const shown = await visibleState(page);
    await page.getByTestId('tab-layer').click();
    const checks: [string, (body: Record<string, unknown>) => void][] = [
      [
        'op-variations',
        (b) =>
          expect(b).toMatchObject({
            model: 'fluxschnell',
            prompt: 'the same cat at night',
            cfg: shown.cfg,
            seed: shown.seed,
            strength: 0.5,
            num_images: 4,
            steps: 3,
          }),
      ],
      ['op-refine', (b) => expect(b).toMatchObject({ model: 'fluxschnell', prompt: 'the same cat at night' })],
    ];
    let count = 1;
    for (const [button, check] of checks) {
      await select(page, layerId);
      const price = await priceOn(page, button);
      await page.getByTestId(button).click();
      const req = await next(page, sent, ++count);
      check(req.body);
      await idle(page);
      expect(await charged(page, req.jobId), button).toBe(price);
      await page
        .getByTestId('tray-keep-all')
        .click({ timeout: 1000 })
        .catch(() => undefined);
    }

    // Edit by instruction: the instruction and edit model as chosen, charged as shown.
    await select(page, layerId);
    await page.getByTestId('edit-instruction').fill('make it snow');
    await page.getByTestId('edit-model').selectOption('kontext-max');
    const editPrice = await priceOn(page, 'op-edit');
    expect(editPrice).toBe(60);
    await page.getByTestId('op-edit').click();
    let req = await next(page, sent, ++count);
    expect(req.body).toMatchObject({ prompt: 'make it snow', model: 'kontext-max' });
    await idle(page);
    expect(await charged(page, req.jobId)).toBe(editPrice);

    // Inpaint: paint, then the inpaint menu's prompt (prefilled from the layer) is what is sent.
    const t = (await layers(page))[layerId]!.transform;
    await page.getByTestId('tool-BRUSH').click();
    const a = await toScreen(page, t.x + t.size.width * 0.3, t.y + t.size.height * 0.4);
    const b = await toScreen(page, t.x + t.size.width * 0.6, t.y + t.size.height * 0.5);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(b.x, b.y, { steps: 6 });
    await page.mouse.up();
    await page.getByTestId('tool-MOVE').click();
    await select(page, layerId);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('op-inpaint').click();
    await expect(page.getByTestId('inpaint-prompt').inputValue()).resolves.toBe('a cat on a roof');
    await page.getByTestId('inpaint-prompt').fill('a red umbrella');
    const inpaintPrice = await priceOn(page, 'inpaint-run');
    await page.getByTestId('inpaint-run').click();
    req = await next(page, sent, ++count);
    expect(req.body).toMatchObject({ prompt: 'a red umbrella', model: 'fluxschnell', steps: 3 });
    await idle(page);
    expect(await charged(page, req.jobId)).toBe(inpaintPrice);
    // An empty inpaint prompt falls back to the Prompt tab's (editor.md §5).
    await select(page, layerId);
    await page.getByTestId('op-inpaint').click();
    await page.getByTestId('inpaint-prompt').fill('');
    await page.getByTestId('inpaint-run').click();
    req = await next(page, sent, ++count);
    expect(req.body.prompt).toBe('the same cat at night');
    await idle(page);

    // Outpaint: the price on its button is the charge.
    await select(page, layerId);
    await page.getByTestId('op-outpaint').click();
    const outpaintPrice = await priceOn(page, 'outpaint-run');
    await page.getByTestId('outpaint-run').click();
    req = await next(page, sent, count + 1);
    expect(req.body).toMatchObject({ model: 'fluxschnell', prompt: 'the same cat at night' });
    await idle(page);
    expect(await charged(page, req.jobId)).toBe(outpaintPrice);

    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('plans made clear', () => {
  it('marks subscriber-only presets, filters LoRAs by base, and the dialogs say the cost and what to do', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1440, height: 900 },
    });
    await newComic(page, 'plans');

    // A free user sees which presets are for subscribers (their model is GPT Image).
    const options = await page
      .getByTestId('preset-select')
      .locator('option')
      .evaluateAll((os) => os.map((o) => ({ id: (o as HTMLOptionElement).value, text: o.textContent ?? '' })));
    const gpt = options.filter((o) => /gpt/.test(o.id));
    expect(gpt).toHaveLength(10); // preset_gpt_* and preset_dagpt_*: GPT Image, for subscribers
    for (const o of gpt) expect(o.text).toContain('subscribers');
    const others = options.filter((o) => o.id !== '' && !/gpt/.test(o.id));
    expect(others.length).toBeGreaterThan(0);
    for (const o of others) expect(o.text).not.toContain('subscribers');

    // LoRAs: only those of the model's base are offered; switching to FLUX drops a chosen SDXL one.
    await page.getByTestId('tab-model').click();
    await page.getByTestId('model-animaginexl4.0').click();
    const bases = async () =>
      (await page.getByTestId('lora-entry').locator('.muted').allInnerTexts()).map((s) => s.replace('Base: ', ''));
    const sdxlBases = await bases();
    expect(sdxlBases.length).toBeGreaterThan(0);
    for (const base of sdxlBases) expect(['SDXL', 'Illustrious', 'None']).toContain(base);
    await page.getByTestId('lora-entry').first().getByRole('button').click();
    await expect.poll(() => page.getByTestId('chosen-lora').count()).toBe(1);
    await page.getByTestId('model-fluxdev').click();
    await expect.poll(() => page.getByTestId('chosen-lora').count()).toBe(0);
    for (const base of await bases()) expect(base).toBe('FLUX');

    // A subscriber-only model: the subscription dialog says what the job costs, the balance, and where to go.
    await page.getByTestId('model-gpt-image-1').click();
    await page.getByTestId('tab-settings').click();
    await page.getByTestId('batch-input').fill('1');
    await page.getByTestId('tab-prompt').click();
    await page.getByTestId('prompt-input').fill('a cosy cafe');
    await blur(page);
    await page.getByTestId('generate-button').click();
    const dialog = page.getByTestId('subscription-dialog');
    await expect.poll(() => dialog.count()).toBe(1);
    await expect(page.getByTestId('plan-cost').innerText()).resolves.toBe(
      'This costs 80 credits; your balance is 1000.',
    );
    await expect(page.getByTestId('plan-link').getAttribute('href')).resolves.toBe(SUBSCRIBE_URL);
    await expect(page.getByTestId('plan-link').innerText()).resolves.toBe('Subscribe');
    await screenshot(page, 'plans-subscription-dialog');
    await page.getByRole('button', { name: 'Back to the editor' }).click();

    // Out of credits: a 5 s Kling 2.0 clip costs 1500; the dialog says so before anything is charged.
    await page.getByTestId('tab-model').click();
    await page.getByTestId('model-animaginexl4.0').click();
    await page.getByTestId('tab-prompt').click();
    await page.getByTestId('generate-button').click();
    await idle(page);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('op-video').click();
    await page.getByTestId('video-model').selectOption('kling2.0_i2v');
    await page.getByTestId('video-run').click();
    await expect.poll(() => dialog.count()).toBe(1);
    await expect(page.getByTestId('plan-cost').innerText()).resolves.toMatch(
      /^This costs 1500 credits; your balance is \d+\.$/,
    );
    await page.getByRole('button', { name: 'Back to the editor' }).click();

    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 90_000);
});
