// Where generated images land: new variations of the job's layer (generate and variations jobs alike), carrying
// the parameters that made them; a panel's image keeps only its last few.
import { addVariations } from '@koma/editor';
import type { EditorSession } from '../../editor/session.ts';
import { imagesOf, type JobOp } from '../jobs.ts';
import { resultsOf } from '../results.ts';
import { imageLayer } from './context.ts';

/** Adds a generation's images to its layer; an output another tab already landed is not added twice. */
export function landImages(
  session: EditorSession,
  job: Extract<JobOp, { op: 'generate' | 'variations' }>,
  output: unknown,
  landed: (id: string) => boolean,
): void {
  const all = imagesOf(output);
  if (all.length === 0) throw new Error('The job returned no images');
  const results = resultsOf(session);
  results.noteOutput(output);
  const images = all.filter((i) => !landed(i.id));
  if (images.length === 0) return;
  const params = job.params ? { ...job.params } : undefined;
  if (params && job.op === 'generate' && params.seed === -1 && typeof images[0]?.seed === 'number') {
    params.seed = images[0].seed; // keep the seed actually used, so regeneration stays reproducible
  }
  session.editor.execute(addVariations, {
    id: job.layerId,
    imageIds: images.map((i) => i.id),
    ...(params ? { params } : {}),
    ...(job.op === 'generate' && job.keepLast ? { keepLast: job.keepLast } : {}),
    ...(job.op === 'generate' && job.fit ? { transform: job.fit } : {}),
  });
  // Several pictures at once go to the results tray to be compared and picked from; editing goes on meanwhile.
  const kept = new Set((imageLayer(session, job.layerId)?.data.variations ?? []).map((v) => v.id));
  results.openTray(
    job.layerId,
    images.map((i) => i.id).filter((id) => kept.has(id)),
  );
}
