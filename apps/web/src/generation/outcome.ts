// What a finished job does to the document (new variations, a swapped image, faces, a pose or a video clip), and
// what a failed one tells the user. The same for a job followed live and one that ended while the page was away.
import { SUBSCRIPTION_REQUIRED, zFaceDetection, type FaceDetection } from '@koma/domain';
import { addVariations, addVideo, setFaces, swapVariationImage } from '@koma/editor';
import { isApiError } from '../api/ApiError.ts';
import type { EditorSession } from '../editor/session.ts';
import { i18n } from '../i18n/index.ts';
import { imagesOf, videoOf, type JobOp } from './jobs.ts';
import { placeEstimatedPose } from './pose.ts';
import { JobFailedError } from './stream.ts';

const FACE_FAILURES: Readonly<Record<string, string>> = {
  'No faces detected': 'generation.faces.none',
  'Face not detected': 'generation.faces.missing',
};

/**
 * Applies a job's output to its layer as undoable commands; throws when the output is not what the op needs.
 * Landing is idempotent: an output another tab or browser already landed (and saved) is not added twice.
 */
export function applyOutput(session: EditorSession, job: JobOp, output: unknown): void {
  const editor = session.editor;
  const node = editor.doc.layers[job.layerId];
  if (!node) return; // the layer was removed meanwhile
  const variations = node.type === 'IMAGE' ? node.data.variations : [];
  const landed = (id: string) => variations.some((v) => v.id === id);
  switch (job.op) {
    case 'generate':
    case 'variations': {
      const all = imagesOf(output);
      if (all.length === 0) throw new Error('The job returned no images');
      const images = all.filter((i) => !landed(i.id));
      if (images.length === 0) return;
      const params = 'params' in job && job.params ? { ...job.params } : undefined;
      if (params && job.op === 'generate' && params.seed === -1 && typeof images[0]?.seed === 'number') {
        params.seed = images[0].seed; // keep the seed actually used, so regeneration stays reproducible
      }
      editor.execute(addVariations, {
        id: job.layerId,
        imageIds: images.map((i) => i.id),
        ...(params ? { params } : {}),
        ...(job.op === 'generate' && job.keepLast ? { keepLast: job.keepLast } : {}),
      });
      return;
    }
    case 'upscale': {
      const id = (output as { id?: unknown } | null)?.id;
      if (typeof id !== 'string') throw new Error('The upscale returned no image');
      if (landed(id)) return;
      editor.execute(addVariations, { id: job.layerId, imageIds: [id] });
      return;
    }
    case 'background': {
      const id = (output as { id?: unknown } | null)?.id;
      if (typeof id !== 'string') throw new Error('The background removal returned no image');
      if (landed(id)) return;
      editor.execute(swapVariationImage, { id: job.layerId, imageId: id });
      return;
    }
    case 'faces': {
      const raw = (output as { bboxes?: unknown } | null)?.bboxes;
      const faces: FaceDetection[] = Array.isArray(raw)
        ? raw.flatMap((b) => {
            const parsed = zFaceDetection.safeParse(b);
            return parsed.success ? [parsed.data] : [];
          })
        : [];
      editor.execute(setFaces, { id: job.layerId, variationId: job.variationId, faces });
      session.ui.notify(i18n.t('generation.faces.detected', { count: faces.length }));
      return;
    }
    case 'pose': {
      placeEstimatedPose(session, node.type === 'IMAGE' ? node : undefined, output);
      return;
    }
    case 'video': {
      const video = videoOf(output);
      if (!video) throw new Error('The job returned no video');
      editor.execute(addVideo, {
        id: job.layerId,
        video: { ...video, model: job.model, duration: job.duration, imageId: job.imageId },
      });
      session.ui.notify(i18n.t('generation.video.ready'));
      return;
    }
  }
}

/**
 * Tells the user why a job failed: credits and subscription errors open their dialog ('plan' = the credits or
 * the subscription dialog by plan), a cancel says nothing, the face rules keep their own words, anything else is
 * the generic toast.
 */
export function reportFailure(
  session: EditorSession,
  job: JobOp,
  error: unknown,
  openDialog: (dialog: 'plan' | 'subscription', reason: 'subscription_required' | 'not_enough_credits') => void,
): void {
  if (job.op === 'faces') {
    session.ui.notify(i18n.t('generation.faces.failed'), 'error');
    return;
  }
  if (isApiError(error)) {
    if (error.code === 'not_enough_credits') {
      openDialog('plan', 'not_enough_credits');
      return;
    }
    if (error.code === SUBSCRIPTION_REQUIRED) {
      openDialog('subscription', 'subscription_required');
      return;
    }
    console.error(`Unknown error code: ${error.code}`, error);
    session.ui.notify(error.message || i18n.t('common.failed_to_perform_image_operation'), 'error');
    return;
  }
  if (error instanceof JobFailedError) {
    if (error.code === 'cancelled') return; // the user asked for it
    console.error('Job failed:', error.detail);
    // The face rules of the server keep their own words (editor.md §5).
    const face = FACE_FAILURES[error.detail];
    if (error.code === 'validation' && face) {
      session.ui.notify(i18n.t(face), 'error');
      return;
    }
  } else console.error('Image operation failed', error);
  session.ui.notify(i18n.t('common.failed_to_perform_image_operation'), 'error');
}
