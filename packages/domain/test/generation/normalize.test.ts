import { describe, expect, it } from 'vitest';
import { MAX_SEED } from '../../src/constants.ts';
import {
  costOfRequest,
  parseRequest,
  quoteRequest,
  type NormalizeContext,
  type NormalizedRequest,
  type RequestKind,
} from '../../src/generation/index.ts';

const IMG = 'img_1';
const ctxWith = (r: number, globalPrompt?: string): NormalizeContext => ({
  random: () => r,
  ...(globalPrompt === undefined ? {} : { globalPrompt }),
});

function ok<K extends RequestKind>(
  kind: K,
  input: unknown,
  ctx: NormalizeContext = ctxWith(0.25),
): NormalizedRequest<K> {
  const result = parseRequest(kind, input, ctx);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

const txt = { model: 'animaginexl4.0', prompt: 'a girl', width: 1024, height: 1024 };

describe('normalisation', () => {
  it('applies the spec defaults', () => {
    const r = ok('txt2img', txt);
    expect(r.lightning).toBe('none');
    expect(r.qualityTags).toBe(true);
    expect(r.loras).toEqual([]);
    expect(ok('refine', { image: IMG, model: 'sdxl' }).strength).toBe(0.75);
  });

  it('turns seed -1 into a seed from the injected random source, within 0..2147483646', () => {
    expect(ok('txt2img', txt, ctxWith(0)).seed).toBe(0);
    expect(ok('txt2img', txt, ctxWith(0.5)).seed).toBe(1073741823);
    expect(ok('txt2img', txt, ctxWith(1 - Number.EPSILON)).seed).toBe(MAX_SEED);
    expect(ok('txt2img', { ...txt, seed: 42 }).seed).toBe(42);
    expect(
      ok(
        'smd',
        {
          backgroundPrompt: 'a',
          backgroundNegativePrompt: 'b',
          brushes: [{ prompt: 'a dog', negativePrompt: '', mask: 'img_1' }],
          width: 512,
          height: 512,
        },
        ctxWith(0.5),
      ).seed,
    ).toBe(1073741823);
    expect(() => parseRequest('txt2img', txt, ctxWith(1))).toThrow(RangeError);
  });

  it.each([
    ['lightning-2', 2, 0],
    ['lightning-4', 4, 2],
    ['lightning-8', 8, 2],
  ])('%s overrides steps and cfg with %d/%d', (lightning, steps, cfg) => {
    const r = ok('txt2img', { ...txt, lightning, steps: 25, cfg: 9 });
    expect([r.steps, r.cfg]).toEqual([steps, cfg]);
    const i = ok('inpaint', { ...txt, image: IMG, mask: IMG, lightning, steps: 25, cfg: 9 });
    expect([i.steps, i.cfg]).toEqual([steps, cfg]);
  });

  it('keeps explicit steps and cfg without lightning and falls back to model defaults', () => {
    expect(ok('txt2img', { ...txt, steps: 12, cfg: 3 })).toMatchObject({ steps: 12, cfg: 3 });
    expect(ok('txt2img', { ...txt, model: 'noobaixl' })).toMatchObject({ steps: 28, cfg: 3.5 });
    expect(ok('txt2img', { ...txt, model: 'novaanimexl' })).toMatchObject({ steps: 28, cfg: 4.5 });
  });

  it.each([
    ['img2img', 'fluxpro', undefined, 1],
    ['img2img', 'gpt-image-1', 3, 1],
    ['inpaint', 'fluxpro', 4, 1],
    ['inpaint', 'gpt-image-1', undefined, 1],
    ['img2img', 'sdxl', undefined, 4],
    ['inpaint', 'fluxdev', undefined, 4],
    ['txt2img', 'gpt-image-1', undefined, 4],
    ['txt2img', 'sdxl', 2, 2],
  ] as const)('%s on %s asking %s images gives %d', (kind, model, num_images, expected) => {
    const input = { ...txt, model, image: IMG, mask: IMG, ...(num_images === undefined ? {} : { num_images }) };
    expect(ok(kind, input).num_images).toBe(expected);
  });

  it('rounds inpaint sizes down to multiples of 8', () => {
    const r = ok('inpaint', { ...txt, width: 1023, height: 71.9, image: IMG, mask: IMG });
    expect([r.width, r.height]).toEqual([1016, 64]);
    expect(ok('inpaint', { ...txt, width: 64, height: 4096, image: IMG, mask: IMG })).toMatchObject({
      width: 64,
      height: 4096,
    });
  });

  it('falls back to the global prompt when the inpaint prompt is empty', () => {
    const base = { ...txt, prompt: '', image: IMG, mask: IMG };
    expect(ok('inpaint', base, ctxWith(0.1, 'rooftop at night')).prompt).toBe('rooftop at night');
    expect(ok('inpaint', { ...base, prompt: '  ' }, ctxWith(0.1, 'rooftop')).prompt).toBe('rooftop');
    expect(ok('inpaint', { ...base, prompt: 'a hat' }, ctxWith(0.1, 'rooftop')).prompt).toBe('a hat');
    const result = parseRequest('inpaint', base, ctxWith(0.1));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]?.field).toBe('prompt');
  });

  it('forces quality tags on for pose and sketch generation', () => {
    expect(ok('txt2img', { ...txt, qualityTags: false }).qualityTags).toBe(false);
    expect(ok('txt2img', { ...txt, qualityTags: false, source: 'pose' }).qualityTags).toBe(true);
    expect(ok('img2img', { ...txt, image: IMG, qualityTags: false, source: 'sketch' }).qualityTags).toBe(true);
  });

  it('refuses a model the catalogue does not have; finds models by current and past path', () => {
    expect(parseRequest('txt2img', { ...txt, model: 'my-merge.safetensors' }, ctxWith(0.5))).toEqual({
      ok: false,
      errors: [{ field: 'model', message: 'model my-merge.safetensors is not in the model catalogue' }],
    });
    expect(ok('txt2img', { ...txt, model: 'animagine-xl-3.1.safetensors' }).modelType).toBe('sdxl');
    expect(ok('txt2img', { ...txt, model: 'fal-ai/flux-pro' }).modelType).toBe('fluxpro');
  });

  it('fills the video duration with the model default', () => {
    expect(ok('video', { image: IMG, model: 'kling1.6_i2v' }).duration).toBe(5);
    expect(ok('video', { image: IMG, model: 'kling1.6_i2v', duration: 10, end_image: IMG }).duration).toBe(10);
  });

  it('does not change the input object', () => {
    const input = { ...txt, seed: -1, lightning: 'lightning-4' };
    const frozen = structuredClone(input);
    ok('txt2img', input);
    expect(input).toEqual(frozen);
  });
});

describe('cost of a normalised request', () => {
  it.each([
    ['txt2img', { ...txt }, 24],
    ['txt2img', { ...txt, lightning: 'lightning-4' }, 16],
    ['txt2img', { ...txt, model: 'gpt-image-1', num_images: 1 }, 80],
    ['img2img', { ...txt, model: 'gpt-image-1', image: IMG }, 80],
    ['inpaint', { ...txt, model: 'fluxpro', image: IMG, mask: IMG }, 30],
    ['inpaint', { ...txt, model: 'fluxschnell', image: IMG, mask: IMG }, 8],
    ['refine', { image: IMG, model: 'fluxdev' }, 20],
    ['face_edit', { image: IMG, model: 'sdxl', face_width: 512, face_height: 512 }, 6],
    [
      'smd',
      {
        backgroundPrompt: 'a',
        backgroundNegativePrompt: 'b',
        brushes: [{ prompt: 'a dog', negativePrompt: '', mask: 'img_1' }],
        width: 512,
        height: 512,
      },
      6,
    ],
    ['edit', { prompt: 'p', variationId: 'v' }, 20],
    ['edit', { prompt: 'p', variationId: 'v', model: 'nano-banana' }, 150],
    ['video', { image: IMG, model: 'kling2.0_i2v', duration: 10 }, 3000],
    ['video', { image: IMG, model: 'wan22_i2v' }, 250],
    ['upscale', { image: IMG }, 4],
    ['face_detection', { variationId: 'v' }, 0],
  ] as const)('%s %j costs %d', (kind, input, credits) => {
    expect(costOfRequest(kind, ok(kind, input))).toBe(credits);
  });
});

describe('quoting a payload', () => {
  it('prices a valid payload and returns field errors for an invalid one', () => {
    expect(quoteRequest('txt2img', { ...txt, model: 'fluxdev', num_images: 2 })).toEqual({ ok: true, credits: 40 });
    expect(quoteRequest('inpaint', { ...txt, prompt: '', image: IMG, mask: IMG }, 'a hat')).toEqual({
      ok: true,
      credits: 24,
    });
    const bad = quoteRequest('txt2img', { ...txt, width: 2000 });
    expect(bad).toEqual({ ok: false, errors: [{ field: 'width', message: 'width must be at most 1536' }] });
  });
});

describe('models and LoRAs (issue 19)', () => {
  const lora = (baseModel: string) => ({ name: 'l', url: 'https://example.com/l.safetensors', strength: 1, baseModel });
  const base = { model: 'animaginexl4.0', prompt: 'a girl', width: 1024, height: 1024 };

  it('refuses a LoRA trained for another base than the model, naming it', () => {
    const result = parseRequest('txt2img', { ...base, loras: [lora('sdxl'), lora('fluxd')] }, ctxWith(0.5));
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          field: 'loras.1.baseModel',
          message: 'loras.1.baseModel FLUX does not fit animaginexl4.0, which takes SDXL or Illustrious LoRAs',
        },
      ],
    });
  });

  it('takes SDXL, Illustrious and unknown-base LoRAs on SDXL, FLUX ones on FLUX, none on GPT', () => {
    expect(
      parseRequest('txt2img', { ...base, loras: [lora('sdxl'), lora('illustrious'), lora('none')] }, ctxWith(0.5)).ok,
    ).toBe(true);
    expect(parseRequest('txt2img', { ...base, model: 'fluxdev', loras: [lora('fluxd')] }, ctxWith(0.5)).ok).toBe(true);
    expect(
      parseRequest('img2img', { ...base, model: 'fluxdev', image: IMG, loras: [lora('sdxl')] }, ctxWith(0.5)).ok,
    ).toBe(false);
    expect(parseRequest('txt2img', { ...base, model: 'gpt-image-1', loras: [lora('none')] }, ctxWith(0.5)).ok).toBe(
      false,
    );
    expect(
      parseRequest('outpaint', { image: IMG, model: 'sdxl', left: 64, loras: [lora('fluxs')] }, ctxWith(0.5)).ok,
    ).toBe(false);
  });

  it('refuses an unknown model in every operation that takes a catalogue model', () => {
    const inputs = {
      refine: { image: IMG, model: 'nonexistent-model' },
      face_edit: { image: IMG, model: 'nonexistent-model', face_width: 512, face_height: 512 },
      outpaint: { image: IMG, model: 'nonexistent-model', left: 64 },
      inpaint: { ...base, model: 'nonexistent-model', image: IMG, mask: IMG },
      img2img: { ...base, model: 'nonexistent-model', image: IMG },
    } as const;
    for (const [kind, input] of Object.entries(inputs)) {
      const result = parseRequest(kind as keyof typeof inputs, input, ctxWith(0.5));
      expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual(['model']);
    }
  });
});
