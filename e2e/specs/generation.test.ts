// Generation in the editor against the real server and its builtin engine (deterministic artwork, no GPU):
// generate into a panel and watch queue, progress and the image arrive; undo; cycle variations; the credits and
// subscription dialogs; a reload during a job that still finishes.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, screenshot } from '../support/browser.ts';
import { realErrors } from '../support/flows.ts';
import { useServerAndBrowser } from '../support/suite.ts';
import { blur, creditTotal, newComic, toScreen } from '../support/editor-page.ts';

// These specs check the credit arithmetic, so the builtin engine charges as in a demo of billing (it is free by
// default: generation-results.test.ts checks that).
const suite = useServerAndBrowser({ slowEngine: true, env: { STARTING_CREDITS: '100', BUILTIN_CHARGES: 'true' } });

interface Layer {
  type: string;
  transform: { x: number; y: number; size: { width: number; height: number } };
  locked: boolean;
  clipTarget: string | null;
  data: { variations?: { id: string }[]; variationsIdx?: number; params?: { seed: number; prompt: string } | null };
}

interface Snapshot {
  layers: Record<string, Layer>;
  children: string[];
  selection: string[];
  processing: Record<string, { status: string; progress?: number; queuePosition?: number; previewUrl?: string }>;
}

async function snapshot(page: Page): Promise<Snapshot> {
  return page.evaluate(() => {
    const s = (window as unknown as { __koma: any }).__koma;
    const doc = s.editor.doc;
    return {
      layers: doc.layers,
      children: doc.layers[s.activeRoot()].children,
      selection: s.ui.state.selection,
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

/** Records every processing state the editor shows, from now on, in window.__states. */
async function recordProcessing(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __koma: any; __states: unknown[] };
    w.__states = [];
    w.__koma.ui.subscribe((state: { processing: Record<string, unknown> }) => {
      for (const [id, p] of Object.entries(state.processing)) w.__states.push({ id, ...(p as object) });
    });
  });
}

async function recorded(
  page: Page,
): Promise<{ id: string; status: string; progress?: number; queuePosition?: number; previewUrl?: string }[]> {
  return page.evaluate(() => (window as unknown as { __states: any[] }).__states);
}

/** Leaves the text field so the canvas shortcuts (g) reach the editor again. */

/** Occupies the single builtin lane with a job of its own, so the next one waits in the queue. */
async function occupyLane(page: Page): Promise<void> {
  await page.evaluate(() => {
    void fetch('/api/diffusion/txt2img', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: 'animaginexl4.0',
        prompt: 'a quiet street',
        width: 832,
        height: 1216,
        num_images: 1,
      }),
    }).then((r) => r.text());
  });
}

describe('generation in the editor', () => {
  it('generates into a panel: queue, progress, preview, the image clipped and locked; undo; variations', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await openComic(page, 'gen');
    const panelId = (await snapshot(page)).children[0]!;
    expect(await creditTotal(page)).toBe(100);

    // An empty prompt creates nothing.
    const centre = await toScreen(page, 850, 1200);
    await page.mouse.move(centre.x, centre.y);
    await page.keyboard.press('g');
    await page.waitForTimeout(300);
    expect(images(await snapshot(page))).toHaveLength(0);

    // The price is on the button before anything is sent: sdxl, one image = 6 credits.
    await page.getByTestId('prompt-input').fill('a girl reading a manga on a train');
    await expect.poll(() => page.getByTestId('generate-cost').innerText()).toBe('6 credits');

    await occupyLane(page);
    await expect.poll(async () => creditTotal(page), { timeout: 5000 }).toBe(100); // not refreshed by itself
    await recordProcessing(page);
    await blur(page);
    await page.mouse.move(centre.x, centre.y);
    await page.keyboard.press('g');

    // The new layer is clipped to the panel, locked and selected at once.
    await expect.poll(async () => images(await snapshot(page)).length).toBe(1);
    let snap = await snapshot(page);
    const image = images(snap)[0]!;
    expect(image.clipTarget).toBe(panelId);
    expect(image.locked).toBe(true);
    expect(snap.selection).toEqual([image.id]);

    // First in the queue behind the other job, then in progress with a bar and a preview.
    await expect
      .poll(async () => (await recorded(page)).some((s) => s.status === 'IN_QUEUE' && s.queuePosition !== undefined), {
        timeout: 10_000,
      })
      .toBe(true);
    await expect
      .poll(() => page.getByTestId('processing').getAttribute('data-status'), { timeout: 5000 })
      .toBe('IN_QUEUE');
    await screenshot(page, 'generation-queued');
    await expect
      .poll(
        async () =>
          (await recorded(page)).some(
            (s) => s.status === 'IN_PROGRESS' && (s.progress ?? 0) > 0 && (s.progress ?? 0) < 1,
          ),
        { timeout: 20_000, interval: 100 },
      )
      .toBe(true);
    // Credits are refreshed when the job leaves the queue: both jobs have been charged by then.
    await expect.poll(async () => creditTotal(page), { timeout: 5000 }).toBe(88);
    await expect
      .poll(async () => (await recorded(page)).some((s) => s.previewUrl?.startsWith('data:image/')), {
        timeout: 10_000,
        interval: 100,
      })
      .toBe(true);
    if ((await page.getByTestId('processing-preview').count()) > 0) await screenshot(page, 'generation-in-progress');

    // The image arrives: one variation, processing cleared.
    await expect
      .poll(async () => images(await snapshot(page))[0]?.data.variations?.length ?? 0, { timeout: 20_000 })
      .toBe(1);
    await expect.poll(async () => Object.keys((await snapshot(page)).processing).length).toBe(0);
    const states = await recorded(page);
    const progresses = states.filter((s) => s.status === 'IN_PROGRESS').map((s) => s.progress ?? 0);
    expect(progresses.length).toBeGreaterThan(2);
    expect([...progresses].sort((a, b) => a - b)).toEqual(progresses); // never goes backwards
    snap = await snapshot(page);
    const seed = images(snap)[0]!.data.params!.seed;
    expect(seed).toBeGreaterThanOrEqual(0); // the seed the server used is kept for regeneration
    await page.waitForTimeout(500);
    await screenshot(page, 'generation-done');

    // Undo takes the image away (its variations, then the layer); redo brings it back.
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    await expect.poll(async () => images(await snapshot(page)).length).toBe(0);
    await page.keyboard.press('Control+Shift+Z');
    await page.keyboard.press('Control+Shift+Z');
    await expect.poll(async () => images(await snapshot(page))[0]?.data.variations?.length ?? 0).toBe(1);

    // g over the panel again: a new variation on the same layer (seed + count), the panel keeps its last 4.
    for (let n = 2; n <= 5; n++) {
      await page.mouse.move(centre.x, centre.y);
      await page.keyboard.press('g');
      await expect
        .poll(async () => images(await snapshot(page))[0]?.data.variations?.length ?? 0, { timeout: 20_000 })
        .toBe(Math.min(n, 4));
      await expect.poll(async () => Object.keys((await snapshot(page)).processing).length, { timeout: 5000 }).toBe(0);
    }
    snap = await snapshot(page);
    expect(images(snap)).toHaveLength(1);
    const layer = images(snap)[0]!;
    expect(layer.data.variationsIdx).toBe(3);

    // Arrow keys cycle the variations; the layer tab's buttons too.
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => images(await snapshot(page))[0]!.data.variationsIdx).toBe(2);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => images(await snapshot(page))[0]!.data.variationsIdx).toBe(0);
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('variation-next').click();
    await expect.poll(async () => images(await snapshot(page))[0]!.data.variationsIdx).toBe(1);
    await expect(page.getByTestId('variation-index').innerText()).resolves.toBe('2 / 4');
    await screenshot(page, 'generation-variations');

    expect(realErrors(problems.errors)).toEqual([]);
    expect(problems.external).toEqual([]);
    await context.close();
  });

  it('opens the subscription or the credits dialog by plan and error code, and removes the layer', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await openComic(page, 'broke');
    await page.getByTestId('prompt-input').fill('a castle in the clouds');
    await page.getByTestId('tab-model').click();
    // GPT Image is for subscribers: SUBSCRIPTION_REQUIRED opens the subscription dialog.
    await page.getByTestId('model-gpt-image-1').click();
    await page
      .getByTestId('generate-button')
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await page.getByTestId('tab-prompt').click();
    await expect.poll(() => page.getByTestId('generate-cost').innerText()).toBe('80 credits');
    await page.getByTestId('generate-button').click();
    await page.getByTestId('subscription-dialog').waitFor({ timeout: 5000 });
    await expect(page.getByTestId('subscription-dialog').innerText()).resolves.toContain('for subscribers');
    await expect.poll(async () => images(await snapshot(page)).length).toBe(0);
    await page.getByRole('button', { name: 'Back to the editor' }).click();
    await page.getByTestId('tab-model').click();
    await page.getByTestId('model-fluxpro').click();
    await page.getByTestId('tab-settings').click();
    await page.getByTestId('batch-input').fill('4');
    await page.getByTestId('tab-prompt').click();
    // fluxpro is 30 credits an image: 4 images cost 120, more than the 100 a new account has.
    await expect.poll(() => page.getByTestId('generate-cost').innerText()).toBe('120 credits');
    await blur(page);
    const outside = await toScreen(page, -700, 400);
    await page.mouse.move(outside.x, outside.y);
    await page.keyboard.press('g');
    await page.getByTestId('subscription-dialog').waitFor({ timeout: 5000 });
    await expect.poll(async () => images(await snapshot(page)).length).toBe(0);
    await screenshot(page, 'generation-subscription-dialog');
    await page.getByRole('button', { name: 'Back to the editor' }).click();
    await expect.poll(() => page.getByTestId('subscription-dialog').count()).toBe(0);
    expect(new URL(page.url()).pathname).toMatch(/^\/editor\//);
    expect(await creditTotal(page)).toBe(100);

    // The same request from a subscriber opens the credits dialog instead. (The account is shown as a subscriber
    // by rewriting its plan in GET /api/auth/session, the app's session read: the server still answers
    // not_enough_credits for real.)
    await page.route('**/api/auth/session', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { user: { plan: string } };
      await route.fulfill({ response, json: { ...body, user: { ...body.user, plan: 'subscriber' } } });
    });
    await page.reload();
    await page.waitForSelector('[data-testid=canvas] canvas');
    await expect.poll(() => page.getByTestId('generate-cost').innerText()).toBe('120 credits');
    await page.getByTestId('generate-button').click();
    await page.getByTestId('credits-dialog').waitFor({ timeout: 5000 });
    await expect(page.getByTestId('credits-dialog').innerText()).resolves.toContain('Your balance is 100 credits');
    await expect.poll(async () => images(await snapshot(page)).length).toBe(0);
    await screenshot(page, 'generation-credits-dialog');
    await page.getByRole('button', { name: 'Back to the editor' }).click();
    await expect.poll(() => page.getByTestId('credits-dialog').count()).toBe(0);
    expect(realErrors(problems.errors).filter((e) => !e.includes('not_enough_credits'))).toEqual([]);
    await context.close();
  });

  it('re-attaches to a running job after a reload and shows its result', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await openComic(page, 'reload');
    await page.getByTestId('prompt-input').fill('a cat on a rooftop at night');
    await blur(page);
    // Just left of the page: no panel there, so a free layer centred on the pointer.
    const outside = await toScreen(page, -60, 1200);
    await page.mouse.move(outside.x, outside.y);
    await page.keyboard.press('g');
    await expect.poll(async () => images(await snapshot(page)).length).toBe(1);
    const layerId = images(await snapshot(page))[0]!.id;
    expect(images(await snapshot(page))[0]!.clipTarget).toBeNull();
    await expect
      .poll(async () => (await snapshot(page)).processing[layerId]?.status, { timeout: 10_000, interval: 100 })
      .toBe('IN_PROGRESS');
    await expect
      .poll(async () => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('saved');
    // The server keeps which layer the running job belongs to (the tag the editor submitted it with).
    const active = await page.evaluate(async () => {
      const res = await fetch('/api/jobs?status=active');
      return ((await res.json()) as { jobs: { client?: { job?: { layerId?: string } } }[] }).jobs;
    });
    expect(active.map((j) => j.client?.job?.layerId)).toEqual([layerId]);
    await page.reload();
    await page.waitForSelector('[data-testid=canvas] canvas');
    // The job goes on: the layer shows it processing again, then gets its image.
    await expect
      .poll(async () => (await snapshot(page)).processing[layerId]?.status ?? 'none', {
        timeout: 10_000,
        interval: 100,
      })
      .not.toBe('none');
    await screenshot(page, 'generation-reattached');
    await expect
      .poll(async () => (await snapshot(page)).layers[layerId]?.data.variations?.length ?? 0, { timeout: 20_000 })
      .toBe(1);
    await page.waitForTimeout(500);
    await screenshot(page, 'generation-reattached-done');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  });
  it('runs the image operations: inpaint from the painted mask, variations, upscale, background swap with undo', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await openComic(page, 'ops');
    await page.getByTestId('prompt-input').fill('a lighthouse on a cliff');
    await blur(page);
    const outside = await toScreen(page, -60, 1200);
    await page.mouse.move(outside.x, outside.y);
    await page.keyboard.press('g');
    await expect
      .poll(async () => images(await snapshot(page))[0]?.data.variations?.length ?? 0, { timeout: 20_000 })
      .toBe(1);
    const layerId = images(await snapshot(page))[0]!.id;
    await expect.poll(async () => Object.keys((await snapshot(page)).processing).length).toBe(0);
    await page.getByTestId('tab-layer').click();

    // Variations: img2img at strength 0.5, four images on the same layer.
    await expect(page.getByTestId('op-variations').innerText()).resolves.toBe('Variations · 24 cr');
    await page.getByTestId('op-variations').click();
    await expect
      .poll(async () => (await snapshot(page)).layers[layerId]!.data.variations!.length, { timeout: 30_000 })
      .toBe(5);
    await expect.poll(async () => Object.keys((await snapshot(page)).processing).length, { timeout: 5000 }).toBe(0);

    // Upscale adds the doubled image as a new variation.
    await page.getByTestId('op-upscale').click();
    await expect
      .poll(async () => (await snapshot(page)).layers[layerId]!.data.variations!.length, { timeout: 150_000 })
      .toBe(6); // the upscaler runs for real on the CPU: allow it time
    await expect.poll(async () => Object.keys((await snapshot(page)).processing).length, { timeout: 5000 }).toBe(0);

    // Inpaint: paint a mask with the brush over the image, then inpaint into a placeholder layer above it.
    const layer = (await snapshot(page)).layers[layerId]!;
    const t = layer.transform;
    await page.getByTestId('tool-BRUSH').click();
    const a = await toScreen(page, t.x + t.size.width * 0.3, t.y + t.size.height * 0.4);
    const b = await toScreen(page, t.x + t.size.width * 0.6, t.y + t.size.height * 0.5);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(b.x, b.y, { steps: 8 });
    await page.mouse.up();
    await expect
      .poll(async () =>
        page.evaluate(
          (id) => (window as unknown as { __koma: any }).__koma.editor.doc.layers[id].data.maskParams.mask.length,
          layerId,
        ),
      )
      .toBeGreaterThan(0);
    await page.getByTestId('tool-MOVE').click();
    await page.evaluate((id) => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [id] }), layerId);
    await page.getByTestId('tab-layer').click();
    await expect(page.getByTestId('op-inpaint').isEnabled()).resolves.toBe(true);
    await expect(page.getByTestId('op-inpaint').innerText()).resolves.toBe('Inpaint painted area · 6 cr');
    // The inpaint menu takes a prompt (prefilled from the layer; empty uses the Prompt tab's).
    await page.getByTestId('op-inpaint').click();
    await expect(page.getByTestId('inpaint-prompt').inputValue()).resolves.toBe('a lighthouse on a cliff');
    await page.getByTestId('inpaint-run').click();
    await expect.poll(async () => images(await snapshot(page)).length).toBe(2);
    const placeholder = images(await snapshot(page)).find((l) => l.id !== layerId)!;
    expect(placeholder.transform).toEqual(t);
    await expect
      .poll(async () => (await snapshot(page)).layers[placeholder.id]?.data.variations?.length ?? 0, {
        timeout: 30_000,
      })
      .toBe(1);
    await expect.poll(async () => Object.keys((await snapshot(page)).processing).length, { timeout: 5000 }).toBe(0);
    await screenshot(page, 'generation-inpainted');

    // The placeholder keeps its mask (a stored image id) and regenerates as an inpaint with seed + 1.
    const inpainted = (await snapshot(page)).layers[placeholder.id]!.data.params as unknown as {
      type: string;
      inpaintMask: string | null;
      seed: number;
    };
    expect(inpainted.type).toBe('inpaint');
    expect(inpainted.inpaintMask).toMatch(/^[A-Za-z0-9_-]+$/);
    await page.getByTestId('op-regenerate').click();
    await expect
      .poll(async () => (await snapshot(page)).layers[placeholder.id]?.data.variations?.length ?? 0, {
        timeout: 30_000,
      })
      .toBe(2);
    await expect.poll(async () => Object.keys((await snapshot(page)).processing).length, { timeout: 5000 }).toBe(0);

    // Background removal swaps the shown image; undo brings the original back.
    await page.evaluate((id) => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [id] }), layerId);
    const shown = async () => {
      const l = (await snapshot(page)).layers[layerId]!;
      return l.data.variations![l.data.variationsIdx!]!.id;
    };
    const before = await shown();
    await page.getByTestId('op-background').click();
    await expect.poll(shown, { timeout: 150_000 }).not.toBe(before);
    await expect.poll(async () => Object.keys((await snapshot(page)).processing).length, { timeout: 5000 }).toBe(0);
    await page.keyboard.press('Control+z');
    await expect.poll(shown).toBe(before);
    await screenshot(page, 'generation-operations');

    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 400_000);
  it('generates from a pose with v, detects faces with their toasts, edits by instruction, estimates a pose with e', async () => {
    const { context, page, problems } = await openPage(suite.browser, suite.server.baseUrl, {
      viewport: { width: 1400, height: 900 },
    });
    await openComic(page, 'faces');
    await page.getByTestId('prompt-input').fill('a boy running in the rain');
    await blur(page);

    // A pose layer, then v: an image generated from it beside it (openpose controlnet, quality tags on).
    await page.getByTestId('add-pose').click();
    await expect
      .poll(async () => Object.values((await snapshot(page)).layers).filter((l) => l.type === 'POSE').length)
      .toBe(1);
    const poseId = Object.entries((await snapshot(page)).layers).find(([, l]) => l.type === 'POSE')![0];
    await page.evaluate((id) => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [id] }), poseId);
    await page.keyboard.press('v');
    await expect
      .poll(async () => images(await snapshot(page))[0]?.data.variations?.length ?? 0, { timeout: 20_000 })
      .toBe(1);
    const generated = images(await snapshot(page))[0]!;
    const pose = (await snapshot(page)).layers[poseId] as unknown as { data: { pairedLayerId: string | null } };
    expect(pose.data.pairedLayerId).toBe(generated.id);
    await expect.poll(async () => Object.keys((await snapshot(page)).processing).length, { timeout: 5000 }).toBe(0);
    // v again reuses the paired layer.
    await page.evaluate((id) => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [id] }), poseId);
    await page.keyboard.press('v');
    await expect
      .poll(async () => (await snapshot(page)).layers[generated.id]?.data.variations?.length ?? 0, { timeout: 20_000 })
      .toBe(2);
    expect(images(await snapshot(page))).toHaveLength(1);
    await expect.poll(async () => Object.keys((await snapshot(page)).processing).length, { timeout: 5000 }).toBe(0);

    // Face detection on the generated image: "Detecting faces...", then the boxes are stored for the variation.
    await page.evaluate(
      (id) => (window as unknown as { __koma: any }).__koma.ui.update({ selection: [id] }),
      generated.id,
    );
    await page.getByTestId('tab-layer').click();
    await page.getByTestId('op-detect-faces').click();
    await expect
      .poll(() =>
        page
          .getByTestId('toast')
          .innerText()
          .catch(() => ''),
      )
      .toBe('Detecting faces...');
    // The toast says what was found: "Faces detected" only when there are faces, "No faces found" otherwise.
    await expect
      .poll(
        () =>
          page
            .getByTestId('toast')
            .innerText()
            .catch(() => ''),
        { timeout: 60_000 },
      )
      .toMatch(/^(Faces detected|No faces found)$/);
    const toast = await page.getByTestId('toast').innerText();
    const stored = await page.evaluate((id) => {
      const layer = (window as unknown as { __koma: any }).__koma.editor.doc.layers[id];
      return layer.data.faceStore[layer.data.variations[layer.data.variationsIdx].id] as unknown[] | undefined;
    }, generated.id);
    expect(Array.isArray(stored)).toBe(true);
    expect(toast).toBe(stored!.length === 0 ? 'No faces found' : 'Faces detected');
    await screenshot(page, 'generation-faces');
    if (stored!.length === 0) {
      // The builtin artwork has no faces: no face is offered to enhance, and the layer tab says none were found.
      expect(await page.getByTestId('op-enhance-face-0').count()).toBe(0);
      await expect(page.getByTestId('faces-none').innerText()).resolves.toBe('No faces found');
    } else {
      await page.getByTestId('op-enhance-face-0').click();
      await expect
        .poll(async () => (await snapshot(page)).layers[generated.id]?.data.variations?.length ?? 0, {
          timeout: 30_000,
        })
        .toBe(3);
    }
    await expect.poll(async () => Object.keys((await snapshot(page)).processing).length, { timeout: 5000 }).toBe(0);
    const before = (await snapshot(page)).layers[generated.id]!.data.variations!.length;

    // Edit by instruction with a chosen model: its price on the button, the result a new variation.
    await page.getByTestId('edit-instruction').fill('make it night');
    await page.getByTestId('edit-model').selectOption('kontext-pro');
    await expect(page.getByTestId('op-edit').innerText()).resolves.toBe('Edit by instruction · 40 cr');
    await page.getByTestId('op-edit').click();
    await expect
      .poll(
        async () => {
          const n = (await snapshot(page)).layers[generated.id]?.data.variations?.length ?? 0;
          // A failure shows as a toast: put it in the message rather than only timing out.
          const toast = await page
            .getByTestId('toast')
            .innerText({ timeout: 100 })
            .catch(() => '');
          return toast === 'Failed to perform the image operation' ? toast : n;
        },
        { timeout: 60_000 },
      )
      .toBe(before + 1);
    await expect.poll(async () => Object.keys((await snapshot(page)).processing).length, { timeout: 5000 }).toBe(0);

    // e estimates the pose of the selected image (MoveNet on the server). The builtin artwork is abstract, so
    // whether a body is found depends on the picture: either a pose layer is added over the image, or the toast
    // says that none was found.
    await blur(page);
    await page.keyboard.press('e');
    await expect
      .poll(
        async () => {
          const poses = Object.values((await snapshot(page)).layers).filter((l) => l.type === 'POSE').length;
          if (poses === 2) return 'pose added';
          const toast = await page
            .getByTestId('toast')
            .innerText({ timeout: 100 })
            .catch(() => '');
          return toast === 'No pose found in the image' ? 'pose added' : `poses ${poses}, toast ${toast}`;
        },
        { timeout: 60_000 },
      )
      .toBe('pose added');
    await screenshot(page, 'generation-pose-estimated');
    expect(realErrors(problems.errors)).toEqual([]);
    await context.close();
  }, 180_000);
});
