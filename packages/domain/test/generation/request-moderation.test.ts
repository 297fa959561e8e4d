import { describe, expect, it } from 'vitest';
import {
  SUBSCRIPTION_REQUIRED,
  checkModelAccess,
  enginePrompts,
  findModelById,
  moderateRequest,
  parseRequest,
  promptFields,
  type NormalizedRequest,
  type RequestKind,
} from '../../src/generation/index.ts';

const ctx = { random: () => 0.5 };
function ok<K extends RequestKind>(kind: K, input: unknown): NormalizedRequest<K> {
  const r = parseRequest(kind, input, ctx);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

const smd = ok('smd', {
  backgroundPrompt: 'a park, nude statue',
  backgroundNegativePrompt: 'blurry, child',
  brushes: [
    { prompt: 'a dog', negativePrompt: '', mask: 'img_1' },
    { prompt: 'woman, sexy', negativePrompt: '', mask: 'img_2' },
  ],
  width: 512,
  height: 512,
});

describe('request moderation', () => {
  it('lists the positive prompts of each request shape', () => {
    expect(promptFields('smd', smd).map((f) => f.field)).toEqual([
      'backgroundPrompt',
      'brushes.0.prompt',
      'brushes.1.prompt',
    ]);
    const regional = ok('regional', {
      prompt: 'two friends',
      width: 512,
      height: 512,
      regions: [{ x0: 0, x1: 1, y0: 0, y1: 1, prompt: 'a cat', negative_prompt: 'x' }],
    });
    expect(promptFields('regional', regional).map((f) => f.field)).toEqual(['prompt', 'regions.0.prompt']);
    expect(promptFields('upscale', ok('upscale', { image: 'img_1' }))).toEqual([]);
  });

  it('sanitises every prompt field without touching negatives or the original request', () => {
    const result = moderateRequest('smd', smd);
    expect(result.allowed).toBe(true);
    expect(result.request.backgroundPrompt).toBe('a park, statue');
    expect(result.request.brushes[1]?.prompt).toBe('woman');
    expect(result.request.backgroundNegativePrompt).toBe('blurry, child');
    expect(smd.backgroundPrompt).toBe('a park, nude statue');
  });

  it('rejects when any prompt field is rejected and says which', () => {
    const req = ok('txt2img', { model: 'sdxl', prompt: 'loli, bikini', width: 1024, height: 1024 });
    const result = moderateRequest('txt2img', req);
    expect(result.allowed).toBe(false);
    expect(result.verdicts[0]?.field).toBe('prompt');
    expect(result.verdicts[0]?.verdict.reasons[0]?.code).toBe('minor_sexual');
  });

  it('judges the prompts of one request together: a child in one region and nudity in another is refused', () => {
    const req = ok('regional', {
      prompt: 'a park at noon',
      width: 512,
      height: 512,
      regions: [
        { x0: 0, x1: 0.5, y0: 0, y1: 1, prompt: 'a little girl', negative_prompt: 'x' },
        { x0: 0.5, x1: 1, y0: 0, y1: 1, prompt: 'lingerie', negative_prompt: 'x' },
      ],
    });
    const result = moderateRequest('regional', req);
    expect(result.allowed).toBe(false);
    const refused = result.verdicts.find((v) => !v.verdict.allowed);
    expect(refused?.field).toBe('prompt + regions.0.prompt + regions.1.prompt');
    expect(refused?.verdict.reasons[0]?.terms).toEqual(['little', 'girl', 'lingerie']);
    // Each prompt alone is allowed, so this is the combined judgement at work.
    expect(result.verdicts.slice(0, 3).every((v) => v.verdict.allowed)).toBe(true);
  });

  it('returns the same request object when nothing changes', () => {
    const req = ok('edit', { prompt: 'make it night', variationId: 'v1' });
    expect(moderateRequest('edit', req).request).toBe(req);
  });
});

describe('model access and engine prompts', () => {
  it('requires a subscription for gpt-image-1 only', () => {
    expect(checkModelAccess('gpt-image-1', false)).toBe(SUBSCRIPTION_REQUIRED);
    expect(checkModelAccess('gpt-image-1', true)).toBeNull();
    expect(checkModelAccess('fluxpro', false)).toBeNull();
    expect(checkModelAccess('not-a-model', false)).toBeNull();
  });

  it('adds quality tags only when asked', () => {
    const model = findModelById('noobaixl')!;
    expect(enginePrompts(model, '1girl', 'bad hands', false)).toEqual({
      prompt: '1girl',
      negative_prompt: 'bad hands',
    });
    const tagged = enginePrompts(model, '1girl', 'bad hands', true);
    expect(tagged.prompt).toBe('masterpiece, best quality, newest, absurdres, highres, 1girl');
    expect(tagged.negative_prompt.endsWith(', bad hands')).toBe(true);
  });
});
