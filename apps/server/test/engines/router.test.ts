import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ENGINE_CONFIG,
  EngineConfigError,
  loadEngineConfig,
  parseEngineConfig,
} from '../../src/engines/config.ts';
import { createEngineRouter } from '../../src/engines/router.ts';
import type { EngineTask, Txt2ImgTask } from '../../src/engines/types.ts';
import { SDXL } from './helpers.ts';

const env = { FAL_KEY: 'k', OPENAI_API_KEY: 'sk', COMFY_GPU2_TOKEN: 'token' };
const txt2img = (modelId: string, modelType: string): Txt2ImgTask => ({
  kind: 'txt2img',
  model: { id: modelId, path: `${modelId}.safetensors`, modelType },
  prompt: 'p',
  negativePrompt: '',
  width: 512,
  height: 512,
  steps: 4,
  cfg: 5,
  seed: 1,
  numImages: 1,
  loras: [],
});
const video: EngineTask = {
  kind: 'video',
  model: 'wan_i2v',
  prompt: 'p',
  image: Buffer.alloc(0),
  durationSeconds: 5,
  seed: 1,
};
const edit = (model: 'kontext-dev' | 'nano-banana'): EngineTask => ({
  kind: 'edit',
  model,
  prompt: 'p',
  image: Buffer.alloc(0),
  seed: 1,
});

/** The example in docs/engines-config.md, so the documentation cannot drift from the schema. */
function documentedExample(): unknown {
  const doc = readFileSync(new URL('../../../../docs/engines-config.md', import.meta.url), 'utf8');
  const block = /```json\n([\s\S]*?)```/.exec(doc);
  return JSON.parse(block![1]!) as unknown;
}

describe('engine config', () => {
  it('defaults to everything on builtin when ENGINES_CONFIG is not set', () => {
    expect(loadEngineConfig({})).toEqual({ default: 'builtin', routes: [] });
    const router = createEngineRouter(DEFAULT_ENGINE_CONFIG, {});
    expect(router.engineFor(txt2img('fluxpro', 'fluxpro')).id).toBe('builtin');
    expect(router.engineFor(edit('nano-banana')).id).toBe('builtin');
    expect(() => router.engineFor(video)).toThrow(
      expect.objectContaining({
        code: 'validation',
        message: expect.stringContaining('builtin engine cannot run video'),
      }) as Error,
    );
  });

  it('accepts the documented example and routes by model, model type and kind, first match first', () => {
    const router = createEngineRouter(parseEngineConfig(documentedExample()), env);
    expect(router.engineFor(txt2img('gpt-image-1', 'gpt')).id).toBe('openai');
    expect(router.engineFor(txt2img('animaginexl4.0', 'sdxl')).id).toBe('comfyui');
    expect(router.engineFor(txt2img('fluxpro', 'fluxpro')).id).toBe('fal');
    expect(router.engineFor(video).id).toBe('fal');
    expect(router.engineFor(edit('nano-banana')).id).toBe('fal');
    expect(router.engineFor(edit('kontext-dev')).id).toBe('comfyui');
    expect(router.engineFor({ kind: 'upscale', image: Buffer.alloc(0), scale: 2 }).id).toBe('comfyui');
    expect(router.engineFor(txt2img('unknown', 'weird')).id).toBe('builtin');
    expect([...router.engines.keys()].sort()).toEqual(['builtin', 'comfyui', 'fal', 'openai']);
  });

  it('fails loudly when a routed engine cannot run the task', () => {
    const router = createEngineRouter(
      parseEngineConfig({ routes: [{ modelTypes: ['sdxl'], engine: 'fal' }], fal: {} }),
      env,
    );
    expect(() => router.engineFor(txt2img(SDXL.id, 'sdxl'))).toThrow(
      'The fal engine cannot run txt2img with animaginexl4.0; check the routes in the engine config',
    );
  });

  it('lists every problem of an invalid config', () => {
    const bad = {
      default: 'comfyui',
      routes: [{ engine: 'fal' }, { kinds: ['paint'], engine: 'openai' }],
      comfyui: { servers: ['not a url'] },
      openai: { keyEnv: 'lower-case', colour: 'blue' },
    };
    let message = '';
    try {
      parseEngineConfig(bad, 'engine config test.json');
    } catch (err) {
      expect(err).toBeInstanceOf(EngineConfigError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/^Invalid engine config test\.json:/);
    expect(message).toContain('routes.0: A route needs at least one of models, modelTypes or kinds');
    expect(message).toContain('routes.1.kinds.0');
    expect(message).toContain('comfyui.servers.0');
    expect(message).toContain('openai.keyEnv: must be an environment variable name');
    expect(message).toContain('openai');
    expect(message).toMatch(/colour/);
  });

  it('rejects engines used without a settings section', () => {
    expect(() => parseEngineConfig({ default: 'fal' })).toThrow('default: "fal" is used but has no settings section');
    expect(() => parseEngineConfig({ routes: [{ kinds: ['video'], engine: 'fal' }] })).toThrow(
      'routes.0.engine: "fal" is used but has no settings section',
    );
  });

  it('refuses to start when an API key variable is empty', () => {
    expect(() => createEngineRouter(parseEngineConfig({ fal: { keyEnv: 'MY_FAL' } }), {})).toThrow(
      'The fal engine is configured but the environment variable MY_FAL is empty',
    );
  });

  it('reads the file named by ENGINES_CONFIG and explains unreadable or non-JSON files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'koma-engines-'));
    const good = join(dir, 'engines.json');
    writeFileSync(good, JSON.stringify({ routes: [{ kinds: ['video'], engine: 'fal' }], fal: {} }));
    expect(loadEngineConfig({ ENGINES_CONFIG: good }).fal).toEqual({ keyEnv: 'FAL_KEY' });
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "routes": [');
    expect(() => loadEngineConfig({ ENGINES_CONFIG: broken })).toThrow(/is not valid JSON/);
    expect(() => loadEngineConfig({ ENGINES_CONFIG: join(dir, 'missing.json') })).toThrow(
      /Cannot read the engine config .*missing\.json/,
    );
  });
});
