// Image to video: the shown image (and another layer's as the end frame) into a clip kept on the layer.
import { addVideo } from '@koma/editor';
import type { EditorSession } from '../../editor/session.ts';
import { i18n } from '../../i18n/index.ts';
import { videoOf, type JobOp } from '../jobs.ts';
import { estimateMs } from '../processing.ts';
import { videoRequest, type VideoChoice } from '../video.ts';
import { busy, currentImage, type OperationContext } from './context.ts';
import type { WebOperation } from './types.ts';

/** The image-to-video request for the layer's shown image; null without one. */
export function videoPayload(
  ctx: OperationContext,
  layerId: string,
  choice: VideoChoice,
): Record<string, unknown> | null {
  const image = currentImage(ctx.session, layerId);
  const end = choice.endLayerId ? currentImage(ctx.session, choice.endLayerId) : undefined;
  return image ? videoRequest(image, end, choice, ctx.settings.state.diffusion.seed) : null;
}

export async function imageToVideo(ctx: OperationContext, layerId: string, choice: VideoChoice): Promise<void> {
  const payload = videoPayload(ctx, layerId, choice);
  if (!payload || busy(ctx.session, layerId)) return;
  await ctx.submit('video', payload, estimateMs() * 3, {
    op: 'video',
    layerId,
    model: String(payload.model),
    duration: Number(payload.duration),
    imageId: String(payload.image),
  });
}

/** The clip is kept on the layer with the model and length it was made with. */
export function landVideo(session: EditorSession, job: Extract<JobOp, { op: 'video' }>, output: unknown): void {
  const video = videoOf(output);
  if (!video) throw new Error('The job returned no video');
  session.editor.execute(addVideo, {
    id: job.layerId,
    video: { ...video, model: job.model, duration: job.duration, imageId: job.imageId },
  });
  session.ui.notify(i18n.t('generation.video.ready'));
}

export const videoOperation: WebOperation = {
  id: 'video',
  kinds: ['video'],
  button: { testId: 'op-video', label: 'generation.ops.toVideo', order: 10, action: { form: 'video' } },
};
