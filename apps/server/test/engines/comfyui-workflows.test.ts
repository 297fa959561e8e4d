import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMFY_FILES } from '../../src/engines/comfyui/files.ts';
import type { ComfyGraph } from '../../src/engines/comfyui/graph.ts';
import { decodeBinaryFrame, describeNodeErrors } from '../../src/engines/comfyui/protocol.ts';
import {
  brushWorkflow,
  img2imgWorkflow,
  inpaintWorkflow,
  kontextEditWorkflow,
  regionalWorkflow,
  txt2imgWorkflow,
  upscaleWorkflow,
} from '../../src/engines/comfyui/workflows.ts';
import type { WorkflowOptions } from '../../src/engines/comfyui/workflows.ts';
import type { Txt2ImgTask } from '../../src/engines/types.ts';
import { SDXL } from './helpers.ts';

const opts: WorkflowOptions = { files: DEFAULT_COMFY_FILES, filenamePrefix: 'koma/job1' };
const FLUX = { id: 'fluxdev', path: 'flux1-dev.safetensors', modelType: 'fluxdev' };

const base: Txt2ImgTask = {
  kind: 'txt2img',
  model: SDXL,
  prompt: 'manga panel, girl running in the rain, screentone, ink',
  negativePrompt: 'lowres, blurry, watermark',
  width: 832,
  height: 1216,
  steps: 25,
  cfg: 6.5,
  seed: 123456789,
  numImages: 1,
  loras: [{ name: 'manga_style_xl.safetensors', strength: 0.8 }],
};

/** Every link is [existing node id, integer slot] and there is exactly one SaveImage. */
function expectWellFormed(graph: ComfyGraph): void {
  for (const node of Object.values(graph)) {
    for (const value of Object.values(node.inputs)) {
      if (Array.isArray(value)) {
        expect(value).toHaveLength(2);
        expect(Object.keys(graph)).toContain(value[0]);
        expect(Number.isInteger(value[1])).toBe(true);
      }
    }
  }
  expect(Object.values(graph).filter((n) => n.class_type === 'SaveImage')).toHaveLength(1);
}

const nodesOf = (g: ComfyGraph, type: string) => Object.entries(g).filter(([, n]) => n.class_type === type);
const one = (g: ComfyGraph, type: string) => {
  const found = nodesOf(g, type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

/** A graph as a tree from its SaveImage node, so graphs with different node ids can be compared. */
function tree(graph: ComfyGraph, id: string): unknown {
  const node = graph[id]!;
  return {
    class_type: node.class_type,
    inputs: Object.fromEntries(
      Object.entries(node.inputs).map(([k, v]) => [k, Array.isArray(v) ? [tree(graph, v[0]), v[1]] : v]),
    ),
  };
}
const saveId = (g: ComfyGraph) => Object.keys(g).find((id) => g[id]!.class_type === 'SaveImage')!;

describe('ComfyUI workflow builders', () => {
  it('reproduces the reference SDXL + LoRA graph of the design notes node for node', () => {
    const example = JSON.parse(
      readFileSync(new URL('./fixtures/comfy_sdxl_lora_example.json', import.meta.url), 'utf8'),
    ) as {
      prompt: ComfyGraph;
    };
    const g = txt2imgWorkflow(
      { ...base, model: { ...SDXL, path: 'sd_xl_base_1.0.safetensors' } },
      {},
      { ...opts, filenamePrefix: 'jobs/7f3c2a' },
    );
    expect(tree(g, saveId(g))).toEqual(tree(example.prompt, saveId(example.prompt)));
  });

  it('builds the SDXL + LoRA graph of engines.md §1.6', () => {
    const g = txt2imgWorkflow(base, {}, opts);
    expectWellFormed(g);
    const [ckptId, ckpt] = one(g, 'CheckpointLoaderSimple');
    expect(ckpt.inputs).toEqual({ ckpt_name: 'animagine-xl-4.0.safetensors' });
    const [loraId, lora] = one(g, 'LoraLoader');
    expect(lora.inputs).toEqual({
      model: [ckptId, 0],
      clip: [ckptId, 1],
      lora_name: 'manga_style_xl.safetensors',
      strength_model: 0.8,
      strength_clip: 0.8,
    });
    const texts = nodesOf(g, 'CLIPTextEncode').map(([, n]) => n.inputs);
    expect(texts).toEqual([
      { clip: [loraId, 1], text: base.prompt },
      { clip: [loraId, 1], text: base.negativePrompt },
    ]);
    expect(one(g, 'EmptyLatentImage')[1].inputs).toEqual({ width: 832, height: 1216, batch_size: 1 });
    const [, k] = one(g, 'KSampler');
    expect(k.inputs).toMatchObject({
      model: [loraId, 0],
      seed: 123456789,
      steps: 25,
      cfg: 6.5,
      sampler_name: 'dpmpp_2m',
      scheduler: 'karras',
      denoise: 1,
    });
    const [decodeId, decode] = one(g, 'VAEDecode');
    expect(decode.inputs.vae).toEqual([ckptId, 2]);
    expect(one(g, 'SaveImage')[1].inputs).toEqual({ images: [decodeId, 0], filename_prefix: 'koma/job1' });
  });

  it('chains LoRAs: each takes model and clip from the previous one', () => {
    const g = txt2imgWorkflow({ ...base, loras: [...base.loras, { name: 'b.safetensors', strength: 0.5 }] }, {}, opts);
    expectWellFormed(g);
    const [[firstId], [, second]] = nodesOf(g, 'LoraLoader') as [
      [string, ComfyGraph[string]],
      [string, ComfyGraph[string]],
    ];
    expect(second.inputs).toMatchObject({ model: [firstId, 0], clip: [firstId, 1], lora_name: 'b.safetensors' });
    expect(one(g, 'KSampler')[1].inputs.model).toEqual([nodesOf(g, 'LoraLoader')[1]![0], 0]);
  });

  it('builds FLUX with separate loaders, FluxGuidance from cfg, sampler cfg 1 and model-only LoRAs', () => {
    const g = txt2imgWorkflow({ ...base, model: FLUX, cfg: 3.5, numImages: 2 }, {}, opts);
    expectWellFormed(g);
    expect(one(g, 'UNETLoader')[1].inputs).toEqual({ unet_name: 'flux1-dev.safetensors', weight_dtype: 'default' });
    expect(one(g, 'DualCLIPLoader')[1].inputs).toMatchObject({ type: 'flux', clip_name2: 't5xxl_fp16.safetensors' });
    expect(one(g, 'FluxGuidance')[1].inputs.guidance).toBe(3.5);
    expect(one(g, 'LoraLoaderModelOnly')[1].inputs).toMatchObject({ lora_name: 'manga_style_xl.safetensors' });
    expect(one(g, 'KSampler')[1].inputs).toMatchObject({ cfg: 1, sampler_name: 'euler', scheduler: 'simple' });
    expect(one(g, 'EmptySD3LatentImage')[1].inputs.batch_size).toBe(2);
    expect(nodesOf(g, 'CheckpointLoaderSimple')).toHaveLength(0);
  });

  it('chains ControlNets (openpose and anytest) into the sampler conditioning', () => {
    const pose = Buffer.from('p');
    const g = txt2imgWorkflow(
      {
        ...base,
        controlnets: [
          { model: 'controlnet-openpose', image: pose, strength: 0.8 },
          { model: 'controlnet-anytest', image: pose, strength: 0.5 },
        ],
      },
      { controlnets: ['pose.png', 'sketch.png'] },
      opts,
    );
    expectWellFormed(g);
    const loaders = nodesOf(g, 'ControlNetLoader').map(([, n]) => n.inputs.control_net_name);
    expect(loaders).toEqual(['OpenPoseXL2.safetensors', 'CN-anytest_v4-marged.safetensors']);
    const applies = nodesOf(g, 'ControlNetApplyAdvanced');
    expect(applies[1]![1].inputs).toMatchObject({
      positive: [applies[0]![0], 0],
      negative: [applies[0]![0], 1],
      strength: 0.5,
    });
    expect(one(g, 'KSampler')[1].inputs).toMatchObject({
      positive: [applies[1]![0], 0],
      negative: [applies[1]![0], 1],
    });
    expect(nodesOf(g, 'LoadImage').map(([, n]) => n.inputs.image)).toEqual(['pose.png', 'sketch.png']);
  });

  it('adds IP-Adapter between the LoRAs and the sampler', () => {
    const g = txt2imgWorkflow(
      { ...base, ipAdapter: { image: Buffer.from('r'), strength: 0.7 } },
      { ipAdapter: 'ref.png' },
      opts,
    );
    expectWellFormed(g);
    const [loaderId, loader] = one(g, 'IPAdapterUnifiedLoader');
    expect(loader.inputs.preset).toBe('PLUS (high strength)');
    const [applyId, apply] = one(g, 'IPAdapterAdvanced');
    expect(apply.inputs).toMatchObject({ model: [loaderId, 0], ipadapter: [loaderId, 1], weight: 0.7 });
    expect(one(g, 'KSampler')[1].inputs.model).toEqual([applyId, 0]);
  });

  it('img2img scales the upload to the size, repeats the latent per image and denoises by strength', () => {
    const g = img2imgWorkflow(
      { ...base, kind: 'img2img', image: Buffer.alloc(0), strength: 0.6, numImages: 3 },
      { image: 'in.png' },
      opts,
    );
    expectWellFormed(g);
    expect(one(g, 'LoadImage')[1].inputs.image).toBe('in.png');
    expect(one(g, 'ImageScale')[1].inputs).toMatchObject({ width: 832, height: 1216 });
    const [repeatId, repeat] = one(g, 'RepeatLatentBatch');
    expect(repeat.inputs.amount).toBe(3);
    expect(one(g, 'KSampler')[1].inputs).toMatchObject({ latent_image: [repeatId, 0], denoise: 0.6 });
  });

  it('inpaint masks the latent and composites the result over the original with the same mask', () => {
    const g = inpaintWorkflow({ ...base, strength: 0.9, numImages: 2 }, { image: 'in.png', mask: 'mask.png' }, opts);
    expectWellFormed(g);
    const [maskId, mask] = one(g, 'LoadImageMask');
    expect(mask.inputs).toEqual({ image: 'mask.png', channel: 'red' });
    expect(one(g, 'SetLatentNoiseMask')[1].inputs.mask).toEqual([maskId, 0]);
    const [, composite] = one(g, 'ImageCompositeMasked');
    const [repeatImageId] = one(g, 'RepeatImageBatch');
    expect(composite.inputs).toMatchObject({
      destination: [repeatImageId, 0],
      mask: [maskId, 0],
      x: 0,
      y: 0,
      resize_source: false,
    });
    expect(one(g, 'KSampler')[1].inputs.denoise).toBe(0.9);
  });

  it('upscale runs the model and scales its native factor down to the request', () => {
    const g = upscaleWorkflow(2, { image: 'in.png' }, opts);
    expectWellFormed(g);
    expect(one(g, 'UpscaleModelLoader')[1].inputs).toEqual({ model_name: '4x-UltraSharp.pth' });
    expect(one(g, 'ImageScaleBy')[1].inputs).toMatchObject({ upscale_method: 'lanczos', scale_by: 0.5 });
    expect(nodesOf(upscaleWorkflow(4, { image: 'in.png' }, opts), 'ImageScaleBy')).toHaveLength(0);
  });

  it('kontext edit uses a reference latent, and refuses when no Kontext file is configured', () => {
    const task = {
      kind: 'edit' as const,
      model: 'kontext-dev' as const,
      prompt: 'make it night',
      image: Buffer.alloc(0),
      seed: 5,
    };
    const g = kontextEditWorkflow(
      task,
      { image: 'in.png' },
      { ...opts, files: { ...DEFAULT_COMFY_FILES, kontextUnet: 'kontext.safetensors' } },
    );
    expectWellFormed(g);
    expect(one(g, 'ReferenceLatent')).toBeDefined();
    expect(one(g, 'FluxKontextImageScale')).toBeDefined();
    expect(() => kontextEditWorkflow(task, { image: 'in.png' }, opts)).toThrow(/not set up for kontext-dev/);
  });

  it('regional prompting restricts each region prompt to its box on the 8-pixel grid', () => {
    const g = regionalWorkflow(
      {
        ...base,
        kind: 'regional',
        regions: [
          { x0: 10, y0: 100, x1: 300, y1: 700, prompt: 'a cat', negativePrompt: 'dog' },
          { x0: 800, y0: 0, x1: 832, y1: 20, prompt: 'moon', negativePrompt: 'sun' },
        ],
      },
      {},
      opts,
    );
    expectWellFormed(g);
    const areas = nodesOf(g, 'ConditioningSetArea').map(([, n]) => n.inputs);
    expect(areas).toHaveLength(4);
    expect(areas[0]).toMatchObject({ x: 8, y: 96, width: 296, height: 608, strength: 1 });
    expect(areas[1]).toMatchObject({ x: 768, y: 0, width: 64, height: 64 });
    const combines = nodesOf(g, 'ConditioningCombine');
    expect(combines).toHaveLength(4);
    expect(one(g, 'KSampler')[1].inputs.positive).toEqual([combines[1]![0], 0]);
    expect(() => regionalWorkflow({ ...base, kind: 'regional', regions: [] }, {}, opts)).toThrow(/at least one region/);
  });

  it('brush generation restricts each brush prompt to its uploaded mask', () => {
    const brush = { prompt: 'hair', negativePrompt: 'hat', mask: Buffer.alloc(0) };
    const g = brushWorkflow({ ...base, kind: 'smd', brushes: [brush, brush] }, { brushes: ['b0.png', 'b1.png'] }, opts);
    expectWellFormed(g);
    expect(nodesOf(g, 'LoadImageMask').map(([, n]) => n.inputs.image)).toEqual([
      'b0.png',
      'b1.png',
      'b0.png',
      'b1.png',
    ]);
    expect(nodesOf(g, 'ConditioningSetMask')[0]![1].inputs).toMatchObject({ strength: 1, set_cond_area: 'default' });
    expect(() => brushWorkflow({ ...base, kind: 'smd', brushes: [brush] }, {}, opts)).toThrow(
      /mask of brush 1 was not uploaded/,
    );
  });

  it('refuses what ComfyUI cannot run with a validation error', () => {
    expect(() =>
      txt2imgWorkflow({ ...base, model: { id: 'gpt-image-1', path: 'x', modelType: 'gpt' } }, {}, opts),
    ).toThrow(expect.objectContaining({ code: 'validation' }) as Error);
    expect(() =>
      txt2imgWorkflow(
        { ...base, model: FLUX, ipAdapter: { image: Buffer.alloc(0), strength: 1 } },
        { ipAdapter: 'r.png' },
        opts,
      ),
    ).toThrow(/needs an SDXL model/);
    expect(() =>
      img2imgWorkflow({ ...base, kind: 'img2img', image: Buffer.alloc(0), strength: 0.5 }, {}, opts),
    ).toThrow(/not uploaded/);
  });
});

describe('ComfyUI protocol helpers', () => {
  const head = (...words: number[]) =>
    Buffer.concat(words.map((w) => Buffer.from([w >>> 24, (w >>> 16) & 255, (w >>> 8) & 255, w & 255])));

  it('decodes type 1 (PNG/JPEG), type 4 (with metadata) and type 3 (text) frames', () => {
    expect(decodeBinaryFrame(Buffer.concat([head(1, 2), Buffer.from('png')]))).toEqual({
      kind: 'preview',
      mime: 'image/png',
      bytes: Buffer.from('png'),
    });
    const meta = Buffer.from(JSON.stringify({ prompt_id: 'p1', image_type: 'image/jpeg' }));
    expect(decodeBinaryFrame(Buffer.concat([head(4, meta.length), meta, Buffer.from('jpg')]))).toEqual({
      kind: 'preview',
      mime: 'image/jpeg',
      bytes: Buffer.from('jpg'),
      promptId: 'p1',
    });
    expect(decodeBinaryFrame(Buffer.concat([head(3, 2), Buffer.from('12hello')]))).toEqual({
      kind: 'text',
      nodeId: '12',
      text: 'hello',
    });
  });

  it('ignores short, truncated and unknown frames', () => {
    expect(decodeBinaryFrame(Buffer.from([0, 0, 0, 1]))).toBeUndefined();
    expect(decodeBinaryFrame(Buffer.concat([head(4, 50), Buffer.from('{}')]))).toBeUndefined();
    expect(decodeBinaryFrame(head(9, 0))).toBeUndefined();
  });

  it('describes node errors one line per problem', () => {
    expect(
      describeNodeErrors({
        '4': {
          class_type: 'CheckpointLoaderSimple',
          errors: [{ type: 'value_not_in_list', message: 'Value not in list', details: "ckpt_name: 'x' not in []" }],
        },
      }),
    ).toEqual(["CheckpointLoaderSimple (node 4): Value not in list: ckpt_name: 'x' not in [] [value_not_in_list]"]);
    expect(describeNodeErrors([])).toEqual([]);
  });
});
