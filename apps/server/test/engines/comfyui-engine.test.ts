import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ComfyUiEngine } from '../../src/engines/comfyui/engine.ts';
import type { ComfyUiEngineOptions } from '../../src/engines/comfyui/engine.ts';
import type { InpaintTask, OutpaintTask, Txt2ImgTask } from '../../src/engines/types.ts';
import { FakeComfyUI } from './fakes/fake-comfyui.ts';
import { closeServer, listen, sendJson } from './fakes/http-util.ts';
import { SDXL, gradientPng, raw, recorder, rectMask } from './helpers.ts';

const live = (): AbortSignal => new AbortController().signal;
const fast: Partial<ComfyUiEngineOptions> = {
  previewIntervalMs: 0,
  historyPollMs: 10,
  idleTimeoutMs: 2_000,
  requestTimeoutMs: 2_000,
  probeTimeoutMs: 500,
};

const txt2img: Txt2ImgTask = {
  kind: 'txt2img',
  model: SDXL,
  prompt: 'manga panel',
  negativePrompt: 'lowres',
  width: 96,
  height: 64,
  steps: 4,
  cfg: 6,
  seed: 7,
  numImages: 2,
  loras: [{ name: 'manga_style_xl.safetensors', strength: 0.8 }],
};

/** A graph any ComfyUI accepts, to fill a queue from "another user". */
const fillerGraph = {
  '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd_xl_base_1.0.safetensors' } },
  '2': { class_type: 'EmptyLatentImage', inputs: { width: 64, height: 64, batch_size: 1 } },
  '3': { class_type: 'VAEDecode', inputs: { samples: ['2', 0], vae: ['1', 2] } },
  '4': { class_type: 'SaveImage', inputs: { images: ['3', 0], filename_prefix: 'other' } },
};

async function submitFiller(fake: FakeComfyUI, id: string): Promise<void> {
  const res = await fetch(`${fake.url}/prompt`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: fillerGraph, client_id: 'someone-else', prompt_id: id }),
  });
  expect(res.status).toBe(200);
}

describe('ComfyUI engine against a fake server', () => {
  let fake: FakeComfyUI;
  let engine: ComfyUiEngine;
  beforeEach(async () => {
    fake = await new FakeComfyUI().start();
    engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('runs txt2img: submits with client_id, streams progress and previews, fetches the outputs', async () => {
    const events = recorder();
    const result = await engine.run(txt2img, events, live());
    expect(result.images).toHaveLength(2);
    for (const image of result.images) {
      expect([image.width, image.height, image.mime, image.seed]).toEqual([96, 64, 'image/png', 7]);
      expect((await sharp(image.bytes).metadata()).format).toBe('png');
    }
    expect(result.metadata).toMatchObject({ engine: 'comfyui', model: SDXL.id });
    expect(events.logs()).toEqual(
      expect.arrayContaining(['Progress: 1/4', 'Progress: 4/4', 'Running KSampler (node 6)']),
    );
    expect(events.events.some((e) => e.progress === 1)).toBe(true);
    // The VAE decode's tiles after sampling are logged but do not move the bar back.
    expect(events.logs()).toContain('VAEDecode: 1 of 2');
    const ratios = events.events.flatMap((e) => (e.progress === undefined ? [] : [e.progress]));
    expect(ratios).toEqual([...ratios].sort((a, b) => a - b));
    const preview = events.events.find((e) => e.preview)?.preview;
    expect(preview?.mime).toBe('image/jpeg');
    const submit = fake.requests.find((r) => r.method === 'POST' && r.path === '/prompt')?.body as Record<
      string,
      unknown
    >;
    expect(submit.client_id).toMatch(/^koma-/);
    expect(submit.prompt_id).toMatch(/^[0-9a-f-]{36}$/);
    // The history entry is deleted after the outputs were read.
    await expect.poll(() => fake.requests.some((r) => r.path === '/history' && r.method === 'POST')).toBe(true);
  });

  it('reports an upscaler tile progress as Progress when there is no sampler', async () => {
    const events = recorder();
    const result = await engine.run({ kind: 'upscale', image: await gradientPng(20, 10), scale: 2 }, events, live());
    expect(events.logs()).toEqual(expect.arrayContaining(['Progress: 1/2', 'Progress: 2/2']));
    expect([result.images[0]!.width, result.images[0]!.height]).toEqual([40, 20]);
  });

  it('uploads the image and a feathered mask for inpaint, and returns the image size', async () => {
    const task: InpaintTask = {
      ...txt2img,
      kind: 'inpaint',
      numImages: 1,
      loras: [],
      image: await gradientPng(80, 48),
      mask: await rectMask(80, 48, { x: 10, y: 10, w: 30, h: 20 }),
      strength: 0.8,
      maskBlur: 10,
    };
    const result = await engine.run(task, recorder(), live());
    expect([result.images[0]!.width, result.images[0]!.height]).toEqual([80, 48]);
    expect(fake.requests.filter((r) => r.path === '/upload/image')).toHaveLength(2);
    const submit = fake.requests.find((r) => r.path === '/prompt' && r.method === 'POST')?.body as {
      prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
    };
    const maskName = Object.values(submit.prompt).find((n) => n.class_type === 'LoadImageMask')?.inputs.image as string;
    const mask = await raw(fake.uploaded(maskName)!);
    const at = (x: number, y: number) => mask.data[(y * 80 + x) * mask.channels]!;
    expect([at(5, 5), at(45, 20), at(25, 20)]).toEqual([0, 0, 255]);
    expect(at(10, 20)).toBeGreaterThan(0);
    expect(at(10, 20)).toBeLessThan(128);
  });

  it('outpaints by uploading the padded canvas', async () => {
    const task: OutpaintTask = {
      ...txt2img,
      kind: 'outpaint',
      numImages: 1,
      image: await gradientPng(40, 40),
      padding: { left: 8, top: 0, right: 16, bottom: 8 },
      overlap: 0.05,
      blur: 20,
    };
    const result = await engine.run(task, recorder(), live());
    expect([result.images[0]!.width, result.images[0]!.height]).toEqual([64, 48]);
  });

  it('runs brush generation: one uploaded mask per brush, output at the canvas size', async () => {
    const mask = await rectMask(96, 64, { x: 0, y: 0, w: 48, h: 64 });
    const result = await engine.run(
      { ...txt2img, kind: 'smd', numImages: 1, brushes: [{ prompt: 'hair', negativePrompt: 'hat', mask }] },
      recorder(),
      live(),
    );
    expect(fake.requests.filter((r) => r.path === '/upload/image')).toHaveLength(1);
    expect([result.images[0]!.width, result.images[0]!.height]).toEqual([96, 64]);
  });

  it('names a checkpoint the server does not have before uploading or submitting anything', async () => {
    const err = await engine
      .run({ ...txt2img, model: { ...SDXL, path: 'missing.safetensors' } }, recorder(), live())
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'model_missing' });
    expect((err as Error).message).toContain(
      `ComfyUI at ${fake.url} has no file models/checkpoints/missing.safetensors`,
    );
    expect(fake.requests.some((r) => r.path === '/prompt' && r.method === 'POST')).toBe(false);
    expect(fake.requests.some((r) => r.path === '/upload/image')).toBe(false);
  });

  it('turns an out-of-memory execution_error into out_of_memory with the exception', async () => {
    fake.nextFailure = { kind: 'execution_error' };
    const err = await engine.run(txt2img, recorder(), live()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'out_of_memory' });
    expect((err as Error).message).toMatch(
      /ComfyUI failed in KSampler \(node \d+\): torch\.OutOfMemoryError: Allocation on device/,
    );
  });

  it('recovers from a dropped socket through history when the prompt still finishes', async () => {
    fake.nextFailure = { kind: 'drop_socket_then_finish' };
    const result = await engine.run(txt2img, recorder(), live());
    expect(result.images).toHaveLength(2);
  });

  it('fails with connection_lost when the server dies mid-job', async () => {
    fake.nextFailure = { kind: 'stall' };
    const run = engine.run(txt2img, recorder(), live());
    await expect.poll(() => fake.requests.some((r) => r.path === '/prompt' && r.method === 'POST')).toBe(true);
    await new Promise((r) => setTimeout(r, 30));
    await fake.close();
    await expect(run).rejects.toMatchObject({ code: 'connection_lost' });
    fake = await new FakeComfyUI().start(); // for afterEach
  });

  it('does not submit when the socket drops while inputs upload', async () => {
    fake.dropSocketsOnUpload = true;
    const task = { ...txt2img, kind: 'img2img' as const, image: await gradientPng(32, 32), strength: 0.5 };
    await expect(engine.run(task, recorder(), live())).rejects.toMatchObject({
      code: 'connection_lost',
      message: `Lost the connection to ComfyUI at ${fake.url} before the job was sent`,
    });
    expect(fake.requests.some((r) => r.path === '/prompt' && r.method === 'POST')).toBe(false);
  });

  it('times out a job that never finishes', async () => {
    fake.nextFailure = { kind: 'stall' };
    const impatient = new ComfyUiEngine({ servers: [fake.url], ...fast, idleTimeoutMs: 50, jobTimeoutMs: 300 });
    const err = await impatient.run(txt2img, recorder(), live()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'timeout', message: 'The ComfyUI job did not finish within 300 ms' });
  });

  it('reports malformed replies as engine_failed', async () => {
    fake.corrupt = 'submit';
    await expect(engine.run(txt2img, recorder(), live())).rejects.toMatchObject({
      code: 'engine_failed',
      message: `ComfyUI at ${fake.url} sent an unexpected reply to POST /prompt`,
    });
    fake.corrupt = undefined;
    const next = engine.run(txt2img, recorder(), live());
    fake.corrupt = 'history';
    await expect(next).rejects.toMatchObject({
      code: 'engine_failed',
      message: expect.stringMatching(/unexpected reply to GET \/history/) as string,
    });
  });

  it('interrupts a running prompt by id when cancelled', async () => {
    const controller = new AbortController();
    const events = recorder();
    const slow = { ...txt2img, steps: 200 };
    const run = engine.run(
      slow,
      { onProgress: (e) => (events.onProgress(e), e.logs?.includes('Progress: 2/200') && controller.abort()) },
      controller.signal,
    );
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    const promptId = (
      fake.requests.find((r) => r.path === '/prompt' && r.method === 'POST')?.body as { prompt_id: string }
    ).prompt_id;
    await expect.poll(() => fake.requests.find((r) => r.path === '/interrupt')?.body).toEqual({ prompt_id: promptId });
  });

  it('reports the queue position from the sorted pending list and deletes a pending prompt on cancel', async () => {
    fake.holdQueue = true;
    await submitFiller(fake, '00000000-0000-4000-8000-000000000001');
    await submitFiller(fake, '00000000-0000-4000-8000-000000000002');
    const controller = new AbortController();
    const events = recorder();
    const run = engine.run(txt2img, events, controller.signal);
    await expect.poll(() => events.events.find((e) => e.queuePosition !== undefined)?.queuePosition).toBe(2);
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    const promptId = (
      fake.requests.findLast((r) => r.path === '/prompt' && r.method === 'POST')?.body as { prompt_id: string }
    ).prompt_id;
    await expect
      .poll(() => fake.requests.find((r) => r.path === '/queue' && r.method === 'POST')?.body)
      .toEqual({ delete: [promptId] });
    expect(fake.queueRemaining).toBe(2);
  });
});

describe('ComfyUI engine: several servers', () => {
  it('sends the job to the least busy server and skips unreachable ones', async () => {
    const busy = await new FakeComfyUI().start();
    const idle = await new FakeComfyUI().start();
    const dead = await listen(() => Promise.resolve());
    const deadUrl = dead.url;
    await closeServer(dead.server);
    try {
      busy.holdQueue = true;
      await submitFiller(busy, '00000000-0000-4000-8000-000000000003');
      const engine = new ComfyUiEngine({ servers: [deadUrl, busy.url, idle.url], ...fast });
      const result = await engine.run({ ...txt2img, numImages: 1 }, recorder(), live());
      expect(result.images).toHaveLength(1);
      expect(idle.requests.some((r) => r.path === '/prompt' && r.method === 'POST')).toBe(true);
      expect(busy.requests.filter((r) => r.path === '/prompt' && r.method === 'POST')).toHaveLength(1);
      const nothing = new ComfyUiEngine({ servers: [deadUrl], ...fast });
      await expect(nothing.run(txt2img, recorder(), live())).rejects.toMatchObject({ code: 'engine_unreachable' });
    } finally {
      await Promise.all([busy.close(), idle.close()]);
    }
  });

  it('checks what each server has installed: node classes and model files', async () => {
    const partial = await new FakeComfyUI({ withoutNodes: ['IPAdapterUnifiedLoader', 'IPAdapterAdvanced'] }).start();
    const dead = await listen(() => Promise.resolve());
    await closeServer(dead.server);
    try {
      const engine = new ComfyUiEngine({ servers: [partial.url, dead.url], ...fast });
      const [ok, down] = await engine.checkServers([
        SDXL,
        { id: 'fluxdev', path: 'flux1-dev.safetensors', modelType: 'fluxdev' },
        { id: 'noobaixl', path: 'noobai.safetensors', modelType: 'sdxl' },
      ]);
      expect(ok).toMatchObject({
        url: partial.url,
        reachable: true,
        queueRemaining: 0,
        version: '0.3.64',
        missingNodes: [
          { node: 'IPAdapterUnifiedLoader', source: expect.stringContaining('ComfyUI_IPAdapter_plus') as string },
          { node: 'IPAdapterAdvanced', source: expect.stringContaining('ComfyUI_IPAdapter_plus') as string },
        ],
        missingFiles: [
          { folder: 'checkpoints', file: 'noobai.safetensors', usedBy: 'model noobaixl' },
          { folder: 'controlnet', file: 'CN-anytest_v4-marged.safetensors', usedBy: 'controlnet-anytest' },
        ],
      });
      expect(down).toMatchObject({ url: dead.url, reachable: false, missingNodes: [], missingFiles: [] });
      expect(down!.error).toMatch(/unreachable/);
    } finally {
      await partial.close();
    }
  });

  it('reports a server that is not ComfyUI clearly', async () => {
    const liar = await listen((req, res) => {
      if (req.url === '/prompt' && req.method === 'GET') sendJson(res, 200, { exec_info: { queue_remaining: 0 } });
      else sendJson(res, 200, { unexpected: true });
      return Promise.resolve();
    });
    try {
      const engine = new ComfyUiEngine({ servers: [liar.url], ...fast });
      await expect(engine.run(txt2img, recorder(), live())).rejects.toMatchObject({
        code: 'engine_failed',
        message: `ComfyUI at ${liar.url} sent an unexpected reply to GET /system_stats`,
      });
    } finally {
      await closeServer(liar.server);
    }
  });
});
