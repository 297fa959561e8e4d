// Regional and brush-based generation from the Regions and Sketch map sections: the request is built and checked
// from the document (regions, sketch map) and the prompt tab's settings, then runs as a job into a new image layer
// over the current frame. What stops it is kept in the composite store and shown under the section's button.
import { buildRegionalRequest, buildSmdRequest, type GenerationFrame } from '@koma/domain';
import { addImage } from '@koma/editor';
import type { EditorSession } from '../../editor/session.ts';
import type { GenerationController } from '../controller.ts';
import { fullPrompt } from '../requests.ts';
import { asCompositeJob } from './errors.ts';
import { currentFrame } from './frame.ts';
import { maskToPng } from './mask-png.ts';
import { compositeStoreOf } from './store.ts';

const LAYER_NAME_LENGTH = 60;

export async function generateRegional(session: EditorSession, controller: GenerationController): Promise<void> {
  const s = controller.settings.state;
  const frame = currentFrame(session, s.diffusion.dimension);
  const prompt = fullPrompt(s);
  const built = buildRegionalRequest({
    prompt,
    regions: session.editor.doc.regionalPrompts,
    pixels: frame.pixels,
    seed: s.diffusion.seed,
  });
  compositeStoreOf(session).update({ regionIssues: built.ok ? [] : built.issues });
  if (!built.ok) return;
  await runInFrame(session, controller, '/api/regional', built.request, frame, prompt.slice(0, LAYER_NAME_LENGTH));
}

export async function generateSketchMap(session: EditorSession, controller: GenerationController): Promise<void> {
  const s = controller.settings.state;
  const frame = currentFrame(session, s.diffusion.dimension);
  const map = session.editor.doc.sketchMap;
  const built = buildSmdRequest(
    {
      backgroundPrompt: map.backgroundPrompt,
      backgroundNegativePrompt: s.diffusion.negativePrompt,
      brushes: map.brushes,
      pixels: frame.pixels,
      seed: s.diffusion.seed,
    },
    maskToPng,
  );
  compositeStoreOf(session).update({ sketchIssues: built.ok ? [] : built.issues });
  if (!built.ok) return;
  const name = map.backgroundPrompt.trim().slice(0, LAYER_NAME_LENGTH);
  await runInFrame(session, controller, '/api/diffusion/smd', built.request, frame, name);
}

/**
 * A new image layer over the frame, clipped to its panel and locked as generating into a panel is, added as one
 * undo step and taken away again if the job fails. It keeps no generation params: regenerating it as txt2img would
 * not make the same kind of picture.
 */
async function runInFrame(
  session: EditorSession,
  controller: GenerationController,
  path: string,
  payload: Record<string, unknown>,
  frame: GenerationFrame,
  name: string,
): Promise<void> {
  const panel = frame.panelId ? session.editor.doc.layers[frame.panelId] : undefined;
  const { x, y, width, height } = frame.box;
  const result = session.editor.execute(addImage, {
    parentId: panel?.parent ?? session.activeRoot(),
    transform: { x, y, size: { width, height } },
    name,
    ...(panel ? { clipTo: panel.id, locked: true } : {}),
  });
  if (!result.ok) return;
  session.ui.update({ selection: [result.value] });
  await asCompositeJob(result.value, () => controller.runInto(path, payload, result.value));
}
