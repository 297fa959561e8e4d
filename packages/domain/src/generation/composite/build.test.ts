import { describe, expect, it } from 'vitest';
import { parseRequest, quoteRequest, type SketchMapBrush } from '../../index.ts';
import { buildRegionalRequest, buildSmdRequest, nextCompositeColor, COMPOSITE_PALETTE } from './build.ts';

const pixels = { width: 832, height: 1216 };
const region = (over: Partial<Parameters<typeof buildRegionalRequest>[0]['regions'][number]> = {}) => ({
  color: '#f00',
  prompt: 'a knight',
  negativePrompt: 'blurry',
  rect: { x0: 0.1, y0: 0.1, x1: 0.5, y1: 0.6 },
  ...over,
});

describe('buildRegionalRequest', () => {
  it('builds a request the server schema accepts, at 6 credits', () => {
    const built = buildRegionalRequest({
      prompt: ' a castle ',
      regions: [region(), region({ prompt: 'a dragon', rect: { x0: 0.5, y0: 0.2, x1: 0.95, y1: 0.9 } })],
      pixels,
      seed: -1,
    });
    if (!built.ok) throw new Error(JSON.stringify(built.issues));
    expect(built.request).toMatchObject({ prompt: 'a castle', width: 832, height: 1216, seed: -1 });
    expect(built.request.regions).toHaveLength(2);
    expect(built.request.regions[1]).toMatchObject({ prompt: 'a dragon', negative_prompt: 'blurry' });
    expect(parseRequest('regional', built.request, { random: () => 0.5 }).ok).toBe(true);
    expect(quoteRequest('regional', built.request)).toEqual({ ok: true, credits: 6 });
  });

  it('names every empty or missing field, per region', () => {
    const built = buildRegionalRequest({
      prompt: '  ',
      regions: [region({ prompt: '' }), region({ negativePrompt: ' ', rect: null })],
      pixels,
      seed: -1,
    });
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.issues).toEqual([
      { code: 'prompt_empty', field: 'prompt' },
      { code: 'region_prompt_empty', field: 'regions.0.prompt', index: 0 },
      { code: 'region_not_drawn', field: 'regions.1', index: 1 },
      { code: 'region_negative_empty', field: 'regions.1.negative_prompt', index: 1 },
    ]);
  });

  it('needs at least one region, and a drawn area of at least a pixel', () => {
    const none = buildRegionalRequest({ prompt: 'p', regions: [], pixels, seed: 1 });
    expect(none.ok ? [] : none.issues.map((i) => i.code)).toEqual(['no_regions']);
    const thin = buildRegionalRequest({
      prompt: 'p',
      regions: [region({ rect: { x0: 0.3, y0: 0, x1: 0.3001, y1: 1 } })],
      pixels,
      seed: 1,
    });
    expect(thin.ok ? [] : thin.issues.map((i) => i.code)).toEqual(['region_not_drawn']);
  });
});

const brush = (over: Partial<SketchMapBrush> = {}): SketchMapBrush => ({
  color: '#0a0',
  radius: 80,
  prompt: 'grass',
  negativePrompt: '',
  strokes: [{ points: [0.5, 0.5, 0.6, 0.6], radius: 40, erase: false }],
  ...over,
});

describe('buildSmdRequest', () => {
  const fakePng = (mask: Uint8Array, size: { width: number; height: number }) =>
    `data:image/png;base64,${btoa(`${size.width}x${size.height}:${mask.filter((v) => v > 0).length}`)}`;

  it('sends one mask per painted brush at the frame size; unpainted brushes are left out', () => {
    const seen: { painted: number; size: unknown }[] = [];
    const built = buildSmdRequest(
      {
        backgroundPrompt: 'a meadow',
        backgroundNegativePrompt: 'lowres',
        brushes: [brush(), brush({ prompt: '', strokes: [] }), brush({ prompt: 'sky', color: '#00f' })],
        pixels: { width: 512, height: 768 },
        seed: 42,
      },
      (mask, size) => {
        seen.push({ painted: mask.filter((v) => v > 0).length, size });
        return fakePng(mask, size);
      },
    );
    if (!built.ok) throw new Error(JSON.stringify(built.issues));
    expect(built.request.brushes.map((b) => b.prompt)).toEqual(['grass', 'sky']);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.size).toEqual({ width: 512, height: 768 });
    expect(seen[0]!.painted).toBeGreaterThan(0);
    expect(built.request).toMatchObject({ width: 512, height: 768, seed: 42, backgroundNegativePrompt: 'lowres' });
    expect(parseRequest('smd', built.request, { random: () => 0.5 }).ok).toBe(true);
    expect(quoteRequest('smd', built.request)).toEqual({ ok: true, credits: 6 });
  });

  it('names the empty prompts and asks for paint; a fully erased brush counts as unpainted', () => {
    const erased = brush({
      strokes: [
        { points: [0.5, 0.5], radius: 10, erase: false },
        { points: [0.5, 0.5], radius: 30, erase: true },
      ],
    });
    const built = buildSmdRequest(
      { backgroundPrompt: '', backgroundNegativePrompt: ' ', brushes: [erased], pixels, seed: -1 },
      fakePng,
    );
    expect(built.ok ? [] : built.issues).toEqual([
      { code: 'background_prompt_empty', field: 'backgroundPrompt' },
      { code: 'background_negative_empty', field: 'backgroundNegativePrompt' },
      { code: 'no_brush_painted', field: 'brushes' },
    ]);
    const unnamed = buildSmdRequest(
      { backgroundPrompt: 'b', backgroundNegativePrompt: 'n', brushes: [brush({ prompt: ' ' })], pixels, seed: -1 },
      fakePng,
    );
    expect(unnamed.ok ? [] : unnamed.issues).toEqual([
      { code: 'brush_prompt_empty', field: 'brushes.0.prompt', index: 0 },
    ]);
  });
});

describe('nextCompositeColor', () => {
  it('hands out unused palette colours first', () => {
    expect(nextCompositeColor([])).toBe(COMPOSITE_PALETTE[0]);
    expect(nextCompositeColor([COMPOSITE_PALETTE[0].toUpperCase()])).toBe(COMPOSITE_PALETTE[1]);
    expect(nextCompositeColor([...COMPOSITE_PALETTE])).toBe(COMPOSITE_PALETTE[0]);
  });
});
