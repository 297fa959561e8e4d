/**
 * ComfyUI as people run it: old versions, the history written after execution_success, Windows paths and
 * subfolders, previews off by default, missing nodes and files, a token-protected proxy, files left on the
 * host, LoRAs by file name. Each case follows the fake's model of the real server (fakes/fake-comfyui.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ComfyUiEngine } from '../../src/engines/comfyui/engine.ts';
import type { ComfyUiEngineOptions } from '../../src/engines/comfyui/engine.ts';
import { createEngineRouter, parseEngineConfig } from '../../src/engines/index.ts';
import type { EditTask, Txt2ImgTask } from '../../src/engines/types.ts';
import { FakeComfyUI } from './fakes/fake-comfyui.ts';
import type { FakeComfyOptions } from './fakes/fake-comfyui.ts';
import { SDXL, gradientPng, recorder } from './helpers.ts';

const live = (): AbortSignal => new AbortController().signal;
const fast: Partial<ComfyUiEngineOptions> = {
  previewIntervalMs: 0,
  historyPollMs: 10,
  idleTimeoutMs: 2_000,
  requestTimeoutMs: 2_000,
  probeTimeoutMs: 500,
};
const txt2img: Txt2ImgTask = {
  kind: 'txt2img',
  model: SDXL,
  prompt: 'manga panel',
  negativePrompt: 'lowres',
  width: 96,
  height: 64,
  steps: 4,
  cfg: 6,
  seed: 7,
  numImages: 1,
  loras: [],
};

const fakes: FakeComfyUI[] = [];
async function start(options: FakeComfyOptions = {}): Promise<FakeComfyUI> {
  const fake = await new FakeComfyUI(options).start();
  fakes.push(fake);
  return fake;
}
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const submitted = (fake: FakeComfyUI) =>
  fake.requests.find((r) => r.method === 'POST' && r.path === '/prompt')?.body as
    { prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }>; prompt_id?: string } | undefined;
const nodeInputs = (fake: FakeComfyUI, type: string) =>
  Object.values(submitted(fake)?.prompt ?? {})
    .filter((n) => n.class_type === type)
    .map((n) => n.inputs);

describe('finding 1: servers before 0.3.45 assign the prompt id', () => {
  it('follows the id POST /prompt returns on 0.3.44 and gets the picture', async () => {
    const fake = await start({ version: '0.3.44' });
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
    const events = recorder();
    const result = await engine.run(txt2img, events, live());
    expect(result.images).toHaveLength(1);
    expect(submitted(fake)?.prompt_id).toBeUndefined();
    expect(events.logs()).toContain('Progress: 4/4');
    // Previews come as type-1 frames without a prompt id on this version, and still reach the job.
    expect(events.events.some((e) => e.preview)).toBe(true);
  });

  it('keeps our own id from 0.3.45 on', async () => {
    const fake = await start({ version: '0.3.45' });
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
    await engine.run(txt2img, recorder(), live());
    expect(submitted(fake)?.prompt_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a server older than the minimum, naming it', async () => {
    const fake = await start({ version: '0.1.3' });
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
    await expect(engine.run(txt2img, recorder(), live())).rejects.toMatchObject({
      code: 'engine_rejected',
      message: `ComfyUI at ${fake.url} runs ComfyUI 0.1.3; Koma needs 0.2.0 or newer, 0.3.57 or newer recommended`,
    });
  });
});

describe('finding 6: cancelling on servers before 0.3.57, whose /interrupt stops whatever runs', () => {
  it('interrupts its own running prompt without a prompt_id there', async () => {
    const fake = await start({ version: '0.3.56' });
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
    const controller = new AbortController();
    const run = engine.run(
      { ...txt2img, steps: 200 },
      { onProgress: (e) => e.logs?.includes('Progress: 2/200') && controller.abort() },
      controller.signal,
    );
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    await expect.poll(() => fake.requests.find((r) => r.path === '/interrupt')?.body).toEqual({});
  });

  it("never interrupts another user's prompt that runs while ours waits", async () => {
    const fake = await start({ version: '0.3.56', tickMs: 5 });
    // Someone else's long prompt runs; ours queues behind it.
    await fetch(`${fake.url}/prompt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: 'someone-else',
        prompt: {
          '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd_xl_base_1.0.safetensors' } },
          '2': { class_type: 'CLIPTextEncode', inputs: { clip: ['1', 1], text: 'x' } },
          '3': { class_type: 'EmptyLatentImage', inputs: { width: 64, height: 64, batch_size: 1 } },
          '4': {
            class_type: 'KSampler',
            inputs: {
              model: ['1', 0],
              positive: ['2', 0],
              negative: ['2', 0],
              latent_image: ['3', 0],
              seed: 1,
              steps: 400,
              cfg: 5,
              sampler_name: 'euler',
              scheduler: 'normal',
              denoise: 1,
            },
          },
          '5': { class_type: 'VAEDecode', inputs: { samples: ['4', 0], vae: ['1', 2] } },
          '6': { class_type: 'SaveImage', inputs: { images: ['5', 0], filename_prefix: 'other' } },
        },
      }),
    });
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
    const controller = new AbortController();
    const events = recorder();
    const run = engine.run(txt2img, events, controller.signal);
    await expect.poll(() => events.events.some((e) => e.queuePosition !== undefined)).toBe(true);
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.requests.some((r) => r.path === '/interrupt')).toBe(false);
    expect(fake.queueRemaining).toBe(1); // ours deleted from the queue, theirs still running
  });
});

describe('finding 2: the history is written after execution_success', () => {
  it('waits for executing {node: null} and gets the picture even when the history comes late', async () => {
    const fake = await start({ historyDelayMs: 400 });
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast, historyRetries: 0 });
    const result = await engine.run(txt2img, recorder(), live());
    expect(result.images).toHaveLength(1);
  });
});

describe('finding 3 and 9: model files as the server names them', () => {
  it('finds catalogue paths on Windows (backslashes) and in other subfolders', async () => {
    const fake = await start({
      os: 'nt',
      folders: { checkpoints: ['SDXL/animagine/animagine-xl-4.0.safetensors', 'sdxl/sd_xl_base_1.0.safetensors'] },
    });
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
    await engine.run(
      { ...txt2img, model: { ...SDXL, path: 'animagine-xl-4.0/animagine-xl-4.0.safetensors' } },
      recorder(),
      live(),
    );
    expect(nodeInputs(fake, 'CheckpointLoaderSimple')[0]?.ckpt_name).toBe(
      'SDXL\\animagine\\animagine-xl-4.0.safetensors',
    );
    fake.requests.length = 0;
    await engine.run({ ...txt2img, model: { ...SDXL, path: 'sdxl/sd_xl_base_1.0.safetensors' } }, recorder(), live());
    expect(nodeInputs(fake, 'CheckpointLoaderSimple')[0]?.ckpt_name).toBe('sdxl\\sd_xl_base_1.0.safetensors');
  });

  it('uses the engine config mapping for renamed files, and sends LoRAs as file names', async () => {
    const fake = await start({
      folders: {
        checkpoints: ['my-anime-model.safetensors'],
        loras: ['sdxl_lightning_4step_lora.safetensors', 'styles/pixel.safetensors'],
      },
    });
    const engine = new ComfyUiEngine({
      servers: [fake.url],
      ...fast,
      files: {
        models: { [SDXL.id]: 'my-anime-model.safetensors' },
        loras: { 'Pixel Art XL': 'styles/pixel.safetensors' },
      },
    });
    await engine.run(
      {
        ...txt2img,
        loras: [
          {
            name: 'SDXL Lightning 4-step',
            url: 'https://huggingface.co/ByteDance/SDXL-Lightning/resolve/main/sdxl_lightning_4step_lora.safetensors',
            strength: 1,
          },
          { name: 'Pixel Art XL', url: 'https://example.org/pixel-art-xl.safetensors', strength: 0.8 },
        ],
      },
      recorder(),
      live(),
    );
    expect(nodeInputs(fake, 'CheckpointLoaderSimple')[0]?.ckpt_name).toBe('my-anime-model.safetensors');
    expect(nodeInputs(fake, 'LoraLoader').map((i) => i.lora_name)).toEqual([
      'sdxl_lightning_4step_lora.safetensors',
      'styles/pixel.safetensors',
    ]);
  });

  it('says which LoRA file is missing, before submitting', async () => {
    const fake = await start();
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
    const err = await engine
      .run(
        { ...txt2img, loras: [{ name: 'Line art', url: 'https://example.org/lineart.safetensors', strength: 1 }] },
        recorder(),
        live(),
      )
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'model_missing' });
    expect((err as Error).message).toContain('has no file models/loras/lineart.safetensors');
    expect(submitted(fake)).toBeUndefined();
  });

  it('picks up a file added after the last check without a restart', async () => {
    const fake = await start({ folders: { checkpoints: [] } });
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
    await expect(engine.run(txt2img, recorder(), live())).rejects.toMatchObject({ code: 'model_missing' });
    fake.folders.checkpoints.push('animagine-xl-4.0.safetensors');
    const result = await engine.run(txt2img, recorder(), live());
    expect(result.images).toHaveLength(1);
  });
});

describe('finding 4: previews are off on a default ComfyUI', () => {
  it('says so in the job log and in the status report when the server runs without --preview-method', async () => {
    const fake = await start({ previewMethod: 'none' });
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
    const events = recorder();
    await engine.run(txt2img, events, live());
    expect(events.events.some((e) => e.preview)).toBe(false);
    expect(events.logs()).toContain(
      `Previews are off on ComfyUI at ${fake.url}: start ComfyUI with --preview-method auto to see the picture form`,
    );
    const [report] = await engine.checkServers();
    expect(report).toMatchObject({ previewMethod: 'none', previewsOff: true });
    expect(report?.warnings).toContain('Previews are off on this server: start ComfyUI with --preview-method auto');
  });

  it('tells the model tab that models routed to that server will show no previews', async () => {
    const fake = await start({ previewMethod: 'none' });
    const config = (url: string) =>
      parseEngineConfig({
        default: 'builtin',
        routes: [{ modelTypes: ['sdxl'], engine: 'comfyui' }],
        comfyui: { servers: [url] },
      });
    const router = createEngineRouter(config(fake.url));
    expect(router.modelAvailability().models['animaginexl4.0']?.previewsOff).toBeUndefined(); // not checked yet
    await router.checkEngines();
    expect(router.modelAvailability().models['animaginexl4.0']).toMatchObject({ engine: 'comfyui', previewsOff: true });
    expect(router.modelAvailability().models['gpt-image-1']?.previewsOff).toBeUndefined();
    const on = createEngineRouter(config((await start({ previewMethod: 'auto' })).url));
    await on.checkEngines();
    expect(on.modelAvailability().models['animaginexl4.0']?.previewsOff).toBeUndefined();
  });

  it('does not complain when previews arrive', async () => {
    const fake = await start({ previewMethod: 'auto' });
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
    const events = recorder();
    await engine.run(txt2img, events, live());
    expect(events.logs().some((l) => l.startsWith('Previews are off'))).toBe(false);
    expect((await engine.checkServers())[0]).toMatchObject({ previewMethod: 'auto', previewsOff: false });
  });
});

describe('finding 5: the capability check', () => {
  it('lists the Kontext nodes an older ComfyUI lacks, and a Kontext job names them', async () => {
    const fake = await start({
      withoutNodes: ['FluxKontextImageScale', 'ReferenceLatent'],
      folders: { diffusion_models: ['flux1-kontext-dev.safetensors'] },
    });
    const engine = new ComfyUiEngine({
      servers: [fake.url],
      ...fast,
      files: { kontextUnet: 'flux1-kontext-dev.safetensors' },
    });
    const [report] = await engine.checkServers();
    expect(report?.missingNodes.map((n) => n.node)).toEqual(['FluxKontextImageScale', 'ReferenceLatent']);
    const edit: EditTask = {
      kind: 'edit',
      model: 'kontext-dev',
      prompt: 'night',
      image: await gradientPng(32, 32),
      seed: 1,
    };
    const err = await engine.run(edit, recorder(), live()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'node_missing' });
    expect((err as Error).message).toBe(
      `ComfyUI at ${fake.url} lacks the nodes FluxKontextImageScale (core node of ComfyUI 0.3.42 or newer, needed for Kontext edits), ReferenceLatent (core node of ComfyUI 0.3.42 or newer, needed for Kontext edits)`,
    );
  });

  it('runs at router start-up against the catalogue models routed to ComfyUI, and marks models unavailable', async () => {
    const fake = await start({ folders: { checkpoints: ['animagine-xl-4.0-opt.safetensors'] } });
    const router = createEngineRouter(
      parseEngineConfig({
        default: 'builtin',
        routes: [{ modelTypes: ['sdxl'], engine: 'comfyui' }],
        comfyui: { servers: [fake.url] },
      }),
    );
    const status = await router.checkEngines();
    const comfy = status.engines.find((e) => e.id === 'comfyui');
    expect(comfy?.servers?.[0]?.missingFiles).toEqual(
      expect.arrayContaining([
        { folder: 'checkpoints', file: 'noobai-xl/noobai-xl-vpred-1.0.safetensors', usedBy: 'model noobaixl' },
      ]),
    );
    const availability = router.modelAvailability();
    expect(availability.models['animaginexl4.0']).toEqual({ available: true, engine: 'comfyui' });
    expect(availability.models.noobaixl).toMatchObject({ available: false, engine: 'comfyui' });
    expect(availability.models['gpt-image-1']).toEqual({ available: true, engine: 'builtin' });
  });
});

describe('finding 6: credentials and files left on the host', () => {
  it('sends the bearer token of a protected server on HTTP and the WebSocket, and names a refusal', async () => {
    const fake = await start({ auth: { bearer: 'sekrit' } });
    const engine = new ComfyUiEngine({ servers: [{ url: fake.url, auth: { bearer: 'sekrit' } }], ...fast });
    expect((await engine.run(txt2img, recorder(), live())).images).toHaveLength(1);
    const wrong = new ComfyUiEngine({ servers: [{ url: fake.url, auth: { bearer: 'nope' } }], ...fast });
    await expect(wrong.run(txt2img, recorder(), live())).rejects.toMatchObject({ code: 'engine_auth' });
    const basic = await start({ auth: { basic: 'koma:pw' } });
    const viaEnv = createEngineRouter(
      parseEngineConfig({
        default: 'comfyui',
        comfyui: { servers: [{ url: basic.url, basicAuthEnv: 'COMFY_BASIC' }] },
      }),
      { COMFY_BASIC: 'koma:pw' },
    );
    expect((await viaEnv.engines.get('comfyui')!.run(txt2img, recorder(), live())).images).toHaveLength(1);
  });

  it('leaves nothing in input/ or output/ by default: inputs and results live in temp/, history is deleted', async () => {
    const fake = await start();
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast });
    const task = { ...txt2img, kind: 'img2img' as const, image: await gradientPng(32, 32), strength: 0.5 };
    const result = await engine.run(task, recorder(), live());
    expect(result.images).toHaveLength(1);
    expect(fake.storedFiles().filter((f) => f.startsWith('input/') || f.startsWith('output/'))).toEqual([]);
    expect(fake.storedFiles().some((f) => f.startsWith('temp/'))).toBe(true);
    expect(nodeInputs(fake, 'LoadImage')[0]?.image).toMatch(/^koma-.*-image\.png \[temp\]$/);
    await expect.poll(() => fake.requests.some((r) => r.path === '/history' && r.method === 'POST')).toBe(true);
  });

  it('keeps inputs and results in input/ and output/koma/ when configured to', async () => {
    const fake = await start();
    const engine = new ComfyUiEngine({ servers: [fake.url], ...fast, cleanup: 'keep' });
    const task = { ...txt2img, kind: 'img2img' as const, image: await gradientPng(32, 32), strength: 0.5 };
    await engine.run(task, recorder(), live());
    expect(fake.storedFiles().some((f) => f.startsWith('input/koma-'))).toBe(true);
    expect(fake.storedFiles().some((f) => f.startsWith('output/koma/'))).toBe(true);
  });
});
