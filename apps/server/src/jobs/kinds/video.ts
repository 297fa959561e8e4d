import { EngineError } from '../../engines/errors.ts';
import { recordVideo } from '../repository.ts';
import { builtinVideoPreview } from '../video-preview.ts';
import { defineHandler } from './handler.ts';
import { EMPTY } from './steps.ts';

export const video = defineHandler({
  kind: 'video',
  target(deps, r) {
    // The builtin engine has no video model: it renders a labelled animated preview instead (docs/decisions/jobs.md).
    try {
      const engine = deps.router.engineFor({
        kind: 'video',
        model: r.model,
        prompt: r.prompt,
        image: EMPTY,
        durationSeconds: r.duration,
        seed: r.seed,
      });
      return { engine: engine.id, lane: engine.id === 'builtin' ? 'builtin' : 'remote' };
    } catch {
      return { engine: 'builtin', lane: 'builtin' };
    }
  },
  async run(ctx, r) {
    const { deps, job } = ctx;
    const image = await ctx.load(r.image);
    if (job.engine === 'builtin') ctx.expect(1);
    let clip: { bytes: Buffer; mime: string; note?: string | undefined };
    if (job.engine === 'builtin') {
      clip = await builtinVideoPreview(image, r.duration, ctx.report, ctx.signal);
    } else {
      const result = await ctx.engine({
        kind: 'video',
        model: r.model,
        prompt: r.prompt,
        negativePrompt: '',
        image,
        ...(r.end_image ? { endImage: await ctx.load(r.end_image) } : {}),
        durationSeconds: r.duration,
        seed: r.seed,
      });
      const first = result.videos?.[0];
      if (!first) throw new EngineError('engine_failed', 'The engine returned no video');
      clip = { bytes: first.bytes, mime: first.mime, note: result.metadata.note };
    }
    const id = await recordVideo(deps.db, job.userId, clip.mime, clip.bytes.length, deps.now());
    await deps.blobs.put(`video-${id}`, clip.bytes, clip.mime);
    return {
      output: { video: { id, mime: clip.mime }, engine: job.engine, ...(clip.note ? { note: clip.note } : {}) },
    };
  },
});
