import { costOfRequest, moderatePrompt, resolveSeed, type NormalizedRequest } from '@koma/domain';
import { EngineError } from '../../engines/errors.ts';
import type { EngineTask } from '../../engines/types.ts';
import { expandPrompt } from '../prompt-expansion.ts';
import { recordVideo } from '../repository.ts';
import { builtinVideoPreview } from '../video-preview.ts';
import {
  parse,
  moderate,
  price,
  storeRef,
  storeOptional,
  loadImage,
  route,
  runEngine,
  storeResult,
  EMPTY,
  type JobKind,
  type Report,
} from './common.ts';
/** What a kind's prepare step decides before anything is charged. */

// ---------------------------------------------------------------------------------------------------------------
// Edit, video, prompt expansion

type Edit = NormalizedRequest<'edit'> & { seed: number };

const edit: JobKind = {
  name: 'edit',
  async prepare(deps, user, body) {
    const r = moderate('edit', parse('edit', body));
    const cost = price(() => costOfRequest('edit', r));
    const variationId = await storeRef(deps, user.id, r.variationId, 'variationId');
    const inputs: Edit = { ...r, variationId, seed: resolveSeed(-1, Math.random) };
    return { inputs, cost, ...route(deps, { kind: 'edit', model: r.model, prompt: r.prompt, image: EMPTY, seed: 0 }) };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Edit;
    const task: EngineTask = {
      kind: 'edit',
      model: r.model,
      prompt: r.prompt,
      image: await loadImage(deps, job.userId, r.variationId),
      seed: r.seed,
    };
    return storeResult(deps, job, await runEngine(deps, task, report, signal), {
      prompt: r.prompt,
      negative_prompt: '',
      model_name: r.model,
      num_inference_steps: 0,
      guidance_scale: 0,
      source_image: r.variationId,
    });
  },
};

type Video = NormalizedRequest<'video'>;

const video: JobKind = {
  name: 'video',
  async prepare(deps, user, body) {
    const r = moderate('video', parse('video', body));
    const cost = price(() => costOfRequest('video', r));
    const image = await storeRef(deps, user.id, r.image, 'image');
    const endImage = await storeOptional(deps, user.id, r.end_image, 'end_image');
    const stub: EngineTask = {
      kind: 'video',
      model: r.model,
      prompt: r.prompt,
      image: EMPTY,
      durationSeconds: r.duration,
      seed: r.seed,
    };
    // The builtin engine has no video model: it renders a labelled animated preview instead (docs/decisions/jobs.md).
    let target = { engine: 'builtin', lane: 'builtin' };
    try {
      const engine = deps.router.engineFor(stub);
      target = { engine: engine.id, lane: engine.id === 'builtin' ? 'builtin' : 'remote' };
    } catch {
      // keep the builtin preview
    }
    return { inputs: { ...r, image, end_image: endImage } satisfies Video, cost, ...target };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Video;
    const image = await loadImage(deps, job.userId, r.image);
    let bytes: Buffer;
    let mime: string;
    let note: string | undefined;
    if (job.engine === 'builtin') {
      const preview = await builtinVideoPreview(image, r.duration, report, signal);
      bytes = preview.bytes;
      mime = preview.mime;
      note = preview.note;
    } else {
      const task: EngineTask = {
        kind: 'video',
        model: r.model,
        prompt: r.prompt,
        negativePrompt: '',
        image,
        ...(r.end_image ? { endImage: await loadImage(deps, job.userId, r.end_image) } : {}),
        durationSeconds: r.duration,
        seed: r.seed,
      };
      const result = await runEngine(deps, task, report, signal);
      const first = result.videos?.[0];
      if (!first) throw new EngineError('engine_failed', 'The engine returned no video');
      bytes = first.bytes;
      mime = first.mime;
      note = result.metadata.note;
    }
    const id = await recordVideo(deps.db, job.userId, mime, bytes.length, deps.now());
    await deps.blobs.put(`video-${id}`, bytes, mime);
    return { video: { id, mime }, engine: job.engine, ...(note ? { note } : {}) };
  },
};

type Expansion = NormalizedRequest<'prompt_expansion'>;

const promptExpansion: JobKind = {
  name: 'prompt_expansion',
  prepare(deps, _user, body) {
    const r = moderate('prompt_expansion', parse('prompt_expansion', body));
    const cost = price(() => costOfRequest('prompt_expansion', r));
    return Promise.resolve({ inputs: r, cost, lane: 'chat', engine: deps.config.chat ? 'chat' : 'builtin' });
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Expansion;
    report({ logs: [`Expanding the prompt into ${r.num_sequences} variant(s)`] });
    const result = await expandPrompt(deps.config.chat, r.prompt, r.num_sequences, signal);
    // Expanded prompts are moderated like typed ones: a rejected variant is dropped, nsfw terms stripped.
    const prompts = result.prompts.flatMap((p) => {
      const verdict = moderatePrompt(p);
      return verdict.allowed ? [verdict.sanitizedPrompt] : [];
    });
    return { prompts, engine: result.engine };
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Vision kinds (issue 6)

type Upscale = NormalizedRequest<'upscale'>;

const upscale: JobKind = {
  name: 'upscale',
  async prepare(deps, user, body) {
    const r = parse('upscale', body);
    const cost = price(() => costOfRequest('upscale', r));
    const image = await storeRef(deps, user.id, r.image, 'image');
    // ×2 is the vision upscaler (ESRGAN); other factors go to the engine router's upscale task.
    const target =
      r.scale === 2
        ? { engine: 'vision', lane: 'vision' }
        : route(deps, { kind: 'upscale', image: EMPTY, scale: r.scale });
    return { inputs: { ...r, image } satisfies Upscale, cost, ...target };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as Upscale;
    const source = await loadImage(deps, job.userId, r.image);
    let bytes: Buffer;
    if (job.engine === 'vision') {
      bytes = await deps.vision.upscale(source, tileProgress(report), signal);
    } else {
      const result = await runEngine(deps, { kind: 'upscale', image: source, scale: r.scale }, report, signal);
      const first = result.images[0];
      if (!first) throw new EngineError('engine_failed', 'The engine returned no image');
      bytes = first.bytes;
    }
    const id = await deps.images.putImage(job.userId, bytes);
    const stored = await deps.images.getImage(job.userId, id);
    return { image: `data:${stored?.mime ?? 'image/png'};base64,${bytes.toString('base64')}`, id };
  },
};

function tileProgress(report: Report) {
  return (done: number, total: number) =>
    report({ logs: [`Progress: ${done}/${total}`], progress: total > 0 ? done / total : 0 });
}

type ImageOnly = NormalizedRequest<'background'>;

const background: JobKind = {
  name: 'background',
  async prepare(deps, user, body) {
    const r = parse('background', body);
    const cost = price(() => costOfRequest('background', r));
    const image = await storeRef(deps, user.id, r.image, 'image');
    return { inputs: { image } satisfies ImageOnly, cost, engine: 'vision', lane: 'background' };
  },
  async run(deps, job, report, signal) {
    const r = job.inputs as ImageOnly;
    const bytes = await deps.vision.removeBackground(
      await loadImage(deps, job.userId, r.image),
      tileProgress(report),
      signal,
    );
    const id = await deps.images.putImage(job.userId, bytes);
    return { encoded: bytes.toString('base64'), id };
  },
};

const pose: JobKind = {
  name: 'pose',
  async prepare(deps, user, body) {
    const r = parse('pose', body);
    const image = await storeRef(deps, user.id, r.image, 'image');
    return {
      inputs: { image } satisfies ImageOnly,
      cost: price(() => costOfRequest('pose', r)),
      engine: 'vision',
      lane: 'vision',
    };
  },
  async run(deps, job) {
    const r = job.inputs as ImageOnly;
    const result = await deps.vision.estimatePose(await loadImage(deps, job.userId, r.image));
    return { pose: { bodies: result.bodies }, width: result.width, height: result.height };
  },
};

type FaceDetection = NormalizedRequest<'face_detection'>;

const faceDetection: JobKind = {
  name: 'face_detection',
  async prepare(deps, user, body) {
    const r = parse('face_detection', body);
    const variationId = await storeRef(deps, user.id, r.variationId, 'variationId');
    return {
      inputs: { variationId } satisfies FaceDetection,
      cost: price(() => costOfRequest('face_detection', r)),
      engine: 'vision',
      lane: 'vision',
    };
  },
  async run(deps, job) {
    const r = job.inputs as FaceDetection;
    const faces = await deps.vision.detectFaces(await loadImage(deps, job.userId, r.variationId));
    return { bboxes: faces.map((f) => ({ bbox: f.bbox, label: f.label, score: f.score })) };
  },
};

export const MEDIA_KINDS: readonly JobKind[] = [edit, video, promptExpansion, upscale, background, pose, faceDetection];
