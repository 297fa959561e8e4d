import { describe, expect, it } from 'vitest';
import {
  COMIC_PRESETS,
  EDIT_MODELS,
  LORA_CATALOGUE,
  LORA_FILTERS,
  MODEL_CATALOGUE,
  UNKNOWN_MODEL,
  VIDEO_MODELS,
  filterLoras,
  findComicPreset,
  findLoraById,
  findModelById,
  findModelByPath,
  findVideoModel,
  loraBaseModelLabel,
  loraTriggerWords,
  withLoraTriggerWords,
  modelRequiresSubscription,
  zComicPreset,
  zLora,
  zLoraCatalogueEntry,
  zModelCatalogueEntry,
  zSpeechBubble,
  zVideoModel,
} from '../../src/generation/index.ts';

const SPEC_MODEL_IDS = [
  'aamxl',
  'animaginexl3.0',
  'animaginexl3.1',
  'animaginexl4.0',
  'animexl-xuebimix',
  'anythingxl',
  'fluxdev',
  'fluxdevmanga',
  'fluxpro',
  'fluxschnell',
  'gpt-image-1',
  'holodayo2.1',
  'kivotos2.0',
  'mistoon_anime',
  'noobaixl',
  'novaanimexl',
  'ponydiffusionv6',
  'prefectponyxl3',
  'sdxl',
  'sdxl_anime',
  'tponynai3',
  'waicute',
  'wainsfwillust',
];
const SPEC_PRESET_IDS = [
  'preset_gpt_bw',
  'preset_gpt_colored',
  'preset_gpt_ghibli',
  'preset_comic_schnell',
  'preset_manga_schnell',
  'preset_manga_dev',
  'preset_storyboard',
  'preset_a_bw',
  ...[1, 2, 3, 4, 5, 6, 7].map((n) => `preset_dagpt_${n}`),
];

describe('model catalogue', () => {
  it('has exactly the 23 spec ids, each a valid entry', () => {
    expect(MODEL_CATALOGUE.map((m) => m.id).sort()).toEqual([...SPEC_MODEL_IDS].sort());
    for (const m of MODEL_CATALOGUE) expect(zModelCatalogueEntry.parse(m)).toEqual(m);
  });

  it('has unique paths across current and past paths', () => {
    const all = MODEL_CATALOGUE.flatMap((m) => [m.path, ...(m.pastPaths ?? [])]);
    expect(new Set(all).size).toBe(all.length);
  });

  it('requires a subscription only for gpt-image-1', () => {
    expect(MODEL_CATALOGUE.filter((m) => m.requiresSubscription).map((m) => m.id)).toEqual(['gpt-image-1']);
    expect(modelRequiresSubscription('gpt-image-1')).toBe(true);
    expect(modelRequiresSubscription('fluxpro')).toBe(false);
    expect(modelRequiresSubscription('nope')).toBe(false);
  });

  it.each([
    ['noobaixl', 28, 3.5],
    ['novaanimexl', 28, 4.5],
  ])('%s defaults to %d steps and guidance %d', (id, steps, cfg) => {
    const m = findModelById(id);
    expect(m?.defaultSteps).toBe(steps);
    expect(m?.defaultGuidanceScale).toBe(cfg);
  });

  it('finds models by current and past path; unknown paths give Unknown/sdxl', () => {
    const a31 = findModelById('animaginexl3.1');
    expect(a31).toBeDefined();
    expect(findModelByPath(a31!.path).id).toBe('animaginexl3.1');
    expect(findModelByPath('animagine-xl-3.1.safetensors').id).toBe('animaginexl3.1');
    expect(findModelByPath('fal-ai/flux-pro').id).toBe('fluxpro');
    const unknown = findModelByPath('some/other.safetensors');
    expect(unknown).toBe(UNKNOWN_MODEL);
    expect([unknown.name, unknown.id, unknown.modelType]).toEqual(['Unknown', 'unknown', 'sdxl']);
    expect(findModelById('unknown')).toBeUndefined();
  });

  it('gives tag-preferring models quality tags and natural-language models none', () => {
    for (const m of MODEL_CATALOGUE) {
      const hasTags = m.qualityTagsPrefix !== '' || m.qualityTagsSuffix !== '';
      expect(hasTags, m.id).toBe(m.prefersTags);
    }
  });
});

describe('LoRA', () => {
  it.each([
    ['none', 'None'],
    ['sd', 'SD'],
    ['sdxl', 'SDXL'],
    ['fluxs', 'FLUX Schnell'],
    ['fluxd', 'FLUX'],
    ['fluxp', 'FLUX Pro'],
    ['illustrious', 'Illustrious'],
    ['pony', 'Unknown'],
    ['', 'Unknown'],
    ['toString', 'Unknown'],
  ])('labels %j as %s', (base, label) => expect(loraBaseModelLabel(base)).toBe(label));

  const ok = { name: 'x', url: 'https://example.com/x.safetensors', strength: 0, baseModel: 'sdxl' };
  it.each([
    ['strength below 0', { ...ok, strength: -0.01 }],
    ['a url that is not a URL', { ...ok, url: 'not a url' }],
    ['an unknown base model', { ...ok, baseModel: 'pony' }],
    ['an empty name', { ...ok, name: '' }],
  ])('rejects %s', (_, lora) => expect(zLora.safeParse(lora).success).toBe(false));
  it('accepts strength 0 and nullable optionals', () => {
    expect(zLora.safeParse({ ...ok, civitaiModelId: null, thumbnailUrl: null }).success).toBe(true);
  });

  it('has a valid starter catalogue with unique ids covering every category', () => {
    for (const l of LORA_CATALOGUE) expect(zLoraCatalogueEntry.parse(l)).toEqual(l);
    expect(new Set(LORA_CATALOGUE.map((l) => l.id)).size).toBe(LORA_CATALOGUE.length);
    expect(LORA_FILTERS).toEqual(['all', 'general', 'character', 'concept', 'style']);
    for (const f of LORA_FILTERS.slice(1)) expect(filterLoras(LORA_CATALOGUE, f).length).toBeGreaterThan(0);
    expect(filterLoras(LORA_CATALOGUE, 'all')).toHaveLength(LORA_CATALOGUE.length);
    expect(findLoraById('pixel-art-xl')?.baseModel).toBe('sdxl');
    expect(findLoraById('missing')).toBeUndefined();
  });
});

describe('presets, edit, video and bubble catalogues', () => {
  it('has the 15 spec presets, each valid with a known model and a credit', () => {
    expect(COMIC_PRESETS.map((p) => p.id)).toEqual(SPEC_PRESET_IDS);
    for (const p of COMIC_PRESETS) {
      expect(zComicPreset.parse(p)).toEqual(p);
      expect(findModelById(p.modelId), p.id).toBeDefined();
      expect(p.previews.length).toBeGreaterThan(0);
    }
    expect(findComicPreset('preset_gpt_bw')?.credit).toBe(80);
    expect(findComicPreset('preset_comic_schnell')?.credit).toBe(2);
    expect(findComicPreset('preset_a_bw')?.loras).toHaveLength(1);
  });

  it('has the four edit models with their credits, kontext-dev first', () => {
    expect(EDIT_MODELS.map((m) => [m.id, m.credits])).toEqual([
      ['kontext-dev', 20],
      ['kontext-pro', 40],
      ['kontext-max', 60],
      ['nano-banana', 150],
    ]);
  });

  it('has the five video models of the spec table', () => {
    expect(VIDEO_MODELS).toHaveLength(5);
    for (const v of VIDEO_MODELS) expect(zVideoModel.parse(v)).toEqual(v);
    expect(VIDEO_MODELS.map((m) => [m.id, m.credits_per_second])).toEqual([
      ['wan22_i2v', 50],
      ['wan_i2v', 50],
      ['kling1.6_i2v', 100],
      ['kling2.0_i2v', 300],
      ['vidu_q1', 100],
    ]);
    expect(findVideoModel('kling1.6_i2v')?.supports_end_frame).toBe(true);
    for (const id of ['wan22_i2v', 'wan_i2v']) {
      expect(findVideoModel(id)?.supports_end_frame).toBe(false);
      expect(findVideoModel(id)?.extra_params).toEqual({ num_frames: 81, frames_per_second: 16 });
    }
  });

  it('validates speech-bubble entries', () => {
    const bubble = {
      id: 'b1',
      thumbnail: '/speech_bubbles/b1.svg',
      width: 800,
      height: 400,
      paths: [{ path: 'M0 0L10 10Z', fill: 'FILL_FG' }],
    };
    expect(zSpeechBubble.parse(bubble)).toEqual(bubble);
    expect(zSpeechBubble.safeParse({ ...bubble, paths: [] }).success).toBe(true);
    expect(zSpeechBubble.safeParse({ ...bubble, paths: [{ path: 'M0 0', fill: 'FILL_RED' }] }).success).toBe(false);
    expect(zSpeechBubble.safeParse({ ...bubble, thumbnail: '/other/b1.png' }).success).toBe(false);
    expect(zSpeechBubble.safeParse({ ...bubble, width: 0 }).success).toBe(false);
  });
});

describe('LoRA trigger words', () => {
  const lineart = findLoraById('linear-manga-sdxl')!;
  const pixel = findLoraById('pixel-art-xl')!;
  const foreign = { url: 'https://example.com/other.safetensors' };

  it('appends the missing trigger words of catalogue LoRAs only', () => {
    expect(loraTriggerWords([lineart, foreign])).toEqual(['lineart', 'LineAniAF']);
    expect(withLoraTriggerWords('a samurai', [lineart, pixel, foreign])).toBe(
      'a samurai, lineart, LineAniAF, pixel art',
    );
    expect(withLoraTriggerWords('Pixel Art of a samurai', [pixel])).toBe('Pixel Art of a samurai');
    expect(withLoraTriggerWords('', [pixel])).toBe('pixel art');
    expect(withLoraTriggerWords('a samurai', [foreign])).toBe('a samurai');
  });
});
