/**
 * The engine status over HTTP and in jobs: the capability check for admins, model availability for the model
 * tab, a job's FAILED event naming the missing file, and the admin CLI's mapping proposal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineAdmin } from '../../src/engines/admin.ts';
import { proposeMapping, similarity } from '../../src/engines/comfyui/propose.ts';
import { DEFAULT_COMFY_FILES } from '../../src/engines/comfyui/files.ts';
import { createEngineRouter, parseEngineConfig } from '../../src/engines/index.ts';
import { last, LiveServer, User } from '../jobs/helpers.ts';
import { FakeComfyUI } from './fakes/fake-comfyui.ts';

const ADMIN = 'admin@example.com';

describe('engine status endpoints and job errors', () => {
  let fake: FakeComfyUI;
  const server = new LiveServer();
  let admin: User;
  let user: User;
  const saved = process.env.ENGINE_ADMIN_EMAILS;

  beforeAll(async () => {
    fake = await new FakeComfyUI({
      previewMethod: 'none',
      folders: { checkpoints: ['anime/animagine-xl-4.0-opt.safetensors'] },
    }).start();
    process.env.ENGINE_ADMIN_EMAILS = ` ${ADMIN.toUpperCase()} , someone@example.com`;
    const router = createEngineRouter(
      parseEngineConfig({
        default: 'builtin',
        routes: [{ modelTypes: ['sdxl'], engine: 'comfyui' }],
        comfyui: { servers: [fake.url], idleTimeoutMs: 2000 },
      }),
    );
    await server.start({ jobs: { router, config: { builtinCharges: false } } });
    admin = await User.signUp(server, ADMIN);
    user = await User.signUp(server);
  });
  afterAll(async () => {
    process.env.ENGINE_ADMIN_EMAILS = saved;
    await server.close();
    server.destroy();
    await fake.close();
  });

  it('shows the capability check to admins only', async () => {
    expect((await user.fetch('/api/admin/engines')).status).toBe(403);
    const res = await admin.post('/api/admin/engines/check', {});
    expect(res.status).toBe(200);
    const status = (await res.json()) as {
      engines: {
        id: string;
        servers?: { url: string; version: string; previewsOff: boolean; missingFiles: { file: string }[] }[];
      }[];
    };
    const comfy = status.engines.find((e) => e.id === 'comfyui')!;
    expect(comfy.servers?.[0]).toMatchObject({ url: fake.url, version: '0.3.64', previewsOff: true });
    expect(comfy.servers?.[0]?.missingFiles.map((f) => f.file)).toContain('noobai-xl/noobai-xl-vpred-1.0.safetensors');
    expect((await admin.fetch('/api/admin/engines')).status).toBe(200);
  });

  it('tells every signed-in user which models have a file', async () => {
    await admin.post('/api/admin/engines/check', {});
    const reply = await user.json<{
      checked: boolean;
      models: Record<string, { available: boolean; engine: string; reason?: string }>;
    }>('/api/engines/availability');
    expect(reply.checked).toBe(true);
    // The fake runs without --preview-method, so the model tab also says no step previews will come.
    expect(reply.models['animaginexl4.0']).toEqual({ available: true, engine: 'comfyui', previewsOff: true });
    expect(reply.models.noobaixl).toEqual({
      available: false,
      engine: 'comfyui',
      previewsOff: true,
      reason: 'No ComfyUI server has models/checkpoints/noobai-xl/noobai-xl-vpred-1.0.safetensors',
    });
    expect(reply.models.fluxdev).toEqual({ available: true, engine: 'builtin' });
    expect((await fetch(`${server.base}/api/engines/availability`)).status).toBe(401);
  });

  it('fails a job that needs a missing file with model_missing, naming the file, and refunds it', async () => {
    const { events } = await user.run('/api/diffusion/txt2img', {
      model: 'noobaixl',
      prompt: 'a cat',
      width: 512,
      height: 512,
      num_images: 1,
    });
    expect(last(events)).toMatchObject({
      status: 'FAILED',
      code: 'model_missing',
      error: expect.stringContaining(
        'has no file models/checkpoints/noobai-xl/noobai-xl-vpred-1.0.safetensors',
      ) as string,
    });
  });
});

describe('proposing the model → file mapping', () => {
  it('matches renamed files by name and leaves unrelated ones out', () => {
    expect(similarity('noobaixl', 'noobaiXL_vPred10.safetensors')).toBeGreaterThan(0.5);
    expect(similarity('animaginexl3.0', 'animagine-xl-3.1.safetensors')).toBeLessThan(0.5);
    const proposal = proposeMapping(
      DEFAULT_COMFY_FILES,
      {
        checkpoints: [
          'anime\\animagine-xl-4.0-opt.safetensors',
          'noobaiXL_vPred10.safetensors',
          'realisticVision.safetensors',
        ],
        diffusionModels: [],
        loras: ['pixel-art-xl.safetensors'],
      },
      [
        { id: 'animaginexl4.0', path: 'animagine-xl-4.0/animagine-xl-4.0-opt.safetensors', modelType: 'sdxl' },
        { id: 'noobaixl', path: 'noobai-xl/noobai-xl-vpred-1.0.safetensors', modelType: 'sdxl', name: 'NoobAI XL' },
        { id: 'ponydiffusionv6', path: 'pony/ponyDiffusionV6XL.safetensors', modelType: 'sdxl' },
      ],
      [
        {
          name: 'Pixel Art XL',
          url: 'https://huggingface.co/nerijs/pixel-art-xl/resolve/main/pixel-art-xl.safetensors',
          strength: 1,
        },
      ],
    );
    expect(proposal.models.map((p) => [p.key, p.match, p.file])).toEqual([
      ['animaginexl4.0', 'exact', 'anime\\animagine-xl-4.0-opt.safetensors'],
      ['noobaixl', 'fuzzy', 'noobaiXL_vPred10.safetensors'],
      ['ponydiffusionv6', 'none', undefined],
    ]);
    expect(proposal.loras[0]).toMatchObject({ match: 'exact', file: 'pixel-art-xl.safetensors' });
  });

  it('prints the proposal and the config fragment from `npm run admin -- engines-propose`', async () => {
    const fake = await new FakeComfyUI({ folders: { checkpoints: ['noobaiXL_vPred10.safetensors'] } }).start();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-engines-'));
    try {
      const file = path.join(dir, 'engines.json');
      fs.writeFileSync(
        file,
        JSON.stringify({
          default: 'builtin',
          routes: [{ modelTypes: ['sdxl'], engine: 'comfyui' }],
          comfyui: { servers: [fake.url] },
        }),
      );
      const out = await engineAdmin('engines-propose', { ENGINES_CONFIG: file });
      expect(out).toContain(`Files of ${fake.url}:`);
      expect(out).toContain('  noobaixl: probably (0.67) noobaiXL_vPred10.safetensors');
      expect(out).toContain('  aamxl: MISSING aamxl/AAM_XL_AnimeMix.safetensors');
      expect(out).toContain('"noobaixl": "noobaiXL_vPred10.safetensors"');
      expect(await engineAdmin('create-user', {})).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await fake.close();
    }
  });
});
