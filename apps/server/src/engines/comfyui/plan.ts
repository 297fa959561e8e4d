import type { DiffusionParams, EngineTask } from '../types.ts';
import { EngineError } from '../errors.ts';
import { featheredMask, imageSize, outpaintCanvas } from '../masks.ts';
import type { ComfyModelFiles } from './files.ts';
import type { ComfyGraph } from './graph.ts';
import {
  brushWorkflow,
  img2imgWorkflow,
  inpaintWorkflow,
  kontextEditWorkflow,
  regionalWorkflow,
  txt2imgWorkflow,
  upscaleWorkflow,
} from './workflows.ts';
import type { UploadedInputs, WorkflowOptions } from './workflows.ts';

/** A task reduced to the images to upload and a graph builder that takes their stored names. */
export interface Plan {
  uploads: { role: 'image' | 'mask' | 'ipAdapter' | `control${number}` | `brush${number}`; bytes: Buffer }[];
  build(uploaded: UploadedInputs, opts: WorkflowOptions): ComfyGraph;
  model: string;
  /** Seed reported with every output (a ComfyUI batch shares one seed). */
  seed: number;
}

/** Which images a task uploads and which workflow it runs; kept apart from the transport so it is testable alone. */
export async function planTask(task: EngineTask, files: ComfyModelFiles): Promise<Plan> {
  const extras = (p: DiffusionParams): Plan['uploads'] => [
    ...(p.ipAdapter ? [{ role: 'ipAdapter' as const, bytes: p.ipAdapter.image }] : []),
    ...(p.controlnets ?? []).map((cn, i) => ({ role: `control${i}` as const, bytes: cn.image })),
  ];
  switch (task.kind) {
    case 'txt2img':
      return {
        uploads: extras(task),
        build: (u, o) => txt2imgWorkflow(task, u, o),
        model: task.model.id,
        seed: task.seed,
      };
    case 'img2img':
      return {
        uploads: [{ role: 'image', bytes: task.image }, ...extras(task)],
        build: (u, o) => img2imgWorkflow(task, u, o),
        model: task.model.id,
        seed: task.seed,
      };
    case 'inpaint':
    case 'face_enhance': {
      const { width, height } = await imageSize(task.image, 'input image');
      const mask = await featheredMask(task.mask, width, height, task.maskBlur);
      return {
        uploads: [{ role: 'image', bytes: task.image }, { role: 'mask', bytes: mask }, ...extras(task)],
        build: (u, o) => inpaintWorkflow(task, u, o),
        model: task.model.id,
        seed: task.seed,
      };
    }
    case 'outpaint': {
      const canvas = await outpaintCanvas(task.image, task.padding, task.blur);
      return {
        uploads: [{ role: 'image', bytes: canvas.image }, { role: 'mask', bytes: canvas.mask }, ...extras(task)],
        build: (u, o) => inpaintWorkflow({ ...task, strength: 1 }, u, o),
        model: task.model.id,
        seed: task.seed,
      };
    }
    case 'regional':
      return {
        uploads: extras(task),
        build: (u, o) => regionalWorkflow(task, u, o),
        model: task.model.id,
        seed: task.seed,
      };
    case 'smd': {
      const masks = await Promise.all(
        task.brushes.map((brush) => featheredMask(brush.mask, task.width, task.height, 0)),
      );
      return {
        uploads: [...masks.map((bytes, i) => ({ role: `brush${i}` as const, bytes })), ...extras(task)],
        build: (u, o) => brushWorkflow(task, u, o),
        model: task.model.id,
        seed: task.seed,
      };
    }
    case 'upscale':
      return {
        uploads: [{ role: 'image', bytes: task.image }],
        build: (u, o) => upscaleWorkflow(task.scale, u, o),
        model: files.upscaleModel,
        seed: 0,
      };
    case 'edit':
      return {
        uploads: [{ role: 'image', bytes: task.image }],
        build: (u, o) => kontextEditWorkflow(task, u, o),
        model: task.model,
        seed: task.seed,
      };
    case 'video':
      throw new EngineError('validation', 'ComfyUI video workflows are not configured');
  }
}
