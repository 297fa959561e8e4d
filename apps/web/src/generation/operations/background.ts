// Background removal: the shown variation's picture is swapped for the cut-out.
import { swapVariationImage } from '@koma/editor';
import type { EditorSession } from '../../editor/session.ts';
import { imageIdOf, type JobOp } from '../jobs.ts';
import { estimateMs } from '../processing.ts';
import { busy, currentImage, type OperationContext } from './context.ts';
import type { WebOperation } from './types.ts';

export async function removeBackground(ctx: OperationContext, layerId: string): Promise<void> {
  const image = currentImage(ctx.session, layerId);
  if (!image || busy(ctx.session, layerId)) return;
  await ctx.submit('background', { image }, estimateMs(), { op: 'background', layerId });
}

/** The cut-out replaces the picture of the shown variation. */
export function landBackground(
  session: EditorSession,
  job: JobOp,
  output: unknown,
  landed: (id: string) => boolean,
): void {
  const id = imageIdOf(output);
  if (id === null) throw new Error('The background removal returned no image');
  if (landed(id)) return;
  session.editor.execute(swapVariationImage, { id: job.layerId, imageId: id });
}

export const backgroundOperation: WebOperation = {
  id: 'background',
  kinds: ['background'],
  button: {
    testId: 'op-background',
    label: 'generation.ops.background',
    order: 7,
    credits: (ctx, node) => ctx.quote('background', { image: currentImage(ctx.session, node.id) }),
    action: { start: (ctx, node) => void removeBackground(ctx, node.id) },
  },
};
