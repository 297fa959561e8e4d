// Regional and brush-based generation from the Regions and Sketch map sections: the request is built and checked
// from the document (regions, sketch map) and the prompt tab's settings, then runs as a job into a new image layer
// over the current frame. When something stops it, the section shows what, kept up to date until it is fixed.
import {
  buildRegionalRequest,
  buildSmdRequest,
  type GenerationFrame,
  type OperationKind,
  type PixelSize,
} from '@koma/domain';
import { addImage } from '@koma/editor';
import type { EditorSession } from '../../editor/session.ts';
import type { OperationContext } from '../operations/context.ts';
import { estimateMs } from '../processing.ts';
import { fullPrompt } from '../requests.ts';
import type { GenerationSettings } from '../settings.ts';
import { asCompositeJob } from './errors.ts';
import { currentFrame } from './frame.ts';
import { maskToPng } from './mask-png.ts';
import { compositeStoreOf } from './store.ts';

const LAYER_NAME_LENGTH = 60;

/** The regional request as things stand (frame, regions, the prompt tab), or what stops it. */
export function regionalRequest(session: EditorSession, settings: GenerationSettings) {
  const frame = currentFrame(session, settings.diffusion.dimension);
  const built = buildRegionalRequest({
    prompt: fullPrompt(settings),
    regions: session.editor.doc.regionalPrompts,
    pixels: frame.pixels,
    seed: settings.diffusion.seed,
  });
  return { frame, built };
}

/** The brush-based request as things stand; `encodeMask` turns each painted brush's mask into an image. */
export function sketchMapRequest(
  session: EditorSession,
  settings: GenerationSettings,
  encodeMask: (mask: Uint8Array, size: PixelSize) => string,
) {
  const frame = currentFrame(session, settings.diffusion.dimension);
  const map = session.editor.doc.sketchMap;
  const built = buildSmdRequest(
    {
      backgroundPrompt: map.backgroundPrompt,
      backgroundNegativePrompt: settings.diffusion.negativePrompt,
      brushes: map.brushes,
      pixels: frame.pixels,
      seed: settings.diffusion.seed,
    },
    encodeMask,
  );
  return { frame, built };
}

export async function generateRegional(ctx: OperationContext): Promise<void> {
  const { session } = ctx;
  const { frame, built } = regionalRequest(session, ctx.settings.state);
  compositeStoreOf(session).update({ regionChecked: !built.ok });
  if (!built.ok) return;
  const name = built.request.prompt.slice(0, LAYER_NAME_LENGTH);
  await runInFrame(ctx, 'regional', built.request, frame, name);
}

export async function generateSketchMap(ctx: OperationContext): Promise<void> {
  const { session } = ctx;
  const { frame, built } = sketchMapRequest(session, ctx.settings.state, maskToPng);
  compositeStoreOf(session).update({ sketchChecked: !built.ok });
  if (!built.ok) return;
  const name = built.request.backgroundPrompt.slice(0, LAYER_NAME_LENGTH);
  await runInFrame(ctx, 'smd', built.request, frame, name);
}

/**
 * A new image layer over the frame, clipped to its panel and locked as generating into a panel is, added as one
 * undo step and taken away again if the job fails. It keeps no generation params: regenerating it as txt2img would
 * not make the same kind of picture.
 */
async function runInFrame(
  ctx: OperationContext,
  kind: OperationKind,
  payload: Record<string, unknown>,
  frame: GenerationFrame,
  name: string,
): Promise<void> {
  const { session } = ctx;
  const panel = frame.panelId ? session.editor.doc.layers[frame.panelId] : undefined;
  const { x, y, width, height } = frame.box;
  const result = session.editor.execute(addImage, {
    parentId: panel?.parent ?? session.activeRoot(),
    transform: { x, y, size: { width, height } },
    name,
    ...(panel ? { clipTo: panel.id, locked: true } : {}),
  });
  if (!result.ok) return;
  const before = session.ui.state.selection;
  session.ui.update({ selection: [result.value] });
  const job = { op: 'variations', layerId: result.value, placeholder: true } as const;
  await asCompositeJob(result.value, () => ctx.submit(kind, payload, estimateMs(1), job));
  // A failed job took the layer away: select what was selected before, so the frame stays where it was. The
  // UI-state repair may already have dropped the vanished layer from the selection, leaving it empty.
  const now = session.ui.state.selection;
  if (!session.editor.doc.layers[result.value] && now.every((id) => id === result.value)) {
    session.ui.update({ selection: before.filter((id) => session.editor.doc.layers[id]) });
  }
}
