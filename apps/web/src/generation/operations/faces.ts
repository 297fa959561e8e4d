// Faces: detect the faces of the shown image (stored on the layer per variation), then enhance one of them into
// a new variation (steps 15, strength 0.5, the face prompt, a 1024 crop).
import { FACE_FIX_STEPS, zFaceDetection, type FaceDetection } from '@koma/domain';
import { setFaces } from '@koma/editor';
import type { EditorSession } from '../../editor/session.ts';
import type { JobOp } from '../jobs.ts';
import { i18n } from '../../i18n/index.ts';
import '../i18n-jobs.ts';
import { estimateMs } from '../processing.ts';
import { paramsOf } from '../requests.ts';
import { busy, currentImage, imageLayer, type OperationContext } from './context.ts';
import { faceEditPayload } from './regenerate.ts';
import type { WebOperation } from './types.ts';

export async function detectFaces(ctx: OperationContext, layerId: string): Promise<void> {
  const variationId = currentImage(ctx.session, layerId);
  if (!variationId || busy(ctx.session, layerId)) return;
  ctx.session.ui.notify(i18n.t('generation.faces.detecting'));
  await ctx.submit('face_detection', { variationId }, estimateMs(), { op: 'faces', layerId, variationId });
}

export async function enhanceFace(ctx: OperationContext, layerId: string, faceIndex: number): Promise<void> {
  const { session } = ctx;
  const node = imageLayer(session, layerId);
  const image = currentImage(session, layerId);
  if (!node || !image || busy(session, layerId)) return;
  const faces = node.data.faceStore[image] ?? [];
  if (faces.length === 0) {
    session.ui.notify(i18n.t('generation.faces.none'), 'error');
    return;
  }
  if (!faces[faceIndex]) {
    session.ui.notify(i18n.t('generation.faces.missing'), 'error');
    return;
  }
  const s = ctx.settings.state;
  const params = paramsOf(s.diffusion, s.face.prompt, 'face enhance', {
    negative_prompt: s.face.negativePrompt,
    steps: FACE_FIX_STEPS,
    strength: s.face.strength,
    numImages: 1,
    srcLayerId: layerId,
    referenceImages: [image],
  });
  const payload = faceEditPayload(ctx, image, faceIndex, s.diffusion.seed);
  await ctx.submit('face_edit', payload, estimateMs(1), { op: 'variations', layerId, params });
}

/** The price of enhancing one face of the layer's shown image with the current settings. */
export function enhanceQuote(ctx: OperationContext, layerId: string): number | null {
  const image = currentImage(ctx.session, layerId);
  return image ? ctx.quote('face_edit', faceEditPayload(ctx, image, 0, ctx.settings.state.diffusion.seed)) : null;
}

/** The faces found are kept on the layer for the variation they were found in. */
export function landFaces(session: EditorSession, job: Extract<JobOp, { op: 'faces' }>, output: unknown): void {
  const raw = (output as { bboxes?: unknown } | null)?.bboxes;
  const faces: FaceDetection[] = Array.isArray(raw)
    ? raw.flatMap((b) => {
        const parsed = zFaceDetection.safeParse(b);
        return parsed.success ? [parsed.data] : [];
      })
    : [];
  session.editor.execute(setFaces, { id: job.layerId, variationId: job.variationId, faces });
  // "Faces detected" only when there are some: with none, saying so, and no face to enhance is offered.
  session.ui.notify(faces.length === 0 ? i18n.t('generation.facesFound.none') : i18n.t('generation.faces.detected'));
}

export const facesOperation: WebOperation = {
  id: 'faces',
  kinds: ['face_detection', 'face_edit'],
  button: {
    testId: 'op-detect-faces',
    label: 'generation.ops.detectFaces',
    order: 8,
    action: { start: (ctx, node) => void detectFaces(ctx, node.id) },
  },
};
