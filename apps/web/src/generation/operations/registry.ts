// Every operation the web offers, and where each kind of job output lands. A new operation is one module in this
// folder and one line here; the layer tab shows its button, the completeness test checks it sends a domain
// operation.
import type { EditorSession } from '../../editor/session.ts';
import type { JobOp } from '../jobs.ts';
import { backgroundOperation, landBackground } from './background.ts';
import { editOperation } from './edit.ts';
import { facesOperation, landFaces } from './faces.ts';
import { img2imgOperation } from './img2img.ts';
import { inpaintOperation } from './inpaint.ts';
import { landImages } from './land-images.ts';
import { outpaintOperation } from './outpaint.ts';
import { placeEstimatedPose, poseOperation } from './pose.ts';
import { promptExpansionOperation } from './prompt-expansion.ts';
import { refineOperation } from './refine.ts';
import { regenerateOperation } from './regenerate.ts';
import { regionalOperation, sketchMapOperation } from './composite.ts';
import type { WebOperation } from './types.ts';
import { landUpscale, upscaleOperation } from './upscale.ts';
import { variationsOperation } from './variations.ts';
import { landVideo, videoOperation } from './video.ts';

/** The Generate button, `g` and `v` send txt2img from the Prompt tab. */
const txt2imgOperation: WebOperation = { id: 'txt2img', kinds: ['txt2img'] };

export const WEB_OPERATIONS: readonly WebOperation[] = [
  txt2imgOperation,
  regenerateOperation,
  variationsOperation,
  img2imgOperation,
  refineOperation,
  inpaintOperation,
  outpaintOperation,
  upscaleOperation,
  backgroundOperation,
  facesOperation,
  poseOperation,
  videoOperation,
  editOperation,
  regionalOperation,
  sketchMapOperation,
  promptExpansionOperation,
];

/** The buttons of the layer tab's image operations, in order. */
export const LAYER_BUTTONS = WEB_OPERATIONS.flatMap((op) => (op.button ? [op.button] : [])).sort(
  (a, b) => a.order - b.order,
);

/**
 * Lands a finished job's output as its op says (new variations, a swapped picture, faces, a pose, a clip), as
 * undoable commands; throws when the output is not what the op needs. Landing is idempotent: an output another
 * tab or browser already landed (and saved) is not added twice.
 */
export function landOutput(session: EditorSession, job: JobOp, output: unknown): void {
  const node = session.editor.doc.layers[job.layerId];
  if (!node) return; // the layer was removed meanwhile
  const variations = node.type === 'IMAGE' ? node.data.variations : [];
  const landed = (id: string) => variations.some((v) => v.id === id);
  switch (job.op) {
    case 'generate':
    case 'variations':
      return landImages(session, job, output, landed);
    case 'upscale':
      return landUpscale(session, job, output, landed);
    case 'background':
      return landBackground(session, job, output, landed);
    case 'faces':
      return landFaces(session, job, output);
    case 'pose':
      return placeEstimatedPose(session, node.type === 'IMAGE' ? node : undefined, output);
    case 'video':
      return landVideo(session, job, output);
  }
}
