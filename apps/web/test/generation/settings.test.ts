import { describe, expect, it } from 'vitest';
import { LORA_CATALOGUE, MAX_LORAS, quoteRequest, type Lora } from '@koma/domain';
import {
  SettingsStore,
  defaultSettings,
  effectiveSampling,
  restoreSettings,
  withLora,
  withModel,
} from '../../src/generation/settings.ts';
import { fullPrompt, regenerateTxt2img, txt2imgPayload, paramsOf } from '../../src/generation/requests.ts';

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe('generation settings', () => {
  it('starts from the §9 defaults', () => {
    const d = defaultSettings().diffusion;
    expect(d).toMatchObject({
      steps: 20,
      cfg: 7,
      inpaintStrength: 0.7,
      img2imgStrength: 0.7,
      sketchStrength: 0.7,
      poseStrength: 0.7,
      batchSize: 1,
      seed: -1,
      lightning: 'none',
      qualityTags: true,
      dimension: { width: 832, height: 1216 },
    });
    expect(defaultSettings().face).toMatchObject({ strength: 0.5 });
    expect(defaultSettings().editModel).toBe('kontext-dev');
  });

  it('applies a model’s default steps and guidance when it is chosen', () => {
    const d = defaultSettings().diffusion;
    expect(withModel(d, 'noobaixl')).toMatchObject({ model: 'noobaixl', steps: 28, cfg: 3.5 });
    expect(withModel(d, 'novaanimexl')).toMatchObject({ model: 'novaanimexl', steps: 28, cfg: 4.5 });
    expect(withModel(d, 'no-such-model')).toBe(d);
  });

  it('lets lightning override steps and cfg', () => {
    const d = defaultSettings().diffusion;
    expect(effectiveSampling({ ...d, lightning: 'lightning-2' })).toEqual({ steps: 2, cfg: 0 });
    expect(effectiveSampling({ ...d, lightning: 'lightning-8' })).toEqual({ steps: 8, cfg: 2 });
    expect(effectiveSampling(d)).toEqual({ steps: 20, cfg: 7 });
  });

  it('keeps at most 10 LoRAs and updates the strength of one already chosen', () => {
    let d = defaultSettings().diffusion;
    const base = LORA_CATALOGUE[0]!;
    for (let i = 0; i < 12; i++) {
      const lora: Lora = {
        name: `L${i}`,
        url: `https://example.com/${i}.safetensors`,
        strength: 1,
        baseModel: base.baseModel,
      };
      d = withLora(d, lora);
    }
    expect(d.loras).toHaveLength(MAX_LORAS);
    d = withLora(d, { ...d.loras[3]!, strength: 0.4 });
    expect(d.loras).toHaveLength(MAX_LORAS);
    expect(d.loras[3]!.strength).toBe(0.4);
  });

  it('survives a reload through storage and drops fields that no longer validate', () => {
    const storage = memoryStorage();
    const store = new SettingsStore(storage);
    store.updateDiffusion({ prompt: 'rain', seed: 42 });
    expect(new SettingsStore(storage).state.diffusion).toMatchObject({ prompt: 'rain', seed: 42 });
    const broken = restoreSettings({ diffusion: { steps: -3 }, editModel: 'nope', comicPreset: 'preset_manga_dev' });
    expect(broken.diffusion.steps).toBe(20);
    expect(broken.editModel).toBe('kontext-dev');
    expect(broken.comicPreset).toBe('preset_manga_dev');
  });
});

describe('requests and their price', () => {
  it('prices the txt2img of the settings as the server does (6 per sdxl image, 4 with lightning)', () => {
    const s = defaultSettings();
    s.diffusion.prompt = 'a girl';
    expect(quoteRequest('txt2img', txt2imgPayload(s))).toEqual({ ok: true, credits: 6 });
    s.diffusion.batchSize = 3;
    expect(quoteRequest('txt2img', txt2imgPayload(s))).toEqual({ ok: true, credits: 18 });
    s.diffusion.lightning = 'lightning-4';
    expect(quoteRequest('txt2img', txt2imgPayload(s))).toEqual({ ok: true, credits: 12 });
    s.diffusion.prompt = '';
    expect(quoteRequest('txt2img', txt2imgPayload(s)).ok).toBe(false);
  });

  it('puts the comic preset’s base prompt before the prompt', () => {
    const s = { ...defaultSettings(), comicPreset: 'preset_manga_dev' };
    s.diffusion.prompt = 'a cat';
    expect(fullPrompt(s)).toMatch(/, a cat$/);
    expect(fullPrompt(s).length).toBeGreaterThan('a cat'.length + 2);
    s.diffusion.prompt = '  ';
    expect(fullPrompt(s)).toBe('');
  });

  it('forces quality tags for pose and sketch sources', () => {
    const s = defaultSettings();
    s.diffusion.prompt = 'x';
    s.diffusion.qualityTags = false;
    expect(txt2imgPayload(s).qualityTags).toBe(false);
    expect(txt2imgPayload(s, 'pose').qualityTags).toBe(true);
    expect(txt2imgPayload(s, 'sketch').qualityTags).toBe(true);
  });

  it('regenerates from the layer’s own parameters with seed + the count of its variations', () => {
    const d = { ...defaultSettings().diffusion, seed: 1000 };
    const params = paramsOf(d, 'a dog', 'txt2img');
    expect(regenerateTxt2img(params, 3)).toMatchObject({ prompt: 'a dog', seed: 1003, steps: 20, cfg: 7 });
  });
});
