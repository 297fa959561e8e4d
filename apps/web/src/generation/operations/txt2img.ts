// Text to image: the Generate button, `g` at the pointer, into a panel, and `v` from a pose or sketch layer.
import { PANEL_GENERATE_KEEP_VARIATIONS, panelImageSize, resolveModel } from '@koma/domain';
import { addImage, controlPlacement, coverBox, hitLayer, pairPose, type LayerNode } from '@koma/editor';
import { estimateMs, regenerationSeed } from '../processing.ts';
import { paramsOf, txt2imgPayload, type Source } from '../requests.ts';
import { renderPose, renderSketch } from '../control-images.ts';
import { busy, imageLayer, viewCentre, type OperationContext } from './context.ts';
import { refusalText } from '../../editor/refusals.ts';

/** What the Generate button would send now: the tabs' settings, at the panel's shape when it fills one. */
export function generateRequest(ctx: OperationContext): {
  payload: ReturnType<typeof txt2imgPayload>;
  panel: LayerNode<'PANEL'> | undefined;
} {
  const panel = selectedPanel(ctx);
  const payload = txt2imgPayload(ctx.settings.state);
  return { payload: panel ? { ...payload, ...panelRequestSize(ctx, panel) } : payload, panel };
}

/** The credits the Generate button's request costs with the current settings, or null while it is not valid. */
export function generateQuote(ctx: OperationContext): number | null {
  return ctx.quote('txt2img', generateRequest(ctx).payload);
}

// Every entry point sends what the Prompt, Model and Settings tabs show (issue 19): re-running an image with its
// own stored settings is the separate "Regenerate with its settings" of the layer tab (regenerate.ts).

/** `g`: into the panel under the pointer, or a new layer there. */
export function generateAtPointer(ctx: OperationContext): void {
  const s = ctx.settings.state;
  // editor.md §5: an empty prompt creates nothing; the user is told why (issue 16).
  if (s.diffusion.prompt.trim() === '') return ctx.session.ui.notify(refusalText('prompt'));
  const { session } = ctx;
  const at = session.ui.state.pointer ?? viewCentre(session);
  const panelId = hitLayer(session.editor.doc, session.activeRoot(), at, (n) => n.type === 'PANEL');
  if (panelId) void generateIntoPanel(ctx, panelId);
  else void generateNew(ctx, at);
}

/** The panel the Generate button fills: the selected panel, or the panel of the selected image. */
export function selectedPanel(ctx: OperationContext): LayerNode<'PANEL'> | undefined {
  const { session } = ctx;
  const selection = session.ui.state.selection;
  const doc = session.editor.doc;
  const selected = selection.length === 1 ? doc.layers[selection[0]!] : undefined;
  const panel = selected?.type === 'IMAGE' && selected.clipTarget ? doc.layers[selected.clipTarget] : selected;
  return panel?.type === 'PANEL' && panel.parent !== null ? panel : undefined;
}

/** The Generate button: into the selected panel (or the selected image's panel), else a new layer mid-view. */
export function generateFromSelection(ctx: OperationContext): void {
  const panel = selectedPanel(ctx);
  if (panel) void generateIntoPanel(ctx, panel.id);
  else void generateNew(ctx, viewCentre(ctx.session));
}

/** The size a picture for the panel is asked at: the panel's shape, about the chosen pixel count. */
export function panelRequestSize(ctx: OperationContext, panel: LayerNode<'PANEL'>): { width: number; height: number } {
  const d = ctx.settings.state.diffusion;
  return panelImageSize(panel.transform.size, d.dimension, resolveModel(d.model).modelType);
}

/** A new image layer of the chosen size centred on a point. */
export async function generateNew(
  ctx: OperationContext,
  at: { x: number; y: number },
  source: Source = 'prompt',
): Promise<void> {
  const s = ctx.settings.state;
  const payload = txt2imgPayload(s, source);
  const { width, height } = s.diffusion.dimension;
  const params = paramsOf(s.diffusion, String(payload.prompt), 'txt2img');
  const result = ctx.session.editor.execute(addImage, {
    parentId: ctx.session.activeRoot(),
    transform: { x: at.x - width / 2, y: at.y - height / 2, size: { width, height } },
    params,
    name: s.diffusion.prompt.slice(0, 60),
  });
  if (!result.ok) return;
  ctx.session.ui.update({ selection: [result.value] });
  await ctx.submit('txt2img', payload, estimateMs(s.diffusion.batchSize), {
    op: 'generate',
    layerId: result.value,
    created: true,
    params,
  });
}

/**
 * Into a panel: a picture of the panel's shape, covering it, clipped, locked and selected; the panel's image keeps
 * its last 4 variations, and is fitted to the panel again when the new pictures have another shape.
 */
export async function generateIntoPanel(ctx: OperationContext, panelId: string): Promise<void> {
  const { session } = ctx;
  const doc = session.editor.doc;
  const panel = doc.layers[panelId];
  if (panel?.type !== 'PANEL' || panel.parent === null) return;
  const s = ctx.settings.state;
  const existing = panel.clippedLayers
    .map((id) => doc.layers[id])
    .find((n): n is LayerNode<'IMAGE'> => n?.type === 'IMAGE' && n.data.params !== null);
  if (existing && busy(session, existing.id)) return;
  const count = existing?.data.variations.length ?? 0;
  const size = panelRequestSize(ctx, panel);
  const payload = { ...txt2imgPayload(s), ...size, seed: regenerationSeed(s.diffusion.seed, count) };
  const params = paramsOf(s.diffusion, String(payload.prompt), 'txt2img', size);
  const t = panel.transform;
  const box = coverBox({ x: t.x, y: t.y, width: t.size.width, height: t.size.height }, size);
  let layerId = existing?.id;
  let created = false;
  if (!layerId) {
    const result = session.editor.execute(addImage, {
      parentId: panel.parent,
      transform: box,
      params,
      clipTo: panel.id,
      locked: true,
      name: s.diffusion.prompt.slice(0, 60),
    });
    if (!result.ok) return;
    layerId = result.value;
    created = true;
  }
  session.ui.update({ selection: [layerId] });
  await ctx.submit('txt2img', payload, estimateMs(s.diffusion.batchSize), {
    op: 'generate',
    layerId,
    created,
    keepLast: PANEL_GENERATE_KEEP_VARIATIONS,
    params,
    ...(created ? {} : { fit: box }),
  });
}

/** `v`: generate from the selected pose or sketch layer (quality tags on), pairing the result with it. */
export function generateFromPoseOrSketch(ctx: OperationContext): void {
  const id = ctx.session.ui.state.selection[0];
  const node = id ? ctx.session.editor.doc.layers[id] : undefined;
  if (node?.type !== 'POSE' && node?.type !== 'SKETCH') return ctx.session.ui.notify(refusalText('poseOrSketch'));
  if (ctx.settings.state.diffusion.prompt.trim() === '') return ctx.session.ui.notify(refusalText('prompt'));
  void generateFromControl(ctx, node);
}

async function generateFromControl(
  ctx: OperationContext,
  node: LayerNode<'POSE'> | LayerNode<'SKETCH'>,
): Promise<void> {
  const { session } = ctx;
  const s = ctx.settings.state;
  const isPose = node.type === 'POSE';
  // Inside a panel the result is clipped to it; a sketch's control image is its strokes over that panel.
  const place = controlPlacement(session.editor.doc, session.activeRoot(), node.id);
  const panel = place.panelId ? session.editor.doc.layers[place.panelId] : undefined;
  const size =
    !isPose && panel?.type === 'PANEL'
      ? panelRequestSize(ctx, panel)
      : { width: s.diffusion.dimension.width, height: s.diffusion.dimension.height };
  const payload = {
    ...txt2imgPayload(s, isPose ? 'pose' : 'sketch'),
    ...size,
    controlnets: [
      {
        model: isPose ? 'controlnet-openpose' : 'controlnet-anytest',
        image: node.type === 'POSE' ? renderPose(node, place.region) : renderSketch(node, place.region),
        strength: isPose ? s.diffusion.poseStrength : s.diffusion.sketchStrength,
      },
    ],
  };
  const paired = isPose ? node.data.pairedLayerId : node.data.imgLayerId;
  const reuse = paired ? imageLayer(session, paired) : undefined;
  const params = paramsOf(s.diffusion, String(payload.prompt), 'txt2img', { qualityTags: true, srcLayerId: node.id });
  const estimate = estimateMs(s.diffusion.batchSize);
  if (reuse) {
    await ctx.submit('txt2img', payload, estimate, { op: 'generate', layerId: reuse.id, created: false, params });
    return;
  }
  const { region } = place;
  const result = session.editor.execute(addImage, {
    parentId: place.parentId,
    transform: { x: region.x, y: region.y, size: { width: region.width, height: region.height } },
    ...(place.panelId ? { clipTo: place.panelId } : {}),
    params,
    name: s.diffusion.prompt.slice(0, 60),
  });
  if (!result.ok) return;
  if (isPose) session.editor.execute(pairPose, { id: node.id, imageLayerId: result.value });
  session.ui.update({ selection: [result.value] });
  await ctx.submit('txt2img', payload, estimate, { op: 'generate', layerId: result.value, created: true, params });
}
