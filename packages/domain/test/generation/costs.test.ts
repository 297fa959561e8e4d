import { describe, expect, it } from 'vitest';
import {
  FLAT_COSTS,
  UnknownModelTypeError,
  UnknownPricedModelError,
  costOf,
  perImageCost,
} from '../../src/generation/index.ts';

describe('credit costs', () => {
  it.each([
    ['sd', 'none', 6],
    ['sdxl', 'none', 6],
    ['sd', 'lightning-4', 4],
    ['sdxl', 'lightning-2', 4],
    ['sdxl', 'lightning-8', 4],
    ['fluxschnell', 'none', 2],
    ['fluxdev', 'none', 20],
    ['fluxdevmanga', 'none', 20],
    ['fluxpro', 'none', 30],
    ['gpt', 'none', 80],
    ['fluxdev', 'lightning-4', 20],
  ] as const)('%s with %s costs %d per image', (modelType, lightning, credits) => {
    expect(perImageCost({ modelType, lightning })).toBe(credits);
  });

  it('throws a typed error for an unknown model type', () => {
    expect(() => perImageCost({ modelType: 'sd3' })).toThrow(UnknownModelTypeError);
    expect(() => costOf({ kind: 'txt2img', modelType: 'toString', numImages: 1 })).toThrow(UnknownModelTypeError);
    try {
      costOf({ kind: 'img2img', modelType: 'midjourney', numImages: 1 });
    } catch (e) {
      expect((e as UnknownModelTypeError).code).toBe('unknown_model_type');
      expect((e as UnknownModelTypeError).modelType).toBe('midjourney');
    }
  });

  it.each(['txt2img', 'img2img', 'inpaint', 'outpaint', 'refine'] as const)(
    '%s costs per image times count',
    (kind) => {
      expect(costOf({ kind, modelType: 'sdxl', numImages: 4 })).toBe(24);
      expect(costOf({ kind, modelType: 'sdxl', lightning: 'lightning-4', numImages: 4 })).toBe(16);
      expect(costOf({ kind, modelType: 'gpt', numImages: 1 })).toBe(80);
      expect(costOf({ kind, modelType: 'fluxschnell', numImages: 3 })).toBe(6);
    },
  );

  it('rejects a non-positive or fractional image count', () => {
    expect(() => costOf({ kind: 'txt2img', modelType: 'sdxl', numImages: 0 })).toThrow(/numImages/);
    expect(() => costOf({ kind: 'txt2img', modelType: 'sdxl', numImages: 1.5 })).toThrow(/numImages/);
  });

  it('prices brush-based and regional generation as sdxl images', () => {
    expect(costOf({ kind: 'smd' })).toBe(6);
    expect(costOf({ kind: 'regional', numImages: 2 })).toBe(12);
  });

  it('prices face operations per face at the model rate', () => {
    expect(costOf({ kind: 'face_enhance', modelType: 'sdxl' })).toBe(6);
    expect(costOf({ kind: 'face_enhance', modelType: 'fluxdev', faces: 2 })).toBe(40);
    expect(costOf({ kind: 'face_edit', modelType: 'sdxl', faces: 3 })).toBe(18);
  });

  it.each([
    ['kontext-dev', 20],
    ['kontext-pro', 40],
    ['kontext-max', 60],
    ['nano-banana', 150],
  ])('edit with %s costs %d', (model, credits) => expect(costOf({ kind: 'edit', model })).toBe(credits));

  it.each([
    ['wan22_i2v', 5, 250],
    ['wan_i2v', 5, 250],
    ['kling1.6_i2v', 10, 1000],
    ['kling2.0_i2v', 5, 1500],
    ['vidu_q1', 5, 500],
  ])('video %s for %ds costs %d', (model, duration, credits) => {
    expect(costOf({ kind: 'video', model, duration })).toBe(credits);
  });

  it('throws for unknown edit or video models and bad durations', () => {
    expect(() => costOf({ kind: 'edit', model: 'kontext-ultra' })).toThrow(UnknownPricedModelError);
    expect(() => costOf({ kind: 'video', model: 'sora', duration: 5 })).toThrow(UnknownPricedModelError);
    expect(() => costOf({ kind: 'video', model: 'wan_i2v', duration: 0 })).toThrow(/duration/);
  });

  it('prices the unpriced operations as documented', () => {
    expect(costOf({ kind: 'upscale' })).toBe(FLAT_COSTS.upscale);
    expect(costOf({ kind: 'background' })).toBe(FLAT_COSTS.background);
    expect(costOf({ kind: 'face_detection' })).toBe(0);
    expect(costOf({ kind: 'pose' })).toBe(0);
    expect(costOf({ kind: 'prompt_expansion' })).toBe(0);
  });
});
