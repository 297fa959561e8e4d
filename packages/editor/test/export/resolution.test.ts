import { describe, expect, it } from 'vitest';
import { effectiveDpi, lowResolutionImages, MIN_PRINT_DPI } from '../../src/index.ts';

describe('effective print resolution', () => {
  it('is the setup dpi times source pixels over printed pixels, the lower axis deciding', () => {
    // A 1024² picture over a 2048 px box of a 350 dpi page prints at 175 dpi.
    expect(effectiveDpi({ width: 1024, height: 1024 }, { width: 2048, height: 2048 }, 350)).toBe(175);
    // Shown at its own size it prints at the page's dpi.
    expect(effectiveDpi({ width: 1024, height: 1024 }, { width: 1024, height: 1024 }, 600)).toBe(600);
    // Stretched taller than wide: the height decides.
    expect(effectiveDpi({ width: 1000, height: 1000 }, { width: 500, height: 2000 }, 350)).toBe(175);
  });

  it('lists only pictures below 300 dpi, lowest first, rounded down', () => {
    const list = lowResolutionImages([
      { page: 1, name: 'Sky', dpi: 350 },
      { page: 2, name: 'Hero', dpi: 212.7 },
      { page: 1, name: 'Cat', dpi: 120.2 },
      { page: 3, name: 'Edge', dpi: MIN_PRINT_DPI },
    ]);
    expect(list).toEqual([
      { page: 1, name: 'Cat', dpi: 120 },
      { page: 2, name: 'Hero', dpi: 212 },
    ]);
  });
});
