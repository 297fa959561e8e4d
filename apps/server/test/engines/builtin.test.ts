import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BuiltinEngine } from '../../src/engines/builtin/engine.ts';
import { EngineError } from '../../src/engines/errors.ts';
import type { Img2ImgTask, InpaintTask, OutpaintTask, Txt2ImgTask } from '../../src/engines/types.ts';
import { SDXL, gradientPng, raw, recorder, rectMask } from './helpers.ts';

const engine = new BuiltinEngine();
const live = (): AbortSignal => new AbortController().signal;

function txt2img(over: Partial<Txt2ImgTask> = {}): Txt2ImgTask {
  return {
    kind: 'txt2img',
    model: SDXL,
    prompt: 'manga panel, girl running in the rain, screentone',
    negativePrompt: 'lowres',
    width: 96,
    height: 64,
    steps: 8,
    cfg: 6,
    seed: 42,
    numImages: 1,
    loras: [],
    ...over,
  };
}

describe('builtin engine: txt2img', () => {
  it('gives the same bytes for the same seed and different bytes for another seed', async () => {
    const a = await engine.run(txt2img(), recorder(), live());
    const b = await engine.run(txt2img(), recorder(), live());
    const c = await engine.run(txt2img({ seed: 43 }), recorder(), live());
    expect(a.images[0]!.bytes.equals(b.images[0]!.bytes)).toBe(true);
    expect(a.images[0]!.bytes.equals(c.images[0]!.bytes)).toBe(false);
  });

  it('makes the requested count at the requested size, one seed per image, labelled as not a diffusion model', async () => {
    const result = await engine.run(txt2img({ width: 120, height: 200, numImages: 3 }), recorder(), live());
    expect(result.images).toHaveLength(3);
    for (const [i, image] of result.images.entries()) {
      const meta = await sharp(image.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 120, 200]);
      expect([image.width, image.height, image.seed, image.mime]).toEqual([120, 200, 42 + i, 'image/png']);
    }
    expect(new Set(result.images.map((i) => i.bytes.toString('base64'))).size).toBe(3);
    expect(result.metadata).toMatchObject({ engine: 'builtin', model: SDXL.id });
    expect(result.metadata.note).toMatch(/not a diffusion model/);
  });

  it('lets the prompt steer the palette: a black-and-white prompt has no colour', async () => {
    const mono = await engine.run(txt2img({ prompt: 'black and white, lineart' }), recorder(), live());
    const { data } = await raw(mono.images[0]!.bytes);
    let maxSpread = 0;
    for (let i = 0; i < data.length; i += 3) {
      maxSpread = Math.max(
        maxSpread,
        Math.max(data[i]!, data[i + 1]!, data[i + 2]!) - Math.min(data[i]!, data[i + 1]!, data[i + 2]!),
      );
    }
    expect(maxSpread).toBeLessThanOrEqual(2);
    const red = await engine.run(txt2img({ prompt: 'red fire sunset' }), recorder(), live());
    const stats = await sharp(red.images[0]!.bytes).stats();
    expect(stats.channels[0]!.mean).toBeGreaterThan(stats.channels[2]!.mean);
  });

  it('reports Progress: n/m over the whole job and sends JPEG previews', async () => {
    const events = recorder();
    await engine.run(txt2img({ steps: 5, numImages: 2 }), events, live());
    expect(events.logs()).toEqual(Array.from({ length: 10 }, (_, i) => `Progress: ${i + 1}/10`));
    expect(events.events.at(-1)!.progress).toBe(1);
    const previews = events.events.flatMap((e) => (e.preview ? [e.preview] : []));
    expect(previews.length).toBeGreaterThanOrEqual(2);
    expect(previews[0]!.mime).toBe('image/jpeg');
    expect((await sharp(previews[0]!.bytes).metadata()).format).toBe('jpeg');
  });

  it('stops with a cancelled error when the signal aborts mid-job', async () => {
    const controller = new AbortController();
    const events = recorder();
    const slow = new BuiltinEngine({ stepDelayMs: 5 });
    const run = slow.run(txt2img({ steps: 30, numImages: 4 }), events, controller.signal);
    setTimeout(() => controller.abort(), 30);
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    expect(events.logs().length).toBeLessThan(120);
  });

  it('rejects bad sizes and counts with validation errors', async () => {
    await expect(engine.run(txt2img({ width: 10 }), recorder(), live())).rejects.toBeInstanceOf(EngineError);
    await expect(engine.run(txt2img({ numImages: 0 }), recorder(), live())).rejects.toMatchObject({
      code: 'validation',
    });
    await expect(engine.run(txt2img({ seed: -1 }), recorder(), live())).rejects.toMatchObject({ code: 'validation' });
  });
});

describe('builtin engine: img2img', () => {
  const task = async (strength: number): Promise<Img2ImgTask> => ({
    ...txt2img(),
    kind: 'img2img',
    image: await gradientPng(96, 64),
    strength,
  });

  it('returns the input at strength 0', async () => {
    const t = await task(0);
    const out = await engine.run(t, recorder(), live());
    expect((await raw(out.images[0]!.bytes)).data.equals((await raw(t.image)).data)).toBe(true);
  });

  it('ignores the input at strength 1 (same pixels as txt2img with that seed)', async () => {
    const out = await engine.run(await task(1), recorder(), live());
    const plain = await engine.run(txt2img(), recorder(), live());
    expect((await raw(out.images[0]!.bytes)).data.equals((await raw(plain.images[0]!.bytes)).data)).toBe(true);
  });

  it('lies between input and generated at strength 0.5', async () => {
    const t = await task(0.5);
    const mid = await raw((await engine.run(t, recorder(), live())).images[0]!.bytes);
    const input = await raw(t.image);
    const gen = await raw((await engine.run(txt2img(), recorder(), live())).images[0]!.bytes);
    for (let i = 0; i < mid.data.length; i += 97) {
      expect(Math.abs(mid.data[i]! - (input.data[i]! + gen.data[i]!) / 2)).toBeLessThanOrEqual(1);
    }
  });

  it('stretches the input to the requested size', async () => {
    const out = await engine.run({ ...(await task(0.3)), width: 200, height: 100 }, recorder(), live());
    expect([out.images[0]!.width, out.images[0]!.height]).toEqual([200, 100]);
  });

  it('rejects an input that is not an image', async () => {
    await expect(
      engine.run({ ...(await task(0.5)), image: Buffer.from('nope') }, recorder(), live()),
    ).rejects.toMatchObject({
      code: 'validation',
      message: 'The input image could not be read as an image',
    });
  });
});

describe('builtin engine: inpaint and outpaint', () => {
  const rect = { x: 30, y: 20, w: 40, h: 30 };
  const inpaint = async (maskBlur: number): Promise<InpaintTask> => ({
    ...txt2img(),
    kind: 'inpaint',
    image: await gradientPng(100, 80),
    mask: await rectMask(100, 80, rect),
    strength: 1,
    maskBlur,
  });

  for (const blur of [0, 10]) {
    it(`changes only masked pixels (blur ${blur}) and leaves the rest byte-identical`, async () => {
      const t = await inpaint(blur);
      const out = await raw((await engine.run(t, recorder(), live())).images[0]!.bytes);
      const input = await raw(t.image);
      expect([out.width, out.height]).toEqual([100, 80]);
      let changedInside = 0;
      for (let y = 0; y < 80; y++) {
        for (let x = 0; x < 100; x++) {
          const inside = x >= rect.x && x < rect.x + rect.w && y >= rect.y && y < rect.y + rect.h;
          const i = (y * 100 + x) * 3;
          const same = out.data.subarray(i, i + 3).equals(input.data.subarray(i, i + 3));
          if (!inside) expect(same).toBe(true);
          else if (!same) changedInside++;
        }
      }
      expect(changedInside).toBeGreaterThan(rect.w * rect.h * 0.5);
    });
  }

  it('feathers the mask edge when blurred: edge pixels move less than the centre', async () => {
    const t = await inpaint(16);
    const out = await raw((await engine.run(t, recorder(), live())).images[0]!.bytes);
    const hard = await raw((await engine.run(await inpaint(0), recorder(), live())).images[0]!.bytes);
    const input = await raw(t.image);
    const at = (x: number, y: number): number => (y * 100 + x) * 3;
    const edge = at(rect.x, rect.y + 15);
    const dist = (a: Buffer, i: number): number =>
      Math.abs(a[i]! - input.data[i]!) + Math.abs(a[i + 1]! - input.data[i + 1]!);
    expect(dist(out.data, edge)).toBeLessThan(dist(hard.data, edge));
    const centre = at(rect.x + 20, rect.y + 15);
    expect(out.data.subarray(centre, centre + 3)).toEqual(hard.data.subarray(centre, centre + 3));
  });

  it('keeps the alpha channel of an RGBA input untouched outside the mask', async () => {
    const rgba = await sharp(await gradientPng(100, 80))
      .ensureAlpha(0.5)
      .png()
      .toBuffer();
    const t = { ...(await inpaint(4)), image: rgba };
    const out = await raw((await engine.run(t, recorder(), live())).images[0]!.bytes);
    expect(out.channels).toBe(4);
    const input = await raw(rgba);
    expect(out.data.subarray(0, 400).equals(input.data.subarray(0, 400))).toBe(true);
  });

  it('outpaint grows the canvas and changes only the new area', async () => {
    const image = await gradientPng(60, 40);
    const task: OutpaintTask = {
      ...txt2img(),
      kind: 'outpaint',
      image,
      padding: { left: 16, top: 8, right: 24, bottom: 0 },
      overlap: 0.05,
      blur: 20,
    };
    const result = await engine.run(task, recorder(), live());
    const out = await raw(result.images[0]!.bytes);
    const input = await raw(image);
    expect([out.width, out.height]).toEqual([100, 48]);
    for (let y = 0; y < 40; y++) {
      const row = out.data.subarray(((y + 8) * 100 + 16) * 3, ((y + 8) * 100 + 76) * 3);
      expect(row.equals(input.data.subarray(y * 60 * 3, (y + 1) * 60 * 3))).toBe(true);
    }
    expect(out.data.subarray(0, 16 * 3).equals(Buffer.alloc(48, out.data[0]))).toBe(false);
    await expect(
      engine.run({ ...task, padding: { left: 0, top: 0, right: 0, bottom: 0 } }, recorder(), live()),
    ).rejects.toMatchObject({
      code: 'validation',
    });
  });
});

describe('builtin engine: other kinds', () => {
  it('upscales x2 with lanczos and says so', async () => {
    const result = await engine.run(
      { kind: 'upscale', image: await gradientPng(50, 30), scale: 2 },
      recorder(),
      live(),
    );
    expect([result.images[0]!.width, result.images[0]!.height]).toEqual([100, 60]);
    expect(result.metadata.note).toMatch(/Lanczos/);
  });

  it('edits only the masked area when an edit carries a mask', async () => {
    const image = await gradientPng(64, 64);
    const mask = await rectMask(64, 64, { x: 0, y: 0, w: 32, h: 64 });
    const result = await engine.run(
      { kind: 'edit', model: 'kontext-dev', prompt: 'make it night', image, mask, seed: 1 },
      recorder(),
      live(),
    );
    const out = await raw(result.images[0]!.bytes);
    const input = await raw(image);
    for (let y = 0; y < 64; y++) {
      const i = (y * 64 + 32) * 3;
      expect(out.data.subarray(i, i + 32 * 3).equals(input.data.subarray(i, i + 32 * 3))).toBe(true);
    }
    expect(result.metadata.model).toBe('kontext-dev');
  });

  it('overlays ControlNet images and follows an IP-Adapter colour', async () => {
    const pose = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#000' } })
      .composite([
        {
          input: Buffer.from(
            '<svg width="96" height="64"><line x1="10" y1="10" x2="80" y2="50" stroke="#ff0" stroke-width="6"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer();
    const plain = await engine.run(txt2img(), recorder(), live());
    const withPose = await engine.run(
      txt2img({ controlnets: [{ model: 'controlnet-openpose', image: pose, strength: 1 }] }),
      recorder(),
      live(),
    );
    expect(plain.images[0]!.bytes.equals(withPose.images[0]!.bytes)).toBe(false);
    const blue = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#0030ff' } })
      .png()
      .toBuffer();
    const ip = await engine.run(
      txt2img({ prompt: 'red fire', ipAdapter: { image: blue, strength: 1 } }),
      recorder(),
      live(),
    );
    const s = await sharp(ip.images[0]!.bytes).stats();
    expect(s.channels[2]!.mean).toBeGreaterThan(s.channels[0]!.mean);
  });

  it('does not support video', () => {
    expect(
      engine.supports({
        kind: 'video',
        model: 'wan_i2v',
        prompt: 'x',
        image: Buffer.alloc(0),
        durationSeconds: 5,
        seed: 1,
      }),
    ).toBe(false);
  });
});

describe('builtin engine: regional and brush generation', () => {
  const base = txt2img({ width: 120, height: 80 });

  it('regional paints each box with its own prompt and leaves the rest as the background picture', async () => {
    const box = { x0: 10, y0: 20, x1: 50, y1: 60, prompt: 'red fire', negativePrompt: 'x' };
    const result = await engine.run({ ...base, kind: 'regional', regions: [box] }, recorder(), live());
    const out = await raw(result.images[0]!.bytes);
    const background = await raw((await engine.run(base, recorder(), live())).images[0]!.bytes);
    let insideDiffers = 0;
    for (let y = 0; y < 80; y++) {
      for (let x = 0; x < 120; x++) {
        const i = (y * 120 + x) * 3;
        const same = out.data.subarray(i, i + 3).equals(background.data.subarray(i, i + 3));
        if (x < box.x0 || x >= box.x1 || y < box.y0 || y >= box.y1) expect(same).toBe(true);
        else if (!same) insideDiffers++;
      }
    }
    expect(insideDiffers).toBeGreaterThan(40 * 40 * 0.5);
    await expect(
      engine.run({ ...base, kind: 'regional', regions: [{ ...box, x1: 500 }] }, recorder(), live()),
    ).rejects.toMatchObject({
      code: 'validation',
      message: 'Region 1 must be a box of whole pixels inside the 120x80 canvas',
    });
  });

  it('brush generation changes only the brushed pixels', async () => {
    const mask = await rectMask(120, 80, { x: 60, y: 0, w: 60, h: 80 });
    const result = await engine.run(
      { ...base, kind: 'smd', brushes: [{ prompt: 'blue sky', negativePrompt: 'x', mask }] },
      recorder(),
      live(),
    );
    const out = await raw(result.images[0]!.bytes);
    const background = await raw((await engine.run(base, recorder(), live())).images[0]!.bytes);
    for (let y = 0; y < 80; y++) {
      const left = out.data.subarray(y * 360, y * 360 + 180);
      expect(left.equals(background.data.subarray(y * 360, y * 360 + 180))).toBe(true);
    }
    expect(out.data.equals(background.data)).toBe(false);
    await expect(engine.run({ ...base, kind: 'smd', brushes: [] }, recorder(), live())).rejects.toMatchObject({
      code: 'validation',
    });
  });
});
