import { describe, expect, it } from 'vitest';
import { EstimateBook, ESTIMATE_WEIGHT } from '../../src/jobs/estimates.ts';

describe('estimate learning', () => {
  it('starts from the spec defaults: 3,000 ms per image for generations, 10,000 ms for other work', () => {
    const book = new EstimateBook();
    expect(book.estimate('builtin', 'txt2img', 120, 4)).toBe(12_000);
    expect(book.estimate('vision', 'upscale', 16)).toBe(10_000);
    expect(book.samples('builtin', 'txt2img')).toBe(0);
  });

  it('learns the speed per unit of work from the first run, then follows recent runs', () => {
    const book = new EstimateBook();
    book.record('comfyui', 'txt2img', 20, 2_000); // 100 ms a step
    expect(book.estimate('comfyui', 'txt2img', 40, 2)).toBe(4_000);
    book.record('comfyui', 'txt2img', 10, 3_000); // 300 ms a step: the GPU got busy
    const msPerUnit = 100 + ESTIMATE_WEIGHT * (300 - 100);
    expect(book.estimate('comfyui', 'txt2img', 10)).toBe(Math.round(msPerUnit * 10));
    expect(book.samples('comfyui', 'txt2img')).toBe(2);
  });

  it('keeps engines and kinds apart, and ignores runs without work or time', () => {
    const book = new EstimateBook();
    book.record('vision', 'upscale', 64, 32_000); // 500 ms a tile
    expect(book.estimate('vision', 'upscale', 256)).toBe(128_000);
    expect(book.estimate('builtin', 'upscale', 256)).toBe(10_000);
    book.record('vision', 'upscale', 0, 5_000);
    book.record('vision', 'upscale', 10, Number.NaN);
    expect(book.samples('vision', 'upscale')).toBe(1);
  });
});
