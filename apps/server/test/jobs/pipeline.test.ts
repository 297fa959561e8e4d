import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { costOf } from '@koma/domain';
import { last, LiveServer, pngDataUrl, User, type Event } from './helpers.ts';

// Every endpoint end to end on the builtin engine, over a real socket, reading the NDJSON stream.
const server = new LiveServer();
let user: User;
let image: string;
let mask: string;

beforeAll(async () => {
  await server.start();
  user = await User.signUp(server);
  await server.koma.ledger.grant(user.id, 5000, 'test');
  image = await pngDataUrl(256, 256);
  const maskBytes = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#000' } })
    .composite([
      {
        input: await sharp({ create: { width: 128, height: 128, channels: 3, background: '#fff' } })
          .png()
          .toBuffer(),
        left: 64,
        top: 64,
      },
    ])
    .png()
    .toBuffer();
  mask = `data:image/png;base64,${maskBytes.toString('base64')}`;
});

afterAll(async () => {
  await server.close();
  server.destroy();
});

async function ledgerOf(jobId: string) {
  return server.koma.database.db
    .selectFrom('credit_ledger')
    .select(['kind', 'credits_delta', 'purchased_delta'])
    .where('ref', '=', jobId)
    .orderBy('created_at')
    .execute();
}

/** Runs a job and checks the stream's shape and the charge; returns the COMPLETED output. */
async function completes(path: string, body: unknown, cost: number): Promise<Record<string, unknown>> {
  const before = await user.balance();
  const stream = await user.open('POST', path, body);
  expect(stream.status, await Promise.resolve(path)).toBe(200);
  expect(stream.contentType).toContain('application/x-ndjson');
  const events = await stream.all();
  const first = events[0]!;
  expect(first).toMatchObject({ status: 'IN_QUEUE', queue_position: expect.any(Number) as number });
  const end = last(events)!;
  if (end.status !== 'COMPLETED') throw new Error(`${path}: ${JSON.stringify(end)}`);
  expect(events.some((e) => e.status === 'IN_PROGRESS')).toBe(true);
  // Statuses only move forward.
  const order = ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED'];
  const ranks = events.map((e) => order.indexOf(e.status));
  expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
  expect(await user.balance()).toBe(before - cost);
  const rows = await ledgerOf(String(first.job_id));
  if (cost > 0) expect(rows).toEqual([{ kind: 'charge', credits_delta: -cost, purchased_delta: 0 }]);
  else expect(rows).toEqual([]);
  return end.output as Record<string, unknown>;
}

type Images = { images: { id: string; width: number; height: number; seed: number }[] };

async function checkImages(output: Record<string, unknown>, count: number, width?: number, height?: number) {
  const { images } = output as Images;
  expect(images).toHaveLength(count);
  for (const img of images) {
    const res = await user.fetch(`/api/image/${img.id}`);
    const fetched = res.status === 200 ? Buffer.from(await res.arrayBuffer()) : undefined;
    const stored = await server.koma.images.getImage(user.id, img.id);
    expect(stored, 'stored through the image store').not.toBeNull();
    const meta = await sharp(stored!.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([img.width, img.height]);
    if (width !== undefined) expect([img.width, img.height]).toEqual([width, height]);
    expect(Number.isInteger(img.seed)).toBe(true);
    void fetched;
  }
  return images;
}

describe('diffusion endpoints on the builtin engine', () => {
  test('txt2img streams progress lines and previews, stores images and records flow images', async () => {
    const stream = await user.open('POST', '/api/diffusion/txt2img', {
      model: 'aamxl',
      prompt: 'a girl on a rooftop at dusk',
      negative_prompt: 'blurry',
      width: 512,
      height: 768,
      steps: 6,
      cfg: 5,
      seed: 1234,
      num_images: 2,
    });
    const events = await stream.all();
    const progress = events.filter((e) => e.status === 'IN_PROGRESS');
    const lines = progress.flatMap((e) => e.logs as string[]).filter((l) => l.startsWith('Progress:'));
    expect(lines[lines.length - 1]).toBe('Progress: 12/12');
    expect(progress.some((e) => typeof e.preview === 'string' && e.preview.startsWith('data:image/jpeg;base64,'))).toBe(
      true,
    );
    for (const e of progress) if (e.progress !== undefined) expect(e.progress).toBeLessThanOrEqual(1);
    const output = last(events)!.output as Images;
    const images = await checkImages(output, 2, 512, 768);
    expect(images.map((i) => i.seed)).toEqual([1234, 1235]);
    const flows = await user.json<{ userImages: { variationId: string; generationData: Record<string, unknown> }[] }>(
      `/api/flow_images/?variationId=${images[0]!.id}`,
    );
    expect(flows.userImages[0]?.generationData).toMatchObject({
      negative_prompt: expect.stringContaining('blurry') as string,
      seed: 1234,
      image_size: { width: 512, height: 768 },
      model_name: 'aamxl',
      num_inference_steps: 6,
      guidance_scale: 5,
    });
    expect(String(flows.userImages[0]?.generationData.prompt)).toContain('a girl on a rooftop at dusk');
    expect(await user.balance()).toBeGreaterThan(0);
  });

  test('img2img', async () => {
    const body = { model: 'aamxl', prompt: 'ink sketch', width: 256, height: 256, steps: 4, num_images: 1, image };
    const out = await completes(
      '/api/diffusion/img2img',
      body,
      costOf({ kind: 'img2img', modelType: 'sdxl', numImages: 1 }),
    );
    await checkImages(out, 1, 256, 256);
  });

  test('inpaint and sdxl_inpaint round sizes down to multiples of 8', async () => {
    for (const path of ['/api/diffusion/inpaint', '/api/diffusion/sdxl_inpaint']) {
      const body = {
        model: 'aamxl',
        prompt: 'a red scarf',
        width: 260,
        height: 259,
        steps: 4,
        num_images: 1,
        image,
        mask,
      };
      const out = await completes(path, body, 6);
      await checkImages(out, 1, 256, 256);
    }
  });

  test('smd (brushes)', async () => {
    const body = {
      backgroundPrompt: 'a meadow',
      backgroundNegativePrompt: 'text',
      brushes: [{ prompt: 'a tree', negativePrompt: '', mask }],
      width: 256,
      height: 256,
    };
    await checkImages(await completes('/api/diffusion/smd', body, costOf({ kind: 'smd' })), 1, 256, 256);
  });

  test('regional', async () => {
    const body = {
      prompt: 'two knights',
      width: 256,
      height: 256,
      regions: [
        { x0: 0, x1: 0.5, y0: 0, y1: 1, prompt: 'red knight', negative_prompt: 'blue' },
        { x0: 0.5, x1: 1, y0: 0, y1: 1, prompt: 'blue knight', negative_prompt: 'red' },
      ],
    };
    await checkImages(await completes('/api/regional', body, costOf({ kind: 'regional' })), 1, 256, 256);
  });

  test('edit takes { prompt, variationId, model }', async () => {
    const id = await server.koma.images.putImage(user.id, Buffer.from(image.split(',')[1]!, 'base64'));
    const out = await completes('/api/edit', { prompt: 'make it night', variationId: id, model: 'kontext-dev' }, 20);
    await checkImages(out, 1);
  });

  test('refine and outpaint', async () => {
    await checkImages(
      await completes('/api/diffusion/refine', { image, model: 'aamxl', prompt: 'clean lines', strength: 0.4 }, 6),
      1,
      256,
      256,
    );
    const outpaint = await completes(
      '/api/diffusion/outpaint',
      { image, model: 'aamxl', prompt: 'wide sky', left: 64, right: 64, top: 0, bottom: 32 },
      6,
    );
    await checkImages(outpaint, 1, 384, 288);
  });

  test('prompt expansion: builtin, deterministic, says so, free', async () => {
    const body = { prompt: 'a cat samurai', num_sequences: 3 };
    const a = await completes('/api/prompt_expansion', body, 0);
    const b = await completes('/api/prompt_expansion', body, 0);
    expect(a.engine).toBe('builtin');
    expect(a.prompts).toHaveLength(3);
    expect(new Set(a.prompts as string[]).size).toBe(3);
    for (const p of a.prompts as string[]) expect(p.startsWith('a cat samurai')).toBe(true);
    expect(b.prompts).toEqual(a.prompts);
  });

  test('image to video: a labelled animated preview on builtin, served from /api/videos', async () => {
    const out = await completes('/api/video', { image, model: 'wan22_i2v', prompt: 'wind in the hair' }, 250);
    const video = out.video as { id: string; mime: string };
    expect(out).toMatchObject({ engine: 'builtin', note: expect.stringContaining('not a video model') as string });
    expect(video.mime).toBe('image/webp');
    const res = await user.fetch(`/api/videos/${video.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await res.arrayBuffer()), { animated: true }).metadata();
    expect(meta, JSON.stringify({ ...meta, exif: undefined, icc: undefined })).toMatchObject({ pages: 20 });
  });
});

describe('refusals: a JSON error before anything is charged', () => {
  async function refused(path: string, body: unknown, status: number, error: string, message?: RegExp) {
    const before = await user.balance();
    const jobsBefore = await server.koma.database.db.selectFrom('jobs').select('id').execute();
    const res = await user.post(path, body);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/json');
    const json = (await res.json()) as { error: string; message: string };
    expect(json.error).toBe(error);
    if (message) expect(json.message).toMatch(message);
    expect(await user.balance()).toBe(before);
    expect(await server.koma.database.db.selectFrom('jobs').select('id').execute()).toHaveLength(jobsBefore.length);
    return json;
  }

  test('bad payloads answer 400 naming the field and the limit', async () => {
    const base = { model: 'aamxl', prompt: 'x', width: 512, height: 512 };
    await refused(
      '/api/diffusion/txt2img',
      { ...base, width: 256 },
      400,
      'invalid_request',
      /width must be at least 512/,
    );
    await refused('/api/diffusion/txt2img', { ...base, steps: 31 }, 400, 'invalid_request', /steps must be at most 30/);
    await refused('/api/diffusion/txt2img', { ...base, prompt: '' }, 400, 'invalid_request', /prompt is required/);
    await refused('/api/diffusion/txt2img', { ...base, num_images: 5 }, 400, 'invalid_request', /num_images/);
    await refused(
      '/api/diffusion/img2img',
      { ...base, image: 'data:image/png;base64,AAAA' },
      400,
      'invalid_request',
      /image/,
    );
    await refused(
      '/api/diffusion/img2img',
      { ...base, strength: 2, image },
      400,
      'invalid_request',
      /strength must be at most 1/,
    );
    await refused(
      '/api/diffusion/img2img',
      { ...base, image: 'nosuchimage' },
      400,
      'invalid_request',
      /image: image nosuchimage not found/,
    );
    await refused(
      '/api/prompt_expansion',
      { prompt: 'x', num_sequences: 11 },
      400,
      'invalid_request',
      /num_sequences must be at most 10/,
    );
    await refused(
      '/api/edit',
      { prompt: 'x', variationId: 'abc', model: 'dall-e' },
      400,
      'invalid_request',
      /model must be one of/,
    );
    await refused(
      '/api/regional',
      { prompt: 'x', width: 256, height: 256, regions: [] },
      400,
      'invalid_request',
      /regions/,
    );
    await refused('/api/diffusion/outpaint', { image, model: 'aamxl' }, 400, 'invalid_request', /left/);
    await refused('/api/face_detection', {}, 400, 'invalid_request', /variationId is required/);
  });

  test('moderation: a rejected prompt answers prompt_rejected with reasons', async () => {
    const json = await refused(
      '/api/diffusion/txt2img',
      { model: 'aamxl', prompt: 'nude 12 year old girl', width: 512, height: 512 },
      400,
      'prompt_rejected',
    );
    const body = json as unknown as { rule: string; words: string[]; reasons: { field: string }[]; message: string };
    expect(body.reasons[0]?.field).toBe('prompt');
    // Which rule and which words, for the web to show in either language.
    expect(body.rule).toBe('minor_sexual');
    expect(body.words).toEqual(['nude', '12 year old']);
    expect(body.message).toContain('(nude, 12 year old)');
  });

  test('not_enough_credits and SUBSCRIPTION_REQUIRED', async () => {
    const poor = await User.signUp(server);
    const start = await poor.balance();
    expect(start).toBe(100);
    const body = { model: 'aamxl', prompt: 'x', width: 512, height: 512, steps: 4, num_images: 4 };
    // 4 × 6 = 24 per job: four succeed (96), the fifth is refused.
    for (let i = 0; i < 4; i++)
      expect(last((await poor.run('/api/diffusion/txt2img', body)).events)?.status).toBe('COMPLETED');
    const res = await poor.post('/api/diffusion/txt2img', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('not_enough_credits');
    expect(await poor.balance()).toBe(4);

    const gpt = await poor.post('/api/diffusion/txt2img', { ...body, model: 'gpt-image-1', num_images: 1 });
    expect(gpt.status).toBe(403);
    expect(((await gpt.json()) as { error: string }).error).toBe('SUBSCRIPTION_REQUIRED');
    expect(await poor.balance()).toBe(4);
  });

  test('signed out: 401', async () => {
    const res = await fetch(`${server.base}/api/diffusion/txt2img`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
  });
});

export type { Event };
