// Upscale ×2: the result is added to the layer as a new variation.
import { UPSCALE_FACTOR } from '@koma/domain';
import { addVariations } from '@koma/editor';
import type { EditorSession } from '../../editor/session.ts';
import { imageIdOf, type JobOp } from '../jobs.ts';
import { estimateMs } from '../processing.ts';
import { busy, currentImage, type OperationContext } from './context.ts';
import type { WebOperation } from './types.ts';

export async function upscale(ctx: OperationContext, layerId: string): Promise<void> {
  const image = currentImage(ctx.session, layerId);
  if (!image || busy(ctx.session, layerId)) return;
  await ctx.submit('upscale', { image, scale: UPSCALE_FACTOR }, estimateMs(), { op: 'upscale', layerId });
}

/** The upscaled image becomes a new variation of the layer. */
export function landUpscale(
  session: EditorSession,
  job: JobOp,
  output: unknown,
  landed: (id: string) => boolean,
): void {
  const id = imageIdOf(output);
  if (id === null) throw new Error('The upscale returned no image');
  if (landed(id)) return;
  session.editor.execute(addVariations, { id: job.layerId, imageIds: [id] });
}

export const upscaleOperation: WebOperation = {
  id: 'upscale',
  kinds: ['upscale'],
  button: {
    testId: 'op-upscale',
    label: 'generation.ops.upscale',
    order: 6,
    credits: (ctx, node) => ctx.quote('upscale', { image: currentImage(ctx.session, node.id) }),
    action: { start: (ctx, node) => void upscale(ctx, node.id) },
  },
};
