import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiEngine } from '../../src/engines/openai/engine.ts';
import { nearestGptSize } from '../../src/engines/openai/protocol.ts';
import type { InpaintTask, Txt2ImgTask } from '../../src/engines/types.ts';
import { FakeOpenAI, OPENAI_KEY } from './fakes/fake-openai.ts';
import { gradientPng, raw, recorder, rectMask, virtualTime } from './helpers.ts';

const live = (): AbortSignal => new AbortController().signal;
const GPT = { id: 'gpt-image-1', path: 'gpt-image-1', modelType: 'gpt' };
/** Fields of the last request the fake received. */
const lastFields = (fake: FakeOpenAI) => fake.calls.at(-1)!.fields;
const txt2img: Txt2ImgTask = {
  kind: 'txt2img',
  model: GPT,
  prompt: 'a manga cover',
  negativePrompt: '',
  width: 768,
  height: 1024,
  steps: 30,
  cfg: 5,
  seed: 9,
  numImages: 2,
  loras: [],
};

describe('OpenAI engine against a fake Images API', () => {
  let fake: FakeOpenAI;
  let engine: OpenAiEngine;
  beforeEach(async () => {
    fake = await new FakeOpenAI().start();
    engine = new OpenAiEngine({ apiKey: OPENAI_KEY, baseUrl: fake.url });
  });
  afterEach(() => fake.close());

  it('streams generations: partial images become previews, results are fitted to the requested size', async () => {
    const events = recorder();
    const result = await engine.run(txt2img, events, live());
    expect(fake.calls[0]!.path).toBe('/v1/images/generations');
    expect(fake.calls[0]!.fields).toMatchObject({
      model: 'gpt-image-1.5',
      size: '1024x1536',
      n: '2',
      stream: 'true',
      partial_images: '2',
    });
    const previews = events.events.filter((e) => e.preview);
    expect(previews).toHaveLength(4);
    expect(previews[0]!.preview!.mime).toBe('image/png');
    expect(result.images).toHaveLength(2);
    for (const image of result.images) {
      expect([image.width, image.height]).toEqual([768, 1024]);
      expect((await sharp(image.bytes).metadata()).width).toBe(768);
    }
    expect(result.metadata).toMatchObject({ engine: 'openai', model: 'gpt-image-1.5' });
    expect(events.events.at(-1)!.progress).toBe(1);
  });

  it('works without streaming too', async () => {
    const plain = new OpenAiEngine({ apiKey: OPENAI_KEY, baseUrl: fake.url, partialImages: 0 });
    const result = await plain.run({ ...txt2img, numImages: 1, width: 1024, height: 1024 }, recorder(), live());
    expect(fake.calls[0]!.fields.stream).toBeUndefined();
    expect([result.images[0]!.width, result.images[0]!.height]).toEqual([1024, 1024]);
  });

  it('inpaints through /edits with a transparent-means-edit mask and keeps unmasked pixels', async () => {
    const image = await gradientPng(120, 80);
    const task: InpaintTask = {
      ...txt2img,
      kind: 'inpaint',
      numImages: 1,
      image,
      mask: await rectMask(120, 80, { x: 20, y: 20, w: 40, h: 30 }),
      strength: 1,
      maskBlur: 0,
    };
    const result = await engine.run(task, recorder(), live());
    const call = fake.calls[0]!;
    expect(call.path).toBe('/v1/images/edits');
    expect(call.fields).toMatchObject({ model: 'gpt-image-1.5', size: '1536x1024', prompt: 'a manga cover' });
    const mask = await raw(call.files.mask!);
    expect(mask.channels).toBe(4);
    expect(mask.data[(30 * 120 + 30) * 4 + 3]).toBe(0); // inside: transparent = edit
    expect(mask.data[(5 * 120 + 5) * 4 + 3]).toBe(255);
    const out = await raw(result.images[0]!.bytes);
    const input = await raw(image);
    expect([out.width, out.height]).toEqual([120, 80]);
    expect(out.data.subarray(0, 120 * 3 * 20).equals(input.data.subarray(0, 120 * 3 * 20))).toBe(true);
    const centre = (35 * 120 + 40) * 3;
    expect(out.data.subarray(centre, centre + 3).equals(input.data.subarray(centre, centre + 3))).toBe(false);
  });

  it('reports moderation_blocked clearly, from the HTTP reply and from the stream', async () => {
    await expect(engine.run({ ...txt2img, prompt: 'something forbidden' }, recorder(), live())).rejects.toMatchObject({
      code: 'moderation_blocked',
      message: 'OpenAI blocked the request: Your request was rejected by the safety system.',
    });
    fake.nextFailure = 'stream_error';
    await expect(engine.run(txt2img, recorder(), live())).rejects.toMatchObject({ code: 'moderation_blocked' });
  });

  it('maps a bad key, a bad request, a server error and a dropped stream', async () => {
    const wrongKey = new OpenAiEngine({ apiKey: 'sk-wrong', baseUrl: fake.url });
    await expect(wrongKey.run(txt2img, recorder(), live())).rejects.toMatchObject({
      code: 'engine_auth',
      message: 'OpenAI rejected the API key (HTTP 401): Incorrect API key provided.',
    });
    const retired = new OpenAiEngine({ apiKey: OPENAI_KEY, baseUrl: fake.url, model: 'gpt-image-1' });
    await expect(retired.run(txt2img, recorder(), live())).rejects.toMatchObject({
      code: 'engine_rejected',
      message: "OpenAI rejected the request: Invalid value for 'model': 'gpt-image-1'.",
    });
    // A 500 is retried by the client (twice at most) and the job goes on.
    fake.nextFailure = 'server_error';
    const calls = fake.calls.length;
    await expect(virtualTime(() => engine.run(txt2img, recorder(), live()))).resolves.toMatchObject({});
    expect(fake.calls.length - calls).toBe(2);
    fake.nextFailure = 'drop_stream';
    await expect(engine.run(txt2img, recorder(), live())).rejects.toMatchObject({ code: 'connection_lost' });
  });

  it('cancels by aborting the request, and times out', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(engine.run(txt2img, recorder(), controller.signal)).rejects.toMatchObject({ code: 'cancelled' });
    // A server that accepts the request and never answers.
    const stalled = createServer(() => undefined);
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const port = (stalled.address() as AddressInfo).port;
    try {
      const slow = new OpenAiEngine({ apiKey: OPENAI_KEY, baseUrl: `http://127.0.0.1:${port}/v1`, jobTimeoutMs: 100 });
      await expect(slow.run(txt2img, recorder(), live())).rejects.toMatchObject({ code: 'timeout' });
      const cancel = new AbortController();
      const run = slow.run(txt2img, recorder(), cancel.signal);
      setTimeout(() => cancel.abort(), 20);
      await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    } finally {
      stalled.closeAllConnections();
      stalled.close();
    }
  });

  it('finding 8: honours retry-after on a 429, then succeeds', async () => {
    fake.rateLimit = 1;
    fake.retryAfterSeconds = 2;
    // Real time here: on a virtual clock that ticks while sockets settle, a loaded machine stretched the gap.
    const result = await engine.run({ ...txt2img, numImages: 1 }, recorder(), live());
    expect(result.images).toHaveLength(1);
    const [first, second] = fake.calls.slice(-2);
    // The client's own first backoff is at most 0.5 s; the server asked for 2 s, and nobody waits twice that.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2000);
    expect(second!.at - first!.at).toBeLessThan(4000);
    fake.retryAfterSeconds = 3;
    fake.rateLimit = 5;
    await expect(virtualTime(() => engine.run(txt2img, recorder(), live()))).rejects.toMatchObject({
      code: 'engine_rate_limited',
    });
  });

  it('finding 8: a current model by default, input_fidelity high on edits, any size on gpt-image-2', async () => {
    const image = await gradientPng(64, 48);
    const task: InpaintTask = {
      ...txt2img,
      kind: 'inpaint',
      numImages: 1,
      image,
      mask: await rectMask(64, 48, { x: 8, y: 8, w: 20, h: 20 }),
      strength: 1,
      maskBlur: 2,
    };
    const result = await engine.run(task, recorder(), live());
    expect(result.metadata.model).toBe('gpt-image-1.5');
    expect(lastFields(fake)).toMatchObject({ model: 'gpt-image-1.5', input_fidelity: 'high', size: '1536x1024' });
    const two = new OpenAiEngine({ apiKey: OPENAI_KEY, baseUrl: fake.url, model: 'gpt-image-2' });
    await two.run(task, recorder(), live());
    expect(lastFields(fake).input_fidelity).toBeUndefined();
    await two.run({ ...txt2img, width: 1600, height: 900, numImages: 1 }, recorder(), live());
    expect(lastFields(fake).size).toBe('1600x896');
  });

  it('finding 8: reports a stream error without the {error} wrapper in its own words', async () => {
    fake.nextFailure = 'stream_error_bare';
    await expect(engine.run(txt2img, recorder(), live())).rejects.toMatchObject({
      code: 'engine_failed',
      message: 'OpenAI stopped the image: Image generation failed. (image_generation_failed)',
    });
  });

  it('picks the nearest of the three sizes and supports only gpt models', () => {
    expect(nearestGptSize(512, 512).size).toBe('1024x1024');
    expect(nearestGptSize(1536, 768).size).toBe('1536x1024');
    expect(nearestGptSize(600, 1000).size).toBe('1024x1536');
    expect(engine.supports(txt2img)).toBe(true);
    expect(engine.supports({ ...txt2img, model: { id: 'sdxl', path: 'x', modelType: 'sdxl' } })).toBe(false);
    expect(engine.supports({ kind: 'upscale', image: Buffer.alloc(0), scale: 2 })).toBe(false);
  });
});
