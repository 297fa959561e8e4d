import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  OPERATIONS,
  OPERATION_KINDS,
  operationOf,
  parseRequest,
  type NormalizeContext,
  type OperationKind,
} from '../../src/generation/index.ts';

const ctx: NormalizeContext = { random: () => 0.5 };
const IMG = 'img_abc123';
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

/** A valid payload of every operation, with every image field filled (inline where the schema allows it). */
const SAMPLES: Record<OperationKind, Record<string, unknown>> = {
  txt2img: {
    model: 'animaginexl4.0',
    prompt: 'a girl with a katana',
    width: 1024,
    height: 1024,
    controlnets: [{ model: 'controlnet-openpose', image: PNG, strength: 1 }],
    ip_adapter_image: IMG,
  },
  img2img: {
    model: 'fluxdev',
    prompt: 'a girl',
    width: 1024,
    height: 1024,
    image: PNG,
    controlnets: [{ model: 'controlnet-anytest', image: IMG, strength: 0.5 }],
  },
  inpaint: { model: 'sdxl', prompt: 'a hat', width: 1024, height: 1024, image: IMG, mask: PNG, ip_adapter_image: PNG },
  outpaint: { image: IMG, model: 'fluxschnell', prompt: 'more sky', top: 128 },
  smd: {
    backgroundPrompt: 'a park',
    backgroundNegativePrompt: 'blurry',
    brushes: [{ prompt: 'a cat', negativePrompt: '', mask: PNG }],
    width: 1024,
    height: 1024,
  },
  regional: {
    prompt: 'two friends',
    width: 1024,
    height: 1024,
    regions: [{ x0: 0, x1: 0.5, y0: 0, y1: 1, prompt: 'a cat', negative_prompt: 'x' }],
  },
  refine: { image: IMG, model: 'sdxl', prompt: 'sharper' },
  face_edit: { image: IMG, model: 'sdxl', face_width: 512, face_height: 512, prompt: 'detailed eyes' },
  edit: { prompt: 'make it night', variationId: IMG, model: 'kontext-pro' },
  prompt_expansion: { prompt: 'a knight' },
  video: { image: IMG, model: 'kling1.6_i2v', prompt: 'she turns', end_image: IMG },
  upscale: { image: IMG },
  background: { image: PNG },
  pose: { image: IMG },
  face_detection: { variationId: IMG },
};

/** Every string field anywhere in a value, by dotted path. */
function strings(value: unknown, path = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(path, value);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      for (const [p, s] of strings(v, path ? `${path}.${k}` : k)) out.set(p, s);
    }
  }
  return out;
}

describe('the operation registry', () => {
  it('lists the fifteen operations of the product', () => {
    expect([...OPERATION_KINDS].sort()).toEqual(
      [
        'background',
        'edit',
        'face_detection',
        'face_edit',
        'img2img',
        'inpaint',
        'outpaint',
        'pose',
        'prompt_expansion',
        'refine',
        'regional',
        'smd',
        'txt2img',
        'upscale',
        'video',
      ].sort(),
    );
  });

  it.each(OPERATION_KINDS)('%s has a schema, rules, a price, moderation inputs and image fields', async (kind) => {
    const op = operationOf(kind);
    expect(op.kind).toBe(kind);
    expect(op.schema).toBeInstanceOf(z.ZodType);
    const parsed = parseRequest(kind, SAMPLES[kind], ctx);
    expect(parsed.ok ? [] : parsed.errors).toEqual([]);
    if (!parsed.ok) return;
    const price = op.price(parsed.value);
    expect(Number.isInteger(price) && price >= 0).toBe(true);
    // Every moderated field is a real string field of the request, holding the text it claims.
    const fields = strings(parsed.value);
    for (const p of op.prompts(parsed.value)) expect(fields.get(p.field)).toBe(p.text);
    // storeImages hands over exactly the image fields (every inline one among them) and writes the result back.
    const seen: string[] = [];
    const stored = await op.storeImages(parsed.value, (ref, field) => {
      expect(fields.get(field)).toBe(ref);
      seen.push(field);
      return Promise.resolve(`stored_${seen.length}`);
    });
    const after = strings(stored);
    seen.forEach((field, i) => expect(after.get(field)).toBe(`stored_${i + 1}`));
    for (const [field, value] of fields) {
      if (value.startsWith('data:')) expect(seen).toContain(field);
    }
    // The request handed in is not changed (the server keeps both).
    expect(strings(parsed.value)).toEqual(fields);
  });

  it('gives each operation its own endpoint under /api/', () => {
    const endpoints = OPERATION_KINDS.map((k) => operationOf(k).endpoint);
    expect(new Set(endpoints).size).toBe(endpoints.length);
    for (const e of endpoints) expect(e).toMatch(/^\/api\/[a-z_/0-9]+$/);
    expect(operationOf('txt2img').endpoint).toBe('/api/diffusion/txt2img');
  });

  it('names the catalogue model of the operations that take one', () => {
    const withModel = OPERATION_KINDS.filter((k) => operationOf(k).model !== undefined).sort();
    expect(withModel).toEqual(['face_edit', 'img2img', 'inpaint', 'outpaint', 'refine', 'txt2img']);
  });

  it('moderates the prompt of each brush and region, not the negative prompts', () => {
    const smd = parseRequest('smd', SAMPLES.smd, ctx);
    const regional = parseRequest('regional', SAMPLES.regional, ctx);
    if (!smd.ok || !regional.ok) throw new Error('samples must parse');
    expect(OPERATIONS.smd.prompts(smd.value).map((p) => p.field)).toEqual(['backgroundPrompt', 'brushes.0.prompt']);
    expect(OPERATIONS.regional.prompts(regional.value).map((p) => p.field)).toEqual(['prompt', 'regions.0.prompt']);
  });
});
