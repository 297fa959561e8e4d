import { describe, expect, it } from 'vitest';
import { cellCoverage, halftone, toGrey, type Raster } from '../../src/index.ts';

function flat(width: number, height: number, rgba: [number, number, number, number]): Raster {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set(rgba, i);
  return { width, height, data };
}

const inkShare = (r: Raster) => {
  let ink = 0;
  for (let i = 0; i < r.data.length; i += 4) if (r.data[i] === 0) ink++;
  return ink / (r.width * r.height);
};

describe('screentone halftone', () => {
  it('knows how much of a cell a dot covers, the disc and then the disc less its caps', () => {
    expect(cellCoverage(0.25)).toBeCloseTo(Math.PI / 4, 10);
    expect(cellCoverage(0.5)).toBe(1);
    // Monotone all the way, so that every tone has one dot size.
    let previous = 0;
    for (let r2 = 0.01; r2 <= 0.5; r2 += 0.01) {
      const c = cellCoverage(r2);
      expect(c).toBeGreaterThan(previous);
      previous = c;
    }
    expect(previous).toBeLessThanOrEqual(1);
  });

  it('keeps every tone: the share of ink pixels is the ink coverage of the grey, at 0° and 45°', () => {
    for (const angle of [0, 45]) {
      for (const grey of [0, 32, 96, 128, 191, 230, 255]) {
        const out = halftone(flat(300, 300, [grey, grey, grey, 255]), { lpi: 60, angle, dpi: 350 });
        expect(Math.abs(inkShare(out) - (1 - grey / 255))).toBeLessThan(0.03);
      }
    }
  });

  it('is one bit: every pixel black or white and opaque', () => {
    const out = halftone(flat(64, 64, [200, 120, 40, 128]), { lpi: 85, angle: 45, dpi: 600 });
    for (let i = 0; i < out.data.length; i += 4) {
      expect([0, 255]).toContain(out.data[i]);
      expect(out.data[i + 3]).toBe(255);
    }
  });

  it('repeats its dots at the screen ruling: one dot per cell along a row at 0°', () => {
    // 350 dpi / 35 lpi = 10 px cells; a mid grey makes one run of ink per cell on a row through the dots' centres.
    const out = halftone(flat(200, 20, [128, 128, 128, 255]), { lpi: 35, angle: 0, dpi: 350 });
    const row = 5;
    let runs = 0;
    for (let x = 0; x < 200; x++) {
      const ink = out.data[(row * 200 + x) * 4] === 0;
      const before = x > 0 && out.data[(row * 200 + x - 1) * 4] === 0;
      if (ink && !before) runs++;
    }
    expect(runs).toBe(20);
  });

  it('turns colours into their luminance on white, alpha flattened', () => {
    const grey = toGrey(flat(1, 1, [255, 0, 0, 255]));
    expect(grey.data[0]).toBe(76);
    const halfClear = toGrey(flat(1, 1, [0, 0, 0, 128]));
    expect(halfClear.data[0]).toBe(127);
    expect(halfClear.data[3]).toBe(255);
  });
});
