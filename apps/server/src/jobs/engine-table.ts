// Which engine runs each engine task with each model, as the router decides it: the editor reads this table to
// know which requests the builtin preview engine would draw (free unless BUILTIN_CHARGES=true), so the price on a
// button is the price charged. Built from the router itself, with stub tasks, so it never disagrees with it.
import { EDIT_MODEL_IDS, ENGINE_TASKS, MODEL_CATALOGUE, VIDEO_MODELS, type EngineTaskKind } from '@koma/domain';
import type { EngineRouter } from '../engines/router.ts';
import type { DiffusionParams, EngineTask } from '../engines/types.ts';
import { EMPTY, modelRef } from './kinds/steps.ts';

/** Engine id by engine task and model id ('' for tasks without a model); absent when no engine can run it. */
export type EngineTable = Partial<Record<EngineTaskKind, Record<string, string>>>;

function diffusion(model: (typeof MODEL_CATALOGUE)[number]): DiffusionParams {
  return { model: modelRef(model), prompt: '', negativePrompt: '', steps: 1, cfg: 0, seed: 0, numImages: 1, loras: [] };
}

function stubs(task: EngineTaskKind): { model: string; task: EngineTask }[] {
  const size = { width: 512, height: 512 };
  switch (task) {
    case 'edit':
      return EDIT_MODEL_IDS.map((m) => ({
        model: m,
        task: { kind: 'edit', model: m, prompt: '', image: EMPTY, seed: 0 },
      }));
    case 'video':
      return VIDEO_MODELS.map((m) => ({
        model: m.id,
        task: { kind: 'video', model: m.id, prompt: '', image: EMPTY, durationSeconds: 5, seed: 0 },
      }));
    case 'upscale':
      return [{ model: '', task: { kind: 'upscale', image: EMPTY, scale: 4 } }];
    default:
      return MODEL_CATALOGUE.map((m) => {
        const p = diffusion(m);
        const tasks: Record<Exclude<EngineTaskKind, 'edit' | 'video' | 'upscale'>, EngineTask> = {
          txt2img: { kind: 'txt2img', ...p, ...size },
          img2img: { kind: 'img2img', ...p, ...size, image: EMPTY, strength: 0.5 },
          inpaint: { kind: 'inpaint', ...p, image: EMPTY, mask: EMPTY, strength: 1, maskBlur: 0 },
          outpaint: {
            kind: 'outpaint',
            ...p,
            image: EMPTY,
            padding: { left: 1, top: 0, right: 0, bottom: 0 },
            overlap: 0,
            blur: 0,
          },
          face_enhance: { kind: 'face_enhance', ...p, image: EMPTY, mask: EMPTY, strength: 0.5, maskBlur: 0 },
          regional: { kind: 'regional', ...p, ...size, regions: [] },
          smd: { kind: 'smd', ...p, ...size, brushes: [] },
        };
        return { model: m.id, task: tasks[task] };
      });
  }
}

/** The router's choice for every engine task and model. */
export function engineTable(router: EngineRouter): EngineTable {
  const table: EngineTable = {};
  for (const task of ENGINE_TASKS) {
    const row: Record<string, string> = {};
    for (const stub of stubs(task)) {
      try {
        row[stub.model] = router.engineFor(stub.task).id;
      } catch {
        // no configured engine runs it: the server refuses such a request, the editor shows no price
      }
    }
    // Videos no engine runs get the builtin engine's labelled preview (kinds/video.ts).
    if (task === 'video') for (const m of VIDEO_MODELS) row[m.id] ??= 'builtin';
    table[task] = row;
  }
  return table;
}
