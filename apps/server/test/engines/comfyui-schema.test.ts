/**
 * Every graph Koma builds, validated against the recorded ComfyUI v0.3.64 /object_info the way
 * execution.py `validate_prompt` does; and mutations of those graphs, to show the check can fail.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMFY_FILES } from '../../src/engines/comfyui/files.ts';
import type { ComfyGraph } from '../../src/engines/comfyui/graph.ts';
import { resolveGraph } from '../../src/engines/comfyui/resolve.ts';
import { submitError } from '../../src/engines/comfyui/submit-error.ts';
import {
  brushWorkflow,
  img2imgWorkflow,
  inpaintWorkflow,
  kontextEditWorkflow,
  regionalWorkflow,
  txt2imgWorkflow,
  upscaleWorkflow,
} from '../../src/engines/comfyui/workflows.ts';
import type { UploadedInputs, WorkflowOptions } from '../../src/engines/comfyui/workflows.ts';
import type { DiffusionParams, Txt2ImgTask } from '../../src/engines/types.ts';
import { FakeComfyUI } from './fakes/fake-comfyui.ts';
import { validatePrompt } from './fakes/comfy-validate.ts';
import type { CustomValidators } from './fakes/comfy-validate.ts';
import { SDXL } from './helpers.ts';

const FLUX = { id: 'fluxdev', path: 'flux1-dev.safetensors', modelType: 'fluxdev' };
const files = {
  ...DEFAULT_COMFY_FILES,
  kontextUnet: 'flux1-kontext-dev.safetensors',
  controlnets: {
    'controlnet-openpose': 'OpenPoseXL2.safetensors',
    'controlnet-anytest': 'CN-anytest_v4-marged.safetensors',
  },
};
// A server with every file the graphs name, the IP-Adapter pack and the uploads below.
const server = new FakeComfyUI({
  folders: {
    checkpoints: ['animagine-xl-4.0.safetensors'],
    loras: ['manga_style_xl.safetensors'],
    diffusion_models: ['flux1-dev.safetensors', 'flux1-kontext-dev.safetensors'],
    controlnet: ['OpenPoseXL2.safetensors', 'CN-anytest_v4-marged.safetensors'],
  },
});
const schema = server.objectInfo();
// LoadImage's VALIDATE_INPUTS checks the file exists; the uploads are named u*.png here.
const custom: CustomValidators = {
  LoadImage: { image: (v) => (/^u\d\.png( \[temp\])?$/.test(String(v)) ? true : `Invalid image file: ${String(v)}`) },
  LoadImageMask: {
    image: (v) => (/^u\d\.png( \[temp\])?$/.test(String(v)) ? true : `Invalid image file: ${String(v)}`),
  },
};

const uploads = (temp: boolean): UploadedInputs => {
  const n = (i: number) => `u${i}.png${temp ? ' [temp]' : ''}`;
  return { image: n(1), mask: n(2), ipAdapter: n(3), controlnets: [n(4), n(5)], brushes: [n(6), n(7)] };
};

const base: Txt2ImgTask = {
  kind: 'txt2img',
  model: SDXL,
  prompt: 'manga panel',
  negativePrompt: 'lowres',
  width: 832,
  height: 1216,
  steps: 25,
  cfg: 6.5,
  seed: 2147483646,
  numImages: 2,
  loras: [{ name: 'manga_style_xl.safetensors', strength: 0.8 }],
};
const full: DiffusionParams = {
  ...base,
  controlnets: [
    { model: 'controlnet-openpose', image: Buffer.alloc(0), strength: 0.9 },
    { model: 'controlnet-anytest', image: Buffer.alloc(0), strength: 0.5 },
  ],
  ipAdapter: { image: Buffer.alloc(0), strength: 0.7 },
};

/** Every graph builder, with the options each mode of the engine uses. */
function allGraphs(output: 'save' | 'preview'): [string, ComfyGraph][] {
  const opts: WorkflowOptions = { files, filenamePrefix: 'koma/job1', output };
  const u = uploads(output === 'preview');
  const box = { x0: 0, y0: 0, x1: 400, y1: 600 };
  return [
    ['txt2img SDXL + LoRA + 2 ControlNets + IP-Adapter', txt2imgWorkflow({ ...base, ...full }, u, opts)],
    ['txt2img FLUX + LoRA', txt2imgWorkflow({ ...base, model: FLUX, loras: base.loras }, u, opts)],
    ['img2img', img2imgWorkflow({ ...base, kind: 'img2img', image: Buffer.alloc(0), strength: 0.6 }, u, opts)],
    ['inpaint', inpaintWorkflow({ ...full, strength: 0.75 }, u, opts)],
    ['inpaint FLUX one image', inpaintWorkflow({ ...base, model: FLUX, numImages: 1, strength: 1 }, u, opts)],
    [
      'regional',
      regionalWorkflow({ ...base, kind: 'regional', regions: [{ ...box, prompt: 'a', negativePrompt: 'b' }] }, u, opts),
    ],
    [
      'regional FLUX',
      regionalWorkflow(
        { ...base, model: FLUX, kind: 'regional', regions: [{ ...box, prompt: 'a', negativePrompt: '' }] },
        u,
        opts,
      ),
    ],
    [
      'brushes',
      brushWorkflow(
        {
          ...base,
          kind: 'smd',
          brushes: [
            { prompt: 'a', negativePrompt: 'b', mask: Buffer.alloc(0) },
            { prompt: 'c', negativePrompt: 'd', mask: Buffer.alloc(0) },
          ],
        },
        u,
        opts,
      ),
    ],
    ['upscale x2', upscaleWorkflow(2, u, opts)],
    ['upscale x4', upscaleWorkflow(4, u, opts)],
    [
      'kontext edit',
      kontextEditWorkflow(
        { kind: 'edit', model: 'kontext-dev', prompt: 'make it night', image: Buffer.alloc(0), seed: 1 },
        u,
        opts,
      ),
    ],
  ];
}

const validate = (graph: ComfyGraph) => validatePrompt(graph, schema, custom);

describe('graphs against the recorded ComfyUI v0.3.64 schema', () => {
  for (const output of ['save', 'preview'] as const) {
    for (const [name, graph] of allGraphs(output)) {
      it(`${name} (${output}) passes validate_prompt and names only files the server lists`, () => {
        const resolved = resolveGraph(graph, schema, 'ComfyUI');
        const result = validate(resolved);
        expect(result.error, JSON.stringify(result.nodeErrors)).toBeUndefined();
        expect(result.ok).toBe(true);
      });
    }
  }
});

describe('the schema check can fail (mutations)', () => {
  const graph = () => structuredClone(allGraphs('save')[0]![1]);
  const idOf = (g: ComfyGraph, type: string) => Object.keys(g).find((id) => g[id]!.class_type === type)!;

  it('catches a renamed input as required_input_missing', () => {
    const g = graph();
    const k = g[idOf(g, 'KSampler')]!;
    k.inputs.sampler = k.inputs.sampler_name!;
    delete k.inputs.sampler_name;
    const r = validate(g);
    expect(r.ok).toBe(false);
    expect(r.error?.type).toBe('prompt_outputs_failed_validation');
    expect(r.nodeErrors[idOf(g, 'KSampler')]?.errors).toEqual([
      {
        type: 'required_input_missing',
        message: 'Required input is missing',
        details: 'sampler_name',
        extra_info: { input_name: 'sampler_name' },
      },
    ]);
  });

  it('catches a combo value outside the list, and the adapter maps it', () => {
    const g = graph();
    g[idOf(g, 'KSampler')]!.inputs.scheduler = 'Karras';
    const r = validate(g);
    expect(r.nodeErrors[idOf(g, 'KSampler')]?.errors[0]).toMatchObject({
      type: 'value_not_in_list',
      details:
        "scheduler: 'Karras' not in ['simple', 'sgm_uniform', 'karras', 'exponential', 'ddim_uniform', 'beta', 'normal', 'linear_quadratic', 'kl_optimal']",
    });
    const err = submitError('ComfyUI at x', { error: r.error, node_errors: r.nodeErrors });
    expect(err.code).toBe('engine_rejected');
    expect(err.message).toContain('KSampler (node');
  });

  it('catches a model file outside the list as model_missing', () => {
    const g = graph();
    g[idOf(g, 'CheckpointLoaderSimple')]!.inputs.ckpt_name = 'sdxl/sd_xl_base_1.0.safetensors';
    const r = validate(g);
    const err = submitError('ComfyUI at x', { error: r.error, node_errors: r.nodeErrors });
    expect(err).toMatchObject({ code: 'model_missing' });
    expect(err.message).toContain('has no file models/checkpoints/sdxl/sd_xl_base_1.0.safetensors');
  });

  it('catches a link to the wrong output slot as return_type_mismatch', () => {
    const g = graph();
    const k = g[idOf(g, 'KSampler')]!;
    const [src] = k.inputs.model as [string, number];
    k.inputs.latent_image = [src, 0]; // a MODEL where a LATENT belongs
    const r = validate(g);
    expect(r.nodeErrors[idOf(g, 'KSampler')]?.errors[0]).toMatchObject({
      type: 'return_type_mismatch',
      details: 'latent_image, received_type(MODEL) mismatch input_type(LATENT)',
    });
  });

  it('catches values out of range and unknown node classes', () => {
    const g = graph();
    g[idOf(g, 'KSampler')]!.inputs.denoise = 1.5;
    g[idOf(g, 'EmptyLatentImage')]!.inputs.width = 8;
    const r = validate(g);
    const types = Object.values(r.nodeErrors).flatMap((n) => n.errors.map((e) => e.type));
    expect(types).toEqual(expect.arrayContaining(['value_bigger_than_max', 'value_smaller_than_min']));
    const unknown = graph();
    unknown[idOf(unknown, 'IPAdapterAdvanced')]!.class_type = 'IPAdapterAdvancedV2';
    const u = validate(unknown);
    expect(u.error).toMatchObject({
      type: 'invalid_prompt',
      message: 'Cannot execute because node IPAdapterAdvancedV2 does not exist.',
    });
    expect(submitError('ComfyUI at x', { error: u.error, node_errors: {} })).toMatchObject({ code: 'node_missing' });
  });

  it('catches an image that was not uploaded through LoadImage validation', () => {
    const g = graph();
    g[idOf(g, 'LoadImage')]!.inputs.image = 'nothere.png';
    const r = validate(g);
    expect(r.nodeErrors[idOf(g, 'LoadImage')]?.errors[0]).toMatchObject({
      type: 'custom_validation_failed',
      details: 'image - Invalid image file: nothere.png',
    });
  });
});
