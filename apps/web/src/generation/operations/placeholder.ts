// Inpaint and outpaint land in a new layer over the source (a placeholder until the job fills it), clipped as the
// source is; a failed job takes the placeholder away again.
import type { GenerationParams, OperationKind } from '@koma/domain';
import { addImage, type LayerNode } from '@koma/editor';
import { estimateMs } from '../processing.ts';
import type { OperationContext } from './context.ts';

export async function intoPlaceholder(
  ctx: OperationContext,
  node: LayerNode<'IMAGE'>,
  transform: LayerNode['transform'],
  kind: OperationKind,
  payload: Record<string, unknown>,
  params: GenerationParams,
): Promise<void> {
  const { session } = ctx;
  const result = session.editor.execute(addImage, {
    parentId: node.parent ?? session.activeRoot(),
    transform,
    params,
    name: `${node.name} (inpaint)`.slice(0, 255),
    ...(node.clipTarget ? { clipTo: node.clipTarget } : {}),
  });
  if (!result.ok) return;
  session.ui.update({ selection: [result.value] });
  await ctx.submit(kind, payload, estimateMs(Number(payload.num_images ?? 1)), {
    op: 'variations',
    layerId: result.value,
    placeholder: true,
    params,
  });
}
