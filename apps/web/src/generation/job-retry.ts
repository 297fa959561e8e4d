// Retrying a failed job from the queue panel: the same request again, into the layer it was for — put back the
// way it was when the failure took it away (a generation's new layer, an inpaint's placeholder).
import type { GenerationParams } from '@koma/domain';
import { addImage, type LayerNode } from '@koma/editor';
import type { EditorSession } from '../editor/session.ts';
import type { JobOp } from './jobs.ts';

/** A layer a job was to fill, as it was when the job was sent. */
export interface Recreation {
  parentId: string;
  transform: LayerNode['transform'];
  params: GenerationParams | null;
  clipTo: string | null;
  locked: boolean;
  name: string;
}

/** The layer a job fills when a failure would take it away (a new layer or a placeholder); null otherwise. */
export function recreation(session: EditorSession, job: JobOp): Recreation | null {
  if (!((job.op === 'generate' && job.created) || (job.op === 'variations' && job.placeholder))) return null;
  const node = session.editor.doc.layers[job.layerId];
  if (node?.type !== 'IMAGE') return null;
  return {
    parentId: node.parent ?? session.activeRoot(),
    transform: node.transform,
    params: node.data.params,
    clipTo: node.clipTarget,
    locked: node.locked,
    name: node.name,
  };
}

/** The job to send again: the same one while its layer exists, else into a new layer like it; null when neither. */
export function retryTarget(session: EditorSession, job: JobOp, recreate: Recreation | null): JobOp | null {
  const doc = session.editor.doc;
  if (doc.layers[job.layerId]) return job;
  if (!recreate || !doc.layers[recreate.parentId]) return null;
  const added = session.editor.execute(addImage, {
    parentId: recreate.parentId,
    transform: recreate.transform,
    name: recreate.name,
    locked: recreate.locked,
    ...(recreate.params ? { params: recreate.params } : {}),
    ...(recreate.clipTo && doc.layers[recreate.clipTo] ? { clipTo: recreate.clipTo } : {}),
  });
  return added.ok ? { ...job, layerId: added.value } : null;
}
