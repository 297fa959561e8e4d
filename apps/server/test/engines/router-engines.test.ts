import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEngineConfig } from '../../src/engines/config.ts';
import { createEngineRouter } from '../../src/engines/router.ts';
import type { EngineTask } from '../../src/engines/types.ts';
import { FakeComfyUI } from './fakes/fake-comfyui.ts';
import { FAL_KEY, FakeFal } from './fakes/fake-fal.ts';
import { FakeOpenAI, OPENAI_KEY } from './fakes/fake-openai.ts';
import { SDXL, gradientPng, recorder } from './helpers.ts';

/** The config file's settings reach the engines: one router, three fake backends, one task each. */
describe('router with configured engines', () => {
  let comfy: FakeComfyUI;
  let fal: FakeFal;
  let openai: FakeOpenAI;
  beforeAll(async () => {
    [comfy, fal, openai] = await Promise.all([
      new FakeComfyUI().start(),
      new FakeFal().start(),
      new FakeOpenAI().start(),
    ]);
  });
  afterAll(() => Promise.all([comfy.close(), fal.close(), openai.close()]));

  it('runs each task on the engine its route names, with the configured connection settings', async () => {
    const config = parseEngineConfig({
      routes: [
        { modelTypes: ['sdxl'], engine: 'comfyui' },
        { kinds: ['video'], engine: 'fal' },
        { models: ['gpt-image-1'], engine: 'openai' },
      ],
      comfyui: { servers: [comfy.url], previewIntervalMs: 0 },
      fal: { keyEnv: 'TEST_FAL_KEY', baseUrl: fal.url, pollIntervalMs: 2 },
      openai: { keyEnv: 'TEST_OPENAI_KEY', baseUrl: openai.url, partialImages: 1 },
    });
    const router = createEngineRouter(config, { TEST_FAL_KEY: FAL_KEY, TEST_OPENAI_KEY: OPENAI_KEY });
    const base = {
      prompt: 'p',
      negativePrompt: '',
      width: 64,
      height: 64,
      steps: 2,
      cfg: 5,
      seed: 1,
      numImages: 1,
      loras: [],
    };
    const tasks: EngineTask[] = [
      { kind: 'txt2img', model: SDXL, ...base },
      { kind: 'video', model: 'wan_i2v', prompt: 'p', image: await gradientPng(32, 32), durationSeconds: 5, seed: 1 },
      { kind: 'txt2img', model: { id: 'gpt-image-1', path: 'gpt-image-1', modelType: 'gpt' }, ...base },
      { kind: 'txt2img', model: { id: 'fluxdev', path: 'flux1-dev.safetensors', modelType: 'fluxdev' }, ...base },
    ];
    const engines = [];
    for (const task of tasks) {
      const engine = router.engineFor(task);
      const result = await engine.run(task, recorder(), new AbortController().signal);
      expect(result.metadata.engine).toBe(engine.id);
      engines.push(engine.id);
    }
    expect(engines).toEqual(['comfyui', 'fal', 'openai', 'builtin']);
    expect(comfy.requests.some((r) => r.path === '/prompt' && r.method === 'POST')).toBe(true);
    expect(fal.requests.some((r) => r.path === '/fal-ai/wan-i2v')).toBe(true);
    expect(openai.calls[0]?.fields.partial_images).toBe('1');
  });
});
