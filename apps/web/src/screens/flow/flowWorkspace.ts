import { createImageLayer, createWorkspaceData, zFlowImage, zGenerationParams } from '@koma/domain';
import type { FlowImage, GenerationParams, WorkspaceData } from '@koma/domain';
import type { CreateWorkspaceRequest } from '../../api/types.ts';

/** The entry of `userImages` whose variationId matches; malformed entries are skipped, not trusted. */
export function findFlowImage(userImages: readonly unknown[], variationId: string): FlowImage | null {
  for (const entry of userImages) {
    const parsed = zFlowImage.safeParse(entry);
    if (parsed.success && parsed.data.variationId === variationId) return parsed.data;
  }
  return null;
}

/** The flow image's generation data in the editor's parameter names, or null if it does not fit them. */
export function flowParams(flow: FlowImage): GenerationParams | null {
  const g = flow.generationData;
  const parsed = zGenerationParams.safeParse({
    model: g.model_name,
    type: 'txt2img',
    prompt: g.prompt,
    negative_prompt: g.negative_prompt,
    width: g.image_size.width,
    height: g.image_size.height,
    cfg: g.guidance_scale,
    steps: g.num_inference_steps,
    seed: g.seed,
  });
  return parsed.success ? parsed.data : null;
}

/**
 * An INFINITE workspace holding the flow image as one IMAGE layer at its generated size, its variation being the
 * stored image of that id, with the generation parameters kept so it can be regenerated.
 */
export function flowWorkspaceRequest(
  flow: FlowImage,
  name: string,
  ids: () => string,
): CreateWorkspaceRequest & { data: WorkspaceData } {
  const data = createWorkspaceData('INFINITE', ids);
  const { width, height } = flow.generationData.image_size;
  const layer = createImageLayer(
    ids(),
    { x: 0, y: 0, size: { width, height } },
    { variations: [{ id: flow.variationId }], variationsIdx: 0, params: flowParams(flow) },
  );
  data.rootLayer.children.push(layer);
  return { name, type: 'INFINITE', data };
}
