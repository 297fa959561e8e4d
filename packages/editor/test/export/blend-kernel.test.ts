import { afterEach, describe, expect, it } from 'vitest';
import type { BlendMode } from '@koma/domain';
import { drawBlended, opaqueTable } from '../../src/export/blend.ts';
import { blendKernel, useBlendKernel } from '../../src/export/blend-kernel.ts';
import { BLEND_WASM_BASE64 } from '../../src/export/blend-wasm.ts';
import { createRaster, type ClipBase, type Raster } from '../../src/export/raster.ts';
import { blendKernelModule, compileBlendKernel, expandDiv255 } from '../../scripts/wasm.ts';

type Mode = Exclude<BlendMode, 'normal'>;
const MODES: Mode[] = ['multiply', 'screen', 'overlay', 'darken', 'lighten'];

/** B(b, s) on 0..1, written out from the W3C compositing spec's separable modes. */
const SPEC: Record<Mode, (b: number, s: number) => number> = {
  multiply: (b, s) => b * s,
  screen: (b, s) => 1 - (1 - b) * (1 - s),
  overlay: (b, s) => (b > 0.5 ? 1 - 2 * (1 - b) * (1 - s) : 2 * b * s),
  darken: (b, s) => (b < s ? b : s),
  lighten: (b, s) => (b > s ? b : s),
};

afterEach(() => useBlendKernel(true));

/** drawBlended with the kernel on or off, on copies. */
function draw(
  kernel: boolean,
  dst: Raster,
  src: Raster,
  left: number,
  top: number,
  mode: Mode,
  op: number,
  clip?: ClipBase,
) {
  useBlendKernel(kernel);
  const out = { ...dst, data: dst.data.slice() };
  drawBlended(out, src, left, top, mode, op, clip);
  return out;
}

/** Every backdrop level (row) against every source level (column), each channel shifted so that the three differ. */
function levels(alpha: (b: number, s: number) => number, shift = 0): Raster {
  const r = createRaster(256, 256);
  for (let b = 0; b < 256; b++) {
    for (let s = 0; s < 256; s++) {
      const v = shift ? s : b;
      r.data.set([v, (v + 85 + shift) & 255, (v + 170 + shift) & 255, alpha(b, s)], (b * 256 + s) * 4);
    }
  }
  return r;
}

describe('the blend kernel', () => {
  it('runs here (Node 20 has WebAssembly SIMD), so the tests below compare two real paths', () => {
    expect(blendKernel()).not.toBeNull();
  });

  it('is the compiled blend.wat, byte for byte', async () => {
    const bytes = await compileBlendKernel();
    expect(Buffer.from(BLEND_WASM_BASE64, 'base64').equals(Buffer.from(bytes))).toBe(true);
    // And the module that carries them is what the script writes.
    const { readFile } = await import('node:fs/promises');
    const file = await readFile(new URL('../../src/export/blend-wasm.ts', import.meta.url), 'utf8');
    expect(file).toBe(blendKernelModule(bytes));
  });

  it('writes (div255 x) out in place, an inner one before the outer, and drops comments that name it', () => {
    const div = (x: string) =>
      `(i16x8.shr_u (i16x8.add (local.tee $q (i16x8.add ${x} (local.get $c128)))` +
      ` (i16x8.shr_u (local.get $q) (i32.const 8))) (i32.const 8))`;
    expect(
      expandDiv255(';; (div255 x) rounds\n(local.set $r (div255 (i16x8.add (div255 (local.get $a)) (local.get $b))))'),
    ).toBe(`\n(local.set $r ${div(`(i16x8.add ${div('(local.get $a)')} (local.get $b))`)})`);
    expect(() => expandDiv255('(div255 (local.get $a)')).toThrow(/unbalanced/);
  });

  it('has an opaque table that is the spec formula rounded, at the opacity byte the PSD stores', () => {
    for (const mode of MODES) {
      for (const opacity of [1, 0.8, 0.5, 0.35, 0.01, 0]) {
        const table = opaqueTable(mode, opacity);
        const a = Math.round(opacity * 255);
        for (let b = 0; b < 256; b++) {
          for (let s = 0; s < 256; s++) {
            const mixed = Math.round(SPEC[mode](b / 255, s / 255) * 255);
            const expected = Math.round((mixed * a + b * (255 - a)) / 255);
            const got = table[(b << 8) | s]!;
            if (got !== expected) expect(`${mode} ${opacity} b ${b} s ${s}: ${got}`).toBe(`… ${expected}`);
            // Two roundings: never more than one level from the exact value at the layer's own opacity.
            const exact = opacity * SPEC[mode](b / 255, s / 255) * 255 + (1 - opacity) * b;
            if (Math.abs(got - exact) >= 1.5) expect(`${mode} ${opacity} b ${b} s ${s}: ${got}`).toBe(`≈ ${exact}`);
          }
        }
      }
    }
  });

  it('writes the bytes of the JavaScript loop for every channel pair, opaque, translucent, clear and clipped', () => {
    const sources = [
      levels(() => 255, 37),
      levels((_b, s) => (s % 3 === 0 ? 255 : s % 3 === 1 ? 0 : 128), 37),
      levels((b) => (b % 5 === 0 ? 0 : 255), 37),
      // Clear at both ends of each row by a different run, as a turned picture's corners: rows trimmed to what shows.
      levels((b, s) => (s < b % 7 || s > 255 - (b % 5) ? 0 : s === b % 7 ? 128 : 255), 37),
    ];
    const backdrops = [levels(() => 255), levels((b, s) => ((b + s) % 7 === 0 ? 90 : (b + s) % 7 === 1 ? 0 : 255))];
    const clip = levels((b, s) => [255, 255, 255, 0, 64][(b * 3 + s) % 5]!);
    for (const mode of MODES) {
      for (const opacity of [1, 0.8, 0.35]) {
        for (const src of sources) {
          for (const dst of backdrops) {
            // Offsets of 0 and 3 pixels: the kernel's groups of four start at different pixels of each run.
            for (const [left, base] of [
              [0, undefined],
              [3, { raster: clip, left: 1, top: 2 }],
            ] as const) {
              const js = draw(false, dst, src, left, 0, mode, opacity, base);
              const wasm = draw(true, dst, src, left, 0, mode, opacity, base);
              expect(Buffer.from(wasm.data).equals(Buffer.from(js.data)), `${mode} at ${opacity}, left ${left}`).toBe(
                true,
              );
            }
          }
        }
      }
    }
  });

  it('grows its memory for a row wider than any before it', () => {
    const wide = createRaster(40000, 1, [200, 100, 50, 255]);
    const backdrop = createRaster(40000, 1, [128, 128, 128, 255]);
    const wasm = draw(true, backdrop, wide, 0, 0, 'multiply', 1);
    expect([...wasm.data.subarray(39999 * 4)]).toEqual([100, 50, 25, 255]);
    expect(Buffer.from(wasm.data).equals(Buffer.from(draw(false, backdrop, wide, 0, 0, 'multiply', 1).data))).toBe(
      true,
    );
  });
});
