import { describe, expect, it } from 'vitest';
import { parseRequest, type NormalizeContext, type RequestKind } from '../../src/generation/index.ts';

const ctx: NormalizeContext = { random: () => 0.5 };
const IMG = 'img_abc123';
const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const LORA = { name: 'l', url: 'https://example.com/l.safetensors', strength: 1, baseModel: 'sdxl' };
const REGION = { x0: 0, x1: 0.5, y0: 0, y1: 1, prompt: 'a cat', negative_prompt: 'blurry' };

/** Smallest valid payload of each kind. */
const BASE: Record<RequestKind, Record<string, unknown>> = {
  txt2img: { model: 'animaginexl4.0', prompt: 'a girl with a katana', width: 1024, height: 1024 },
  img2img: { model: 'animaginexl4.0', prompt: 'a girl', width: 1024, height: 1024, image: IMG },
  inpaint: { model: 'animaginexl4.0', prompt: 'a hat', width: 1024, height: 1024, image: IMG, mask: PNG },
  smd: {
    backgroundPrompt: 'a park',
    backgroundNegativePrompt: 'blurry',
    brushes: [{ prompt: 'a dog', negativePrompt: '', mask: IMG }],
    width: 1024,
    height: 1024,
  },
  regional: { prompt: 'two friends', width: 1024, height: 1024, regions: [REGION] },
  refine: { image: IMG, model: 'sdxl' },
  face_edit: { image: IMG, model: 'sdxl', face_width: 512, face_height: 512 },
  edit: { prompt: 'make it night', variationId: 'v1' },
  prompt_expansion: { prompt: 'a knight' },
  video: { image: IMG, model: 'wan_i2v' },
  upscale: { image: IMG },
  background: { image: IMG },
  pose: { image: IMG },
  face_detection: { variationId: 'v1' },
  outpaint: { image: IMG, model: 'sdxl', left: 128, top: 64 },
};

function withField(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  const keys = path.split('.');
  let obj: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) obj = obj[k] as Record<string, unknown>;
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete obj[last];
  else obj[last] = value;
  return copy;
}

// [kind, field, accepted values (inside and at the bounds), rejected values (beyond), words the error must contain]
type Row = [RequestKind, string, unknown[], unknown[], string];
const ROWS: Row[] = [
  ['txt2img', 'model', ['animagine-xl-3.1.safetensors', 'sdxl'], ['', undefined, 'm', 'nonexistent-model'], 'model'],
  ['txt2img', 'prompt', ['a', 'x'.repeat(4000)], ['', undefined, 'x'.repeat(4001)], 'prompt'],
  ['txt2img', 'negative_prompt', ['', 'bad hands', undefined], [3], 'negative_prompt'],
  ['txt2img', 'width', [512, 513, 1535, 1536], [511, 1537, 1024.5, '1024'], 'width'],
  ['txt2img', 'height', [512, 1536], [511, 1537], 'height'],
  ['txt2img', 'cfg', [0, 7.5, 20], [-0.1, 20.1], 'cfg'],
  ['txt2img', 'steps', [1, 30], [0, 31, 2.5], 'steps'],
  ['txt2img', 'num_images', [1, 4], [0, 5], 'num_images'],
  ['txt2img', 'seed', [-1, 0, 2147483646], [-2, 2147483647], 'seed'],
  ['txt2img', 'loras', [[], Array(10).fill(LORA)], [Array(11).fill(LORA)], 'loras'],
  [
    'txt2img',
    'loras',
    [[LORA]],
    [[{ ...LORA, strength: -1 }], [{ ...LORA, url: 'nope' }], [{ ...LORA, baseModel: 'x' }]],
    'loras.0',
  ],
  ['txt2img', 'lightning', ['none', 'lightning-2', 'lightning-4', 'lightning-8'], ['lightning-3'], 'lightning'],
  ['txt2img', 'ip_adapter_image', [null, IMG, PNG], ['data:text/plain;base64,AAAA', 'has spaces'], 'ip_adapter_image'],
  ['face_edit', 'face_width', [256, 2048], [255, 2049], 'face_width'],
  ['face_edit', 'face_height', [256, 2048], [255, 2049], 'face_height'],
  ['face_edit', 'strength', [0, 100], [-1, 100.5], 'strength'],
  ['face_edit', 'image', [IMG], [undefined, ''], 'image'],
  ['img2img', 'width', [256, 4096], [255, 4097], 'width'],
  ['img2img', 'height', [256, 4096], [255, 4097], 'height'],
  ['img2img', 'strength', [0, 0.5, 1], [-0.01, 1.01], 'strength'],
  ['img2img', 'image', [IMG, PNG], [undefined, ''], 'image'],
  [
    'img2img',
    'controlnets',
    [[{ model: 'controlnet-openpose', image: IMG, strength: 0 }]],
    [[{ model: 'canny', image: IMG, strength: 1 }]],
    'controlnets.0',
  ],
  ['inpaint', 'width', [64, 4096, 100.7], [63, 4097], 'width'],
  ['inpaint', 'height', [64, 4096], [63.9, 4096.1], 'height'],
  ['inpaint', 'strength', [0, 1], [-0.1, 1.1], 'strength'],
  ['inpaint', 'image', [IMG], [undefined], 'image'],
  ['inpaint', 'mask', [PNG], [undefined], 'mask'],
  ['regional', 'width', [256, 2048], [255, 2049], 'width'],
  ['regional', 'height', [256, 2048], [255, 2049], 'height'],
  ['regional', 'regions', [[REGION], Array(16).fill(REGION)], [[], Array(17).fill(REGION)], 'regions'],
  ['regional', 'regions.0.prompt', ['a'], ['', undefined], 'regions.0.prompt'],
  ['regional', 'regions.0.negative_prompt', ['a'], ['', undefined], 'regions.0.negative_prompt'],
  ['regional', 'regions.0.x1', [0.6, 1], [0, 1.1], 'regions.0.x1'],
  ['regional', 'regions.0.y0', [0, 0.9], [1, -0.1], 'regions.0'],
  ['smd', 'backgroundPrompt', ['a'], ['', undefined], 'backgroundPrompt'],
  ['smd', 'backgroundNegativePrompt', ['a'], ['', undefined], 'backgroundNegativePrompt'],
  [
    'smd',
    'brushes',
    [[{ prompt: 'a cat', negativePrompt: '', mask: PNG }]],
    [[{ prompt: '', negativePrompt: '', mask: PNG }], [{ prompt: 'a', negativePrompt: '' }]],
    'brushes.0',
  ],
  ['smd', 'seed', [-1, 42, undefined], [-5], 'seed'],
  ['smd', 'width', [256, 2048], [255, 2049], 'width'],
  ['smd', 'height', [256, 2048], [255, 2049], 'height'],
  ['prompt_expansion', 'prompt', ['a'], ['', undefined], 'prompt'],
  ['prompt_expansion', 'num_sequences', [1, 10, undefined], [0, 11], 'num_sequences'],
  ['refine', 'strength', [0, 1, undefined], [-0.5, 1.5], 'strength'],
  ['refine', 'image', [IMG], [undefined], 'image'],
  ['edit', 'variationId', ['v'], ['', undefined], 'variationId'],
  ['edit', 'prompt', ['p'], ['', undefined], 'prompt'],
  [
    'edit',
    'model',
    ['kontext-dev', 'kontext-pro', 'kontext-max', 'nano-banana', undefined],
    ['kontext-ultra', 'gpt-image-1'],
    'model',
  ],
  ['video', 'model', ['wan22_i2v', 'wan_i2v', 'kling1.6_i2v', 'kling2.0_i2v', 'vidu_q1'], ['sora'], 'model'],
  ['video', 'duration', [5, undefined], [7, 0, 2.5], 'duration'],
  ['video', 'end_image', [null, undefined], [IMG], 'end_image'],
  ['upscale', 'image', [IMG], [undefined], 'image'],
  ['face_detection', 'variationId', ['v'], [''], 'variationId'],
  ['outpaint', 'left', [0, 2048], [-1, 2049, 1.5], 'left'],
  ['outpaint', 'overlap', [0, 0.5, undefined], [-0.1, 0.6], 'overlap'],
  ['outpaint', 'image', [IMG, PNG], [undefined, ''], 'image'],
];

describe.each(ROWS)('%s.%s', (kind, field, good, bad, named) => {
  it.each(good.map((v) => [v]))('accepts %j', (value) => {
    const result = parseRequest(kind, withField(BASE[kind], field, value), ctx);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });
  it.each(bad.map((v) => [v]))('rejects %j naming the field', (value) => {
    const result = parseRequest(kind, withField(BASE[kind], field, value), ctx);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.some((e) => e.field.startsWith(named) && e.message.includes(named))).toBe(true);
    }
  });
});

describe('error messages name the limit', () => {
  it.each([
    ['txt2img', 'width', 511, 'width must be at least 512'],
    ['txt2img', 'width', 1537, 'width must be at most 1536'],
    ['txt2img', 'steps', 31, 'steps must be at most 30'],
    ['txt2img', 'cfg', -1, 'cfg must be at least 0'],
    ['txt2img', 'loras', Array(11).fill(LORA), 'loras must have at most 10 items'],
    ['txt2img', 'prompt', '', 'prompt is required (at least 1 character)'],
    ['txt2img', 'prompt', undefined, 'prompt is required'],
    ['txt2img', 'width', 1000.5, 'width must be a whole number'],
    ['img2img', 'strength', 2, 'strength must be at most 1'],
    ['face_edit', 'strength', 101, 'strength must be at most 100'],
    ['prompt_expansion', 'num_sequences', 11, 'num_sequences must be at most 10'],
    ['edit', 'model', 'x', 'model must be one of kontext-dev, kontext-pro, kontext-max, nano-banana'],
    ['regional', 'regions.0.x1', 0, 'regions.0.x1 must be greater than x0'],
    ['video', 'duration', 7, 'duration must be one of 5 seconds for wan_i2v'],
  ] as const)('%s.%s = %j', (kind, field, value, message) => {
    const result = parseRequest(kind, withField(BASE[kind], field, value), ctx);
    expect(result.ok ? [] : result.errors).toContainEqual({ field, message });
  });

  it('names the LoRA url field when it is not a URL', () => {
    const result = parseRequest('txt2img', { ...BASE.txt2img, loras: [{ ...LORA, url: 'nope' }] }, ctx);
    expect(result.ok ? [] : result.errors).toContainEqual({
      field: 'loras.0.url',
      message: 'loras.0.url must be a valid URL',
    });
  });

  it('reports a non-object payload against the request', () => {
    const result = parseRequest('txt2img', 'hello', ctx);
    expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual(['request']);
  });
});
