import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FalEngine } from '../../src/engines/fal/engine.ts';
import { progressFromLog } from '../../src/engines/fal/protocol.ts';
import type { InpaintTask, Txt2ImgTask, VideoTask } from '../../src/engines/types.ts';
import { FAL_KEY, FakeFal } from './fakes/fake-fal.ts';
import { gradientPng, raw, recorder, rectMask, virtualTime } from './helpers.ts';

const live = (): AbortSignal => new AbortController().signal;
const FLUX_DEV = { id: 'fluxdev', path: 'fal-ai/flux/dev', modelType: 'fluxdev' };
const FLUX_PRO = { id: 'fluxpro', path: 'fal-ai/flux-pro', modelType: 'fluxpro' };

const txt2img: Txt2ImgTask = {
  kind: 'txt2img',
  model: FLUX_DEV,
  prompt: 'manga panel',
  negativePrompt: '',
  width: 96,
  height: 64,
  steps: 28,
  cfg: 3.5,
  seed: 11,
  numImages: 2,
  loras: [],
};

describe('fal engine against a fake queue', () => {
  let fake: FakeFal;
  let engine: FalEngine;
  beforeEach(async () => {
    fake = await new FakeFal().start();
    engine = new FalEngine({ apiKey: FAL_KEY, baseUrl: fake.url, pollIntervalMs: 2, requestTimeoutMs: 2_000 });
  });
  afterEach(() => fake.close());

  /** Queue submissions, without the storage uploads that precede them. */
  const submits = () => fake.requests.filter((r) => r.method === 'POST' && !r.path.startsWith('/storage/'));
  const submitted = () => submits()[0]!;
  const storageUrl = () => new RegExp(`^${fake.url}/files/[0-9a-f-]+-`);

  it('submits FLUX dev, follows queue position and logs, and downloads the images', async () => {
    const events = recorder();
    const result = await engine.run(txt2img, events, live());
    expect(submitted().path).toBe('/fal-ai/flux/dev');
    expect(submitted().auth).toBe(`Key ${FAL_KEY}`);
    expect(submitted().body).toMatchObject({
      prompt: 'manga panel',
      image_size: { width: 96, height: 64 },
      num_inference_steps: 28,
      guidance_scale: 3.5,
      num_images: 2,
      seed: 11,
    });
    // Status polls drop the endpoint sub-path: only owner/alias.
    expect(fake.requests.some((r) => /^\/fal-ai\/flux\/requests\/[0-9a-f-]+\/status\?logs=1$/.test(r.path))).toBe(true);
    expect(events.events.filter((e) => e.queuePosition !== undefined).map((e) => e.queuePosition)).toEqual([2, 1, 0]);
    expect(events.logs()).toEqual(expect.arrayContaining(['step 1/3', 'step 2/3', 'step 3/3']));
    expect(events.logs().filter((l) => l === 'step 1/3')).toHaveLength(1);
    expect(events.events.at(-1)?.progress).toBe(1);
    expect(result.images.map((i) => [i.width, i.height, i.mime, i.seed])).toEqual([
      [96, 64, 'image/png', 11],
      [96, 64, 'image/png', 11],
    ]);
    expect(result.metadata).toEqual({ engine: 'fal', model: 'fluxdev' });
  });

  it('routes LoRAs to flux-lora by URL and refuses a LoRA without one', async () => {
    await engine.run(
      { ...txt2img, loras: [{ name: 'ink', url: 'https://example.com/ink.safetensors', strength: 0.7 }] },
      recorder(),
      live(),
    );
    expect(submitted().path).toBe('/fal-ai/flux-lora');
    expect(submitted().body?.loras).toEqual([{ path: 'https://example.com/ink.safetensors', scale: 0.7 }]);
    await expect(
      engine.run({ ...txt2img, loras: [{ name: 'ink', strength: 1 }] }, recorder(), live()),
    ).rejects.toMatchObject({
      code: 'validation',
      message: 'LoRA ink has no download URL, which fal needs',
    });
  });

  it('inpaints with FLUX Pro fill and keeps unmasked pixels exactly', async () => {
    const image = await gradientPng(64, 48);
    const task: InpaintTask = {
      ...txt2img,
      kind: 'inpaint',
      model: FLUX_PRO,
      numImages: 1,
      image,
      mask: await rectMask(64, 48, { x: 8, y: 8, w: 20, h: 20 }),
      strength: 1,
      maskBlur: 4,
    };
    const result = await engine.run(task, recorder(), live());
    expect(submitted().path).toBe('/fal-ai/flux-pro/v1/fill');
    expect(String(submitted().body?.mask_url)).toMatch(storageUrl());
    const out = await raw(result.images[0]!.bytes);
    const input = await raw(image);
    expect([out.width, out.height]).toEqual([64, 48]);
    expect(out.data.subarray(0, 64 * 3 * 8).equals(input.data.subarray(0, 64 * 3 * 8))).toBe(true);
    const centre = (18 * 64 + 18) * 3;
    expect(out.data.subarray(centre, centre + 3).equals(input.data.subarray(centre, centre + 3))).toBe(false);
  });

  it('edits with Kontext max and nano-banana on their own endpoints', async () => {
    const image = await gradientPng(40, 30);
    await engine.run({ kind: 'edit', model: 'kontext-max', prompt: 'night', image, seed: 3 }, recorder(), live());
    expect(submitted().path).toBe('/fal-ai/flux-pro/kontext/max');
    const banana = await engine.run(
      { kind: 'edit', model: 'nano-banana', prompt: 'night', image, seed: 3 },
      recorder(),
      live(),
    );
    const last = submits().at(-1)!;
    expect(last.path).toBe('/fal-ai/nano-banana/edit');
    expect((last.body?.image_urls as string[])[0]).toMatch(storageUrl());
    expect([banana.images[0]!.width, banana.images[0]!.height]).toEqual([40, 30]);
  });

  it('img2img sends the input at the requested size, since the endpoint has no image_size', async () => {
    const result = await engine.run(
      { ...txt2img, kind: 'img2img', numImages: 1, image: await gradientPng(40, 30), strength: 0.6 },
      recorder(),
      live(),
    );
    expect(submitted().path).toBe('/fal-ai/flux/dev/image-to-image');
    expect(submitted().body).toMatchObject({ strength: 0.6 });
    expect(submitted().body?.image_size).toBeUndefined();
    expect([result.images[0]!.width, result.images[0]!.height]).toEqual([96, 64]);
  });

  it('upscales with ESRGAN', async () => {
    const result = await engine.run(
      { kind: 'upscale', image: await gradientPng(40, 30), scale: 2 },
      recorder(),
      live(),
    );
    expect(submitted().path).toBe('/fal-ai/esrgan');
    expect([result.images[0]!.width, result.images[0]!.height]).toEqual([80, 60]);
  });

  it('makes videos with the five models, end frames only where the model takes them', async () => {
    const image = await gradientPng(32, 32);
    const video = (model: VideoTask['model'], extra: Partial<VideoTask> = {}): VideoTask => ({
      kind: 'video',
      model,
      prompt: 'she turns',
      image,
      durationSeconds: 5,
      seed: 2,
      ...extra,
    });
    const result = await engine.run(video('kling1.6_i2v', { endImage: image }), recorder(), live());
    expect(result.videos?.[0]?.mime).toBe('video/mp4');
    expect(result.videos?.[0]?.bytes.subarray(4, 8).toString()).toBe('ftyp');
    expect(submitted().path).toBe('/fal-ai/kling-video/v1.6/pro/image-to-video');
    expect(submitted().body).toMatchObject({ duration: '5' });
    expect(String(submitted().body?.tail_image_url)).toMatch(storageUrl());
    await expect(engine.run(video('kling2.0_i2v', { endImage: image }), recorder(), live())).rejects.toMatchObject({
      code: 'validation',
    });
    await expect(engine.run(video('kling2.0_i2v', { durationSeconds: 7 }), recorder(), live())).rejects.toMatchObject({
      message: 'Kling videos last 5 or 10 seconds',
    });
    await engine.run(video('vidu_q1', { endImage: image }), recorder(), live());
    await engine.run(video('wan_i2v'), recorder(), live());
    await engine.run(video('wan22_i2v'), recorder(), live());
    const paths = submits().map((r) => r.path);
    expect(paths.slice(1)).toEqual([
      '/fal-ai/vidu/q1/start-end-to-video',
      '/fal-ai/wan-i2v',
      '/fal-ai/wan/v2.2-a14b/image-to-video/turbo',
    ]);
    expect(submits()[2]!.body).toMatchObject({
      num_frames: 81,
      frames_per_second: 16,
    });
  });

  it('turns a 422 into a validation error naming the field', async () => {
    fake.nextFailure = 'validation';
    await expect(engine.run(txt2img, recorder(), live())).rejects.toMatchObject({
      code: 'validation',
      message: 'fal rejected the input: prompt: field required',
    });
  });

  it('maps request timeouts (after the client retried the 504 three times), runner failures, the safety checker and a bad key', async () => {
    fake.nextFailure = 'request_timeout';
    await expect(virtualTime(() => engine.run(txt2img, recorder(), live()))).rejects.toMatchObject({
      code: 'timeout',
      message: 'fal timed out: Request timed out',
    });
    expect(fake.requests.filter((r) => /\/requests\/[^/]+$/.test(r.path))).toHaveLength(4);
    fake.nextFailure = 'server_error';
    await expect(engine.run(txt2img, recorder(), live())).rejects.toMatchObject({
      code: 'engine_failed',
      message: 'fal failed to run the job: Runner crashed',
    });
    fake.nextFailure = 'nsfw';
    await expect(engine.run(txt2img, recorder(), live())).rejects.toMatchObject({ code: 'moderation_blocked' });
    const wrongKey = new FalEngine({ apiKey: 'nope', baseUrl: fake.url, pollIntervalMs: 2 });
    await expect(wrongKey.run(txt2img, recorder(), live())).rejects.toMatchObject({
      code: 'engine_auth',
      message: 'fal rejected the API key (HTTP 401)',
    });
  });

  it('cancels through the cancel URL when the signal aborts', async () => {
    fake.nextFailure = 'stuck';
    const controller = new AbortController();
    const run = engine.run(
      txt2img,
      { onProgress: (e) => e.logs?.includes('step 1/3') && controller.abort() },
      controller.signal,
    );
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    await expect
      .poll(() => fake.requests.find((r) => r.method === 'PUT')?.path)
      .toMatch(/^\/fal-ai\/flux\/requests\/[0-9a-f-]+\/cancel$/);
  });

  it('times out a job that never completes, and cancels it on fal', async () => {
    fake.nextFailure = 'stuck';
    const impatient = new FalEngine({ apiKey: FAL_KEY, baseUrl: fake.url, pollIntervalMs: 2, jobTimeoutMs: 150 });
    await expect(impatient.run(txt2img, recorder(), live())).rejects.toMatchObject({
      code: 'timeout',
      message: 'The fal job did not finish within 150 ms',
    });
    await expect.poll(() => fake.requests.some((r) => r.method === 'PUT')).toBe(true);
  });

  it('fails with connection_lost when status connections keep dropping, and engine_failed on a malformed status', async () => {
    fake.nextFailure = 'drop';
    // The client retries a dropped status request five times, with backoff (about 31 s of real time).
    await expect(virtualTime(() => engine.run(txt2img, recorder(), live()))).rejects.toMatchObject({
      code: 'connection_lost',
    });
    const polls = fake.requests.filter((r) => r.path.includes('/status')).length;
    expect(polls).toBe(6);
    fake.nextFailure = 'garbage';
    await expect(engine.run(txt2img, recorder(), live())).rejects.toMatchObject({
      code: 'engine_failed',
      message: 'fal sent an unexpected reply to GET status',
    });
  });

  it('finding 7: retries a 429 with the client backoff and then succeeds', async () => {
    fake.rateLimitSubmits = 1;
    const result = await virtualTime(() => engine.run({ ...txt2img, numImages: 1 }, recorder(), live()));
    expect(result.images).toHaveLength(1);
    const attempts = fake.requests.filter((r) => r.method === 'POST' && r.path === '/fal-ai/flux/dev');
    expect(attempts).toHaveLength(2);
    // First retry after 1 s ± 25 % jitter (retry.js calculateBackoffDelay), measured on the virtual clock.
    const gap = attempts[1]!.at - attempts[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(750);
    expect(gap).toBeLessThanOrEqual(1800);
    fake.rateLimitSubmits = 10;
    await expect(virtualTime(() => engine.run(txt2img, recorder(), live()))).rejects.toMatchObject({
      code: 'engine_rate_limited',
    });
  });

  it('finding 7: uploads images to fal storage and sends URLs, not inline base64', async () => {
    const image = await gradientPng(512, 384);
    await engine.run({ kind: 'upscale', image, scale: 2 }, recorder(), live());
    const initiate = fake.requests.find((r) => r.path === '/storage/upload/initiate?storage_type=fal-cdn-v3');
    expect(initiate?.body).toMatchObject({ content_type: 'image/png' });
    expect(initiate?.auth).toBe(`Key ${FAL_KEY}`);
    const put = fake.requests.find((r) => r.method === 'PUT' && r.path.startsWith('/upload/'));
    expect(put?.size).toBeGreaterThan(10_000);
    const url = String(submitted().body?.image_url);
    expect(url).toMatch(storageUrl());
    expect((await raw(fake.fileAt(url)!)).data.equals((await raw(image)).data)).toBe(true);
    expect(submitted().size).toBeLessThan(1_000);
  });

  it('says what it supports', () => {
    expect(engine.supports(txt2img)).toBe(true);
    expect(engine.supports({ ...txt2img, model: { id: 'sdxl', path: 'x', modelType: 'sdxl' } })).toBe(false);
    expect(
      engine.supports({
        ...txt2img,
        controlnets: [{ model: 'controlnet-openpose', image: Buffer.alloc(0), strength: 1 }],
      }),
    ).toBe(false);
  });
});

describe('fal log progress', () => {
  it('reads n/m and percentages, ignores the rest', () => {
    expect(progressFromLog('step 5/20')).toBe(0.25);
    expect(progressFromLog(' 40%|████      | 8/20')).toBe(0.4);
    expect(progressFromLog('Loading model')).toBeUndefined();
    expect(progressFromLog('9/3 nonsense')).toBeUndefined();
  });
});
