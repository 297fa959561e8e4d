// The generation flows of the editor (issue 9): generating into layers at the pointer or into a panel,
// regeneration, inpaint/outpaint, variations, faces, upscale, background removal, instruction edits, pose; live
// processing state per layer, jobs that survive a reload, and the credits/subscription dialogs.
import {
  DEFAULT_OUTPAINT_PADDING,
  FACE_ENHANCE_CROP_SIZE,
  FACE_FIX_STEPS,
  OUTPAINT_BLUR,
  OUTPAINT_DEFAULT_OVERLAP,
  OUTPAINT_MIN_STEPS,
  PANEL_GENERATE_KEEP_VARIATIONS,
  UPSCALE_FACTOR,
  VARIATIONS_NUM_IMAGES,
  VARIATIONS_STRENGTH,
  extendsSomething,
  normalizeOutpaintPadding,
  outpaintedTransform,
  type EditModelId,
  type GenerationParams,
  type OutpaintPadding,
  type RequestKind,
} from '@koma/domain';
import {
  addImage,
  changeVariation,
  cycledIndex,
  dropVariation,
  hitLayer,
  pairPose,
  removeLayers,
  type LayerNode,
} from '@koma/editor';
import { isApiError } from '../api/ApiError.ts';
import { api } from '../api/endpoints.ts';
import { createHttpClient, type FetchLike } from '../api/http.ts';
import { loadImageById } from '../api/imageLoader.ts';
import type { Plan } from '../api/types.ts';
import type { EditorSession, GenerationActions } from '../editor/session.ts';
import { i18n } from '../i18n/index.ts';
import { applyOutput, reportFailure } from './outcome.ts';
import { videoRequest, type VideoChoice } from './video.ts';
import { renderPose, renderSketch } from './control-images.ts';
import { gridSize, maskBounds, renderMask } from './mask.ts';
import { JobTracker, estimateMs, regenerationSeed } from './processing.ts';
import { fullPrompt, paramsOf, quote, regenerateTxt2img, txt2imgPayload, type Source } from './requests.ts';
import { SettingsStore } from './settings.ts';
import { compositeFailureText } from './regional/errors.ts';
import {
  cancelJob,
  connectionLost,
  forgetJob,
  jobTag,
  parseJobTag,
  planReattach,
  rememberJob,
  storedJobs,
  listJobs,
  unlandedJobs,
  type JobOp,
  type ServerJob,
} from './jobs.ts';

export type { JobOp } from './jobs.ts';
export type { VideoChoice } from './video.ts';
import { JobFailedError, attachJob, submitJob, type StreamOptions } from './stream.ts';

/** What the controller needs from the signed-in account. */
export interface AccountPort {
  plan(): Plan | null;
  refreshCredits(): Promise<void>;
}

export type PlanDialog = 'credits' | 'subscription' | null;
/** Why the subscription dialog opened: a subscriber-only model, or a free account out of credits. */
export type PlanDialogReason = 'subscription_required' | 'not_enough_credits';

const registry = new WeakMap<EditorSession, GenerationController>();

/** The controller of a session (the tabs and buttons find it here). */
export function controllerOf(session: EditorSession): GenerationController | undefined {
  return registry.get(session);
}

export class GenerationController implements GenerationActions {
  readonly settings: SettingsStore;
  private dialogValue: PlanDialog = null;
  private reasonValue: PlanDialogReason = 'not_enough_credits';
  private readonly dialogListeners = new Set<() => void>();
  private readonly aborts = new Map<string, AbortController>();
  /** The job followed for each layer (to cancel it, and so a job is never followed twice). */
  private readonly jobsByLayer = new Map<string, string>();
  /** Counts starts: a re-attach begun before a restart of the controller leaves the jobs to the newer one. */
  private epoch = 0;
  private readonly fetch: FetchLike | undefined;
  private disposed = false;
  /** Set when the page goes away: streams cut by the unload are not failures. */
  private leaving = false;
  private unwatch: (() => void) | null = null;
  /** Image ids whose loading was already checked (ok or failed), so each is fetched once. */
  private readonly checked = new Set<string>();
  private readonly onPageHide = (): void => {
    this.leaving = true;
  };

  constructor(
    private readonly session: EditorSession,
    private readonly account: AccountPort,
    options: { fetch?: FetchLike; settings?: SettingsStore } = {},
  ) {
    this.settings = options.settings ?? new SettingsStore();
    this.fetch = options.fetch;
    registry.set(session, this);
  }

  // ---- dialogs ---------------------------------------------------------------------------------------------

  get dialog(): PlanDialog {
    return this.dialogValue;
  }

  get dialogReason(): PlanDialogReason {
    return this.reasonValue;
  }

  setDialog(value: PlanDialog, reason: PlanDialogReason = 'not_enough_credits'): void {
    this.dialogValue = value;
    this.reasonValue = reason;
    for (const l of this.dialogListeners) l();
  }

  onDialog(listener: () => void): () => void {
    this.dialogListeners.add(listener);
    return () => this.dialogListeners.delete(listener);
  }

  // ---- GenerationActions (keys g, v, e) --------------------------------------------------------------------

  /** `g`: into the panel under the pointer, regenerate the generated image under it, or a new layer there. */
  generateAtPointer(): void {
    const s = this.settings.state;
    if (s.diffusion.prompt.trim() === '') return; // editor.md §5: an empty prompt creates nothing
    const doc = this.session.editor.doc;
    const root = this.session.activeRoot();
    const at = this.session.ui.state.pointer ?? this.viewCentre();
    const panelId = hitLayer(doc, root, at, (n) => n.type === 'PANEL');
    if (panelId) {
      void this.generateIntoPanel(panelId);
      return;
    }
    const imageId = hitLayer(doc, root, at, (n) => n.type === 'IMAGE');
    const image = imageId ? doc.layers[imageId] : undefined;
    if (image?.type === 'IMAGE' && image.data.params && image.data.variations.length > 0) {
      void this.regenerate(image.id);
      return;
    }
    void this.generateNew(at);
  }

  /** `v`: generate from the selected pose or sketch layer (quality tags on), pairing the result with it. */
  generateFromPoseOrSketch(): void {
    const id = this.session.ui.state.selection[0];
    const node = id ? this.session.editor.doc.layers[id] : undefined;
    if (node?.type !== 'POSE' && node?.type !== 'SKETCH') return;
    if (this.settings.state.diffusion.prompt.trim() === '') return;
    void this.generateFromControl(node);
  }

  /** `e`: estimate the pose of the selected image (a pose layer is added over it). */
  estimatePose(): void {
    const id = this.session.ui.state.selection[0];
    const node = id ? this.session.editor.doc.layers[id] : undefined;
    if (node?.type !== 'IMAGE') return;
    void this.poseOf(node.id);
  }

  // ---- the cost shown on the Generate button ---------------------------------------------------------------

  /** Credits the `g` request with the current settings costs, or null while it is not valid (empty prompt). */
  currentQuote(): number | null {
    return quote('txt2img', txt2imgPayload(this.settings.state));
  }

  quoteOf(kind: RequestKind, payload: unknown): number | null {
    return quote(kind, payload, this.settings.state.diffusion.prompt);
  }

  // ---- generation into layers ------------------------------------------------------------------------------

  private viewCentre(): { x: number; y: number } {
    const v = this.session.view();
    return {
      x: (this.session.viewport.width / 2 - v.x) / v.zoom,
      y: (this.session.viewport.height / 2 - v.y) / v.zoom,
    };
  }

  /** A new image layer of the chosen size centred on a point. */
  async generateNew(at: { x: number; y: number }, source: Source = 'prompt'): Promise<void> {
    const s = this.settings.state;
    const payload = txt2imgPayload(s, source);
    const { width, height } = s.diffusion.dimension;
    const params = paramsOf(s.diffusion, String(payload.prompt), 'txt2img');
    const result = this.session.editor.execute(addImage, {
      parentId: this.session.activeRoot(),
      transform: { x: at.x - width / 2, y: at.y - height / 2, size: { width, height } },
      params,
      name: s.diffusion.prompt.slice(0, 60),
    });
    if (!result.ok) return;
    this.session.ui.update({ selection: [result.value] });
    await this.runAndApply('/api/diffusion/txt2img', payload, estimateMs(s.diffusion.batchSize), {
      op: 'generate',
      layerId: result.value,
      created: true,
      params,
    });
  }

  /** Into a panel: clipped to it, locked and selected; the panel's image keeps its last 4 variations. */
  async generateIntoPanel(panelId: string): Promise<void> {
    const doc = this.session.editor.doc;
    const panel = doc.layers[panelId];
    if (panel?.type !== 'PANEL' || panel.parent === null) return;
    const s = this.settings.state;
    const existing = panel.clippedLayers
      .map((id) => doc.layers[id])
      .find((n): n is LayerNode<'IMAGE'> => n?.type === 'IMAGE' && n.data.params !== null);
    if (existing && this.session.ui.state.processing[existing.id]) return;
    const count = existing?.data.variations.length ?? 0;
    const payload = { ...txt2imgPayload(s), seed: regenerationSeed(s.diffusion.seed, count) };
    const params = paramsOf(s.diffusion, String(payload.prompt), 'txt2img');
    let layerId = existing?.id;
    let created = false;
    if (!layerId) {
      const { width, height } = s.diffusion.dimension;
      const box = panel.transform;
      const scale = Math.max(box.size.width / width, box.size.height / height);
      const size = { width: width * scale, height: height * scale };
      const result = this.session.editor.execute(addImage, {
        parentId: panel.parent,
        transform: {
          x: box.x + (box.size.width - size.width) / 2,
          y: box.y + (box.size.height - size.height) / 2,
          size,
        },
        params,
        clipTo: panel.id,
        locked: true,
        name: s.diffusion.prompt.slice(0, 60),
      });
      if (!result.ok) return;
      layerId = result.value;
      created = true;
    }
    this.session.ui.update({ selection: [layerId] });
    await this.runAndApply('/api/diffusion/txt2img', payload, estimateMs(s.diffusion.batchSize), {
      op: 'generate',
      layerId,
      created,
      keepLast: PANEL_GENERATE_KEEP_VARIATIONS,
      params,
    });
  }

  /** Regenerates a layer by its params type (txt2img, inpaint, face enhance), seed + the count of variations. */
  async regenerate(layerId: string): Promise<void> {
    const node = this.imageLayer(layerId);
    const params = node?.data.params;
    if (!node || !params || this.session.ui.state.processing[layerId]) return;
    const count = node.data.variations.length;
    const keepLast =
      node.clipTarget && this.session.editor.doc.layers[node.clipTarget]?.type === 'PANEL'
        ? PANEL_GENERATE_KEEP_VARIATIONS
        : undefined;
    const seed = regenerationSeed(params.seed, count);
    const job: JobOp = { op: 'generate', layerId, created: false, params, ...(keepLast ? { keepLast } : {}) };
    if (params.type === 'inpaint' && params.inpaintMask && params.referenceImages[0]) {
      const payload = {
        prompt: params.prompt,
        negative_prompt: params.negative_prompt,
        model: params.model,
        width: params.width,
        height: params.height,
        image: params.referenceImages[0],
        mask: params.inpaintMask,
        num_images: params.numImages,
        strength: params.strength,
        lightning: params.lightning,
        loras: params.loras,
        steps: params.steps,
        cfg: params.cfg,
        seed,
      };
      await this.runAndApply('/api/diffusion/inpaint', payload, estimateMs(params.numImages), job);
      return;
    }
    if (params.type === 'face enhance' && params.referenceImages[0]) {
      await this.runAndApply(
        '/api/diffusion/face_edit',
        this.faceEditPayload(params.referenceImages[0], 0, seed),
        estimateMs(1),
        job,
      );
      return;
    }
    await this.runAndApply(
      '/api/diffusion/txt2img',
      regenerateTxt2img(params, count),
      estimateMs(params.numImages),
      job,
    );
  }

  private async generateFromControl(node: LayerNode<'POSE'> | LayerNode<'SKETCH'>): Promise<void> {
    const s = this.settings.state;
    const isPose = node.type === 'POSE';
    const image = isPose ? renderPose(node) : renderSketch(node);
    const payload = {
      ...txt2imgPayload(s, isPose ? 'pose' : 'sketch'),
      width: s.diffusion.dimension.width,
      height: s.diffusion.dimension.height,
      controlnets: [
        {
          model: isPose ? 'controlnet-openpose' : 'controlnet-anytest',
          image,
          strength: isPose ? s.diffusion.poseStrength : s.diffusion.sketchStrength,
        },
      ],
    };
    const paired = isPose ? node.data.pairedLayerId : node.data.imgLayerId;
    const reuse = paired ? this.imageLayer(paired) : undefined;
    const params = paramsOf(s.diffusion, String(payload.prompt), 'txt2img', { qualityTags: true, srcLayerId: node.id });
    if (reuse) {
      await this.runAndApply('/api/diffusion/txt2img', payload, estimateMs(s.diffusion.batchSize), {
        op: 'generate',
        layerId: reuse.id,
        created: false,
        params,
      });
      return;
    }
    const t = node.transform;
    const result = this.session.editor.execute(addImage, {
      parentId: node.parent ?? this.session.activeRoot(),
      transform: { x: t.x + t.size.width + 20, y: t.y, size: { ...t.size } },
      params,
      name: s.diffusion.prompt.slice(0, 60),
    });
    if (!result.ok) return;
    if (isPose) {
      this.session.editor.execute(pairPose, { id: node.id, imageLayerId: result.value });
    }
    this.session.ui.update({ selection: [result.value] });
    await this.runAndApply('/api/diffusion/txt2img', payload, estimateMs(s.diffusion.batchSize), {
      op: 'generate',
      layerId: result.value,
      created: true,
      params,
    });
  }

  /** Runs a job into an image layer the caller just added (regional/generate.ts); a failure takes the layer away. */
  runInto(path: string, payload: Record<string, unknown>, layerId: string): Promise<void> {
    return this.runAndApply(path, payload, estimateMs(1), { op: 'variations', layerId, placeholder: true });
  }

  // ---- image operations on one layer -----------------------------------------------------------------------

  private imageLayer(id: string): LayerNode<'IMAGE'> | undefined {
    const node = this.session.editor.doc.layers[id];
    return node?.type === 'IMAGE' ? node : undefined;
  }

  /** The shown variation's image id, or undefined for a layer with no data (the operation then does nothing). */
  private currentImage(id: string): string | undefined {
    const node = this.imageLayer(id);
    return node?.data.variations[node.data.variationsIdx]?.id;
  }

  private busy(id: string): boolean {
    return !!this.session.ui.state.processing[id];
  }

  /** Payload of an inpaint of the layer from its painted mask; null without strokes or data. */
  inpaintPayload(layerId: string) {
    const node = this.imageLayer(layerId);
    const image = this.currentImage(layerId);
    if (!node || !image || !maskBounds(node.data.maskParams.mask)) return null;
    const d = this.settings.state.diffusion;
    return {
      prompt: node.data.params?.prompt ?? '',
      negative_prompt: d.negativePrompt,
      model: d.model,
      width: gridSize(node.originalSize.width),
      height: gridSize(node.originalSize.height),
      image,
      mask: 'MASK',
      num_images: d.batchSize,
      strength: d.inpaintStrength,
      lightning: d.lightning,
      ip_adapter_image: d.ipAdapterImage,
      ip_adapter_strength: d.ipAdapterStrength,
      loras: d.loras,
      steps: d.lightning === 'none' ? d.steps : undefined,
      cfg: d.lightning === 'none' ? d.cfg : undefined,
      seed: d.seed,
    };
  }

  /** Inpaint from the painted mask into a placeholder layer above; a failure removes the placeholder. */
  async inpaint(layerId: string): Promise<void> {
    const node = this.imageLayer(layerId);
    const base = this.inpaintPayload(layerId);
    if (!node || !base || this.busy(layerId)) return;
    const prompt = String(base.prompt).trim() === '' ? fullPrompt(this.settings.state) : String(base.prompt);
    // The mask is stored first, so the layer can keep its id for regeneration (not a data URL in the document).
    let mask = renderMask(node.data.maskParams, node.originalSize);
    try {
      mask = (await api.images.upload(mask.slice(mask.indexOf(',') + 1), 'png')).id;
    } catch (error) {
      console.error('Upload failed', error); // the request still carries the mask inline
    }
    const payload = { ...base, prompt, mask };
    const params = paramsOf(this.settings.state.diffusion, prompt, 'inpaint', {
      inpaintMask: mask.startsWith('data:') ? null : mask,
      width: Number(payload.width),
      height: Number(payload.height),
      strength: this.settings.state.diffusion.inpaintStrength,
      srcLayerId: node.id,
      referenceImages: [String(payload.image)],
    });
    await this.intoPlaceholder(node, node.transform, '/api/diffusion/inpaint', payload, params);
  }

  /**
   * Outpaint: the image grown by the chosen pixels on each side (128 unless chosen; at least 30 steps, strength 1,
   * overlap 0.05, blur 20). Nothing is sent when no side grows.
   */
  async outpaint(layerId: string, sides: Partial<OutpaintPadding> = DEFAULT_OUTPAINT_PADDING): Promise<void> {
    const node = this.imageLayer(layerId);
    const image = this.currentImage(layerId);
    const padding = normalizeOutpaintPadding(sides);
    if (!node || !image || this.busy(layerId) || !extendsSomething(padding)) return;
    const d = this.settings.state.diffusion;
    const payload = {
      image,
      model: d.model,
      prompt: node.data.params?.prompt || fullPrompt(this.settings.state),
      negative_prompt: d.negativePrompt,
      ...padding,
      overlap: OUTPAINT_DEFAULT_OVERLAP,
      blur: OUTPAINT_BLUR,
      steps: Math.max(OUTPAINT_MIN_STEPS, Math.min(30, d.steps)),
      seed: d.seed,
      loras: d.loras,
    };
    const transform = outpaintedTransform(node.transform, node.originalSize, padding);
    const params = paramsOf(d, payload.prompt, 'inpaint', { strength: 1, srcLayerId: node.id, numImages: 1 });
    await this.intoPlaceholder(node, transform, '/api/diffusion/outpaint', payload, params);
  }

  private async intoPlaceholder(
    node: LayerNode<'IMAGE'>,
    transform: LayerNode['transform'],
    path: string,
    payload: Record<string, unknown>,
    params: GenerationParams,
  ): Promise<void> {
    const result = this.session.editor.execute(addImage, {
      parentId: node.parent ?? this.session.activeRoot(),
      transform,
      params,
      name: `${node.name} (inpaint)`.slice(0, 255),
      ...(node.clipTarget ? { clipTo: node.clipTarget } : {}),
    });
    if (!result.ok) return;
    this.session.ui.update({ selection: [result.value] });
    await this.runAndApply(path, payload, estimateMs(Number(payload.num_images ?? 1)), {
      op: 'variations',
      layerId: result.value,
      placeholder: true,
      params,
    });
  }

  /** Variations of the shown image: img2img at strength 0.5, 4 images, added to the layer. */
  async variations(layerId: string): Promise<void> {
    const payload = this.variationsPayload(layerId);
    if (!payload || this.busy(layerId)) return;
    await this.runAndApply('/api/diffusion/img2img', payload, estimateMs(VARIATIONS_NUM_IMAGES), {
      op: 'variations',
      layerId,
    });
  }

  variationsPayload(layerId: string): Record<string, unknown> | null {
    const node = this.imageLayer(layerId);
    const image = this.currentImage(layerId);
    if (!node || !image) return null;
    const d = this.settings.state.diffusion;
    const clamp = (v: number) => Math.min(4096, Math.max(256, Math.round(v)));
    return {
      model: node.data.params?.model ?? d.model,
      prompt: node.data.params?.prompt || fullPrompt(this.settings.state) || 'variation',
      negative_prompt: node.data.params?.negative_prompt ?? d.negativePrompt,
      width: clamp(node.originalSize.width),
      height: clamp(node.originalSize.height),
      seed: d.seed,
      num_images: VARIATIONS_NUM_IMAGES,
      strength: VARIATIONS_STRENGTH,
      image,
      loras: node.data.params?.loras ?? d.loras,
      lightning: d.lightning,
    };
  }

  /** Image-to-image with the settings' prompt and img2img strength. */
  async img2img(layerId: string): Promise<void> {
    const base = this.variationsPayload(layerId);
    const s = this.settings.state;
    if (!base || this.busy(layerId) || s.diffusion.prompt.trim() === '') return;
    const payload = {
      ...base,
      model: s.diffusion.model,
      prompt: fullPrompt(s),
      negative_prompt: s.diffusion.negativePrompt,
      num_images: s.diffusion.batchSize,
      strength: s.diffusion.img2imgStrength,
      loras: s.diffusion.loras,
    };
    await this.runAndApply('/api/diffusion/img2img', payload, estimateMs(s.diffusion.batchSize), {
      op: 'variations',
      layerId,
    });
  }

  refinePayload(layerId: string): Record<string, unknown> | null {
    const image = this.currentImage(layerId);
    if (!image) return null;
    const node = this.imageLayer(layerId);
    const s = this.settings.state;
    return {
      image,
      model: node?.data.params?.model ?? s.diffusion.model,
      prompt: node?.data.params?.prompt || fullPrompt(s),
      negative_prompt: s.diffusion.negativePrompt,
      seed: s.diffusion.seed,
    };
  }

  async refine(layerId: string): Promise<void> {
    const payload = this.refinePayload(layerId);
    if (!payload || this.busy(layerId)) return;
    await this.runAndApply('/api/diffusion/refine', payload, estimateMs(1), { op: 'variations', layerId });
  }

  async upscale(layerId: string): Promise<void> {
    const image = this.currentImage(layerId);
    if (!image || this.busy(layerId)) return;
    await this.runAndApply('/api/upscale', { image, scale: UPSCALE_FACTOR }, estimateMs(), { op: 'upscale', layerId });
  }

  async removeBackground(layerId: string): Promise<void> {
    const image = this.currentImage(layerId);
    if (!image || this.busy(layerId)) return;
    await this.runAndApply('/api/background', { image }, estimateMs(), { op: 'background', layerId });
  }

  editPayload(layerId: string, prompt: string, model: EditModelId): Record<string, unknown> | null {
    const variationId = this.currentImage(layerId);
    return variationId ? { prompt, variationId, model } : null;
  }

  async edit(layerId: string, prompt: string, model: EditModelId): Promise<void> {
    const payload = this.editPayload(layerId, prompt, model);
    if (!payload || prompt.trim() === '' || this.busy(layerId)) return;
    await this.runAndApply('/api/edit', payload, estimateMs(1), { op: 'variations', layerId });
  }

  // ---- image to video --------------------------------------------------------------------------------------

  /** The image-to-video request for the layer's shown image (end frame: another layer's shown image); null without. */
  videoPayload(layerId: string, choice: VideoChoice): Record<string, unknown> | null {
    const image = this.currentImage(layerId);
    const end = choice.endLayerId ? this.currentImage(choice.endLayerId) : undefined;
    return image ? videoRequest(image, end, choice, this.settings.state.diffusion.seed) : null;
  }

  /** Turns the shown image into a clip kept on the layer (POST /api/video). */
  async imageToVideo(layerId: string, choice: VideoChoice): Promise<void> {
    const payload = this.videoPayload(layerId, choice);
    if (!payload || this.busy(layerId)) return;
    const job: JobOp = {
      op: 'video',
      layerId,
      model: String(payload.model),
      duration: Number(payload.duration),
      imageId: String(payload.image),
    };
    await this.runAndApply('/api/video', payload, estimateMs() * 3, job);
  }

  // ---- faces -----------------------------------------------------------------------------------------------

  async detectFaces(layerId: string): Promise<void> {
    const variationId = this.currentImage(layerId);
    if (!variationId || this.busy(layerId)) return;
    this.session.ui.notify(i18n.t('generation.faces.detecting'));
    await this.runAndApply('/api/face_detection', { variationId }, estimateMs(), { op: 'faces', layerId, variationId });
  }

  private faceEditPayload(image: string, faceIndex: number, seed: number): Record<string, unknown> {
    const s = this.settings.state;
    return {
      image,
      model: s.diffusion.model,
      prompt: s.face.prompt,
      negative_prompt: s.face.negativePrompt,
      face_width: FACE_ENHANCE_CROP_SIZE,
      face_height: FACE_ENHANCE_CROP_SIZE,
      face_index: faceIndex,
      strength: Math.round(s.face.strength * 100),
      seed,
    };
  }

  /** Enhances one detected face (steps 15, strength 0.5, the face prompt, a 1024 crop) into a new variation. */
  async enhanceFace(layerId: string, faceIndex: number): Promise<void> {
    const node = this.imageLayer(layerId);
    const image = this.currentImage(layerId);
    if (!node || !image || this.busy(layerId)) return;
    const faces = node.data.faceStore[image] ?? [];
    if (faces.length === 0) {
      this.session.ui.notify(i18n.t('generation.faces.none'), 'error');
      return;
    }
    if (!faces[faceIndex]) {
      this.session.ui.notify(i18n.t('generation.faces.missing'), 'error');
      return;
    }
    const s = this.settings.state;
    const params = paramsOf(s.diffusion, s.face.prompt, 'face enhance', {
      negative_prompt: s.face.negativePrompt,
      steps: FACE_FIX_STEPS,
      strength: s.face.strength,
      numImages: 1,
      srcLayerId: layerId,
      referenceImages: [image],
    });
    await this.runAndApply(
      '/api/diffusion/face_edit',
      this.faceEditPayload(image, faceIndex, s.diffusion.seed),
      estimateMs(1),
      {
        op: 'variations',
        layerId,
        params,
      },
    );
  }

  // ---- pose ------------------------------------------------------------------------------------------------

  private async poseOf(layerId: string): Promise<void> {
    const image = this.currentImage(layerId);
    if (!image || this.busy(layerId)) return;
    await this.runAndApply('/api/pose', { image }, estimateMs(), { op: 'pose', layerId });
  }

  // ---- variations ← → --------------------------------------------------------------------------------------

  /**
   * Shows the next or previous variation: refused while processing; the image is fetched first, and a variation
   * that fails to load is dropped with the index clamped.
   */
  async switchVariation(layerId: string, step: 1 | -1): Promise<void> {
    const node = this.imageLayer(layerId);
    if (!node || node.data.variations.length < 2 || this.busy(layerId)) return;
    const index = cycledIndex(node.data.variationsIdx, node.data.variations.length, step);
    const variation = node.data.variations[index];
    if (!variation) return;
    const url = await loadImageById(variation.id);
    const now = this.imageLayer(layerId);
    if (!now || now.data.variations[index]?.id !== variation.id) return;
    if (!url) {
      this.session.editor.execute(dropVariation, { id: layerId, index });
      return;
    }
    this.session.editor.execute(changeVariation, { id: layerId, index });
  }

  /**
   * Whatever switched the shown variation (arrow keys, undo): the selected image's variation is fetched once,
   * and one that fails to load is dropped with the index clamped.
   */
  private checkShownVariation(): void {
    const id = this.session.ui.state.selection[0];
    const node = id ? this.imageLayer(id) : undefined;
    if (!node || node.data.variations.length < 2) return;
    const variation = node.data.variations[node.data.variationsIdx];
    if (!variation || this.checked.has(variation.id)) return;
    this.checked.add(variation.id);
    void loadImageById(variation.id).then((url) => {
      if (url || this.disposed) return;
      const now = this.imageLayer(node.id);
      const index = now?.data.variations.findIndex((v) => v.id === variation.id) ?? -1;
      if (now && index >= 0) this.session.editor.execute(dropVariation, { id: node.id, index });
    });
  }

  // ---- running jobs ----------------------------------------------------------------------------------------

  private streamOptions(
    layerId: string,
    estimate: number,
    onJobId: (id: string) => void,
  ): StreamOptions & { tracker: JobTracker } {
    const abort = new AbortController();
    this.aborts.get(layerId)?.abort();
    this.aborts.set(layerId, abort);
    const tracker = new JobTracker(
      {
        set: (state) => {
          if (!this.disposed) this.session.ui.setProcessing(layerId, state);
        },
        started: () => void this.account.refreshCredits().catch(() => undefined),
        now: () => Date.now(),
      },
      estimate,
    );
    let known: string | undefined;
    return {
      tracker,
      signal: abort.signal,
      ...(this.fetch ? { fetch: this.fetch } : {}),
      onEvent: (event) => {
        if (event.job_id && event.job_id !== known) {
          known = event.job_id;
          onJobId(event.job_id);
        }
        tracker.handle(event);
      },
    };
  }

  /**
   * Submits a job for a layer, shows its progress, applies the output or undoes what it added. The job carries a
   * tag naming the document and what to do with its output, so a reload (or another browser) can re-attach.
   */
  private async runAndApply(
    path: string,
    payload: Record<string, unknown>,
    estimate: number,
    job: JobOp,
  ): Promise<void> {
    let jobId: string | undefined;
    const workspaceId = this.session.workspaceId;
    const options = this.streamOptions(job.layerId, estimate, (id) => {
      jobId = id;
      this.jobsByLayer.set(job.layerId, id);
      this.remember(id);
    });
    options.tracker.begin();
    const version = this.session.editor.version;
    let keep = false;
    try {
      let output: unknown;
      try {
        output = await submitJob(path, { ...payload, client: jobTag(workspaceId, job, estimate) }, options);
      } catch (error) {
        // A dropped connection is not a failed job: follow it again by id, once.
        if (jobId && !this.leaving && connectionLost(error)) output = await attachJob(jobId, options);
        else throw error;
      }
      this.apply(job, output);
    } catch (error) {
      // Leaving the page (or the editor) or losing the connection keeps the job: the next visit re-attaches.
      keep = options.signal?.aborted === true || this.leaving || (jobId !== undefined && connectionLost(error));
      if (!keep) this.failed(job, error, version);
    } finally {
      if (jobId && !keep) this.forget(jobId);
      if (jobId && this.jobsByLayer.get(job.layerId) === jobId) this.jobsByLayer.delete(job.layerId);
      if (this.aborts.get(job.layerId)?.signal === options.signal) this.aborts.delete(job.layerId);
      if (!this.disposed) this.session.ui.setProcessing(job.layerId, null);
    }
  }

  private apply(job: JobOp, output: unknown): void {
    applyOutput(this.session, job, output);
  }

  private failed(job: JobOp, error: unknown, versionAfterAdd: number): void {
    const editor = this.session.editor;
    // A failed generation undoes the layer it added; a failed inpaint or outpaint removes its placeholder. The
    // undone step is forgotten: redo must not bring back a layer that will never get its image.
    if ((job.op === 'generate' && job.created) || (job.op === 'variations' && job.placeholder)) {
      if (editor.doc.layers[job.layerId]) {
        if (editor.version === versionAfterAdd && editor.undoName === 'Add image') editor.undoAndForget();
        else editor.execute(removeLayers, { ids: [job.layerId] });
      }
    }
    // A job that ended FAILED was refunded by the server: show the balance it gave back.
    if (error instanceof JobFailedError) void this.account.refreshCredits().catch(() => undefined);
    const text = compositeFailureText(job.layerId, error); // regional and brush-based: the server's words
    if (text) return this.session.ui.notify(text, 'error');
    reportFailure(this.session, job, error, (dialog, reason) =>
      this.setDialog(
        dialog === 'plan' ? (this.account.plan() === 'subscriber' ? 'credits' : 'subscription') : dialog,
        reason,
      ),
    );
  }

  /** Cancels the job running for a layer (refunded by the server); its stream then ends as cancelled. */
  async cancel(layerId: string): Promise<void> {
    const jobId = this.jobsByLayer.get(layerId);
    if (jobId) await cancelJob(jobId, this.fetch);
  }

  /** True when a job of this workspace runs for the layer (so it can be cancelled). */
  hasJob(layerId: string): boolean {
    return this.jobsByLayer.has(layerId);
  }

  // ---- surviving a reload ----------------------------------------------------------------------------------

  private remember(jobId: string): void {
    rememberJob({ jobId, workspaceId: this.session.workspaceId });
    // Save now so a reload (or another browser) finds the layer the job belongs to.
    void this.session.autosave.saveNow();
  }

  private forget(jobId: string): void {
    forgetJob(jobId);
  }

  /**
   * After a (re)load: follows every active job the server lists for this document (sent from any browser), and
   * lands jobs that ended while the page was away: remembered here, or for a placeholder still without a picture.
   */
  async reattach(): Promise<void> {
    const epoch = this.epoch;
    const http = createHttpClient(this.fetch ? { fetch: this.fetch } : {});
    const lists = await listJobs(http).catch((error: unknown) => {
      console.error('Could not list the running jobs', error);
      return null;
    });
    if (!lists || this.disposed || epoch !== this.epoch) return;
    const plan = planReattach(this.session.workspaceId, lists.active, storedJobs());
    plan.lookUp.push(...unlandedJobs(this.session.workspaceId, lists.recent, this.session.editor.doc, plan));
    await Promise.all([
      ...plan.follow.map(({ jobId, tag }) => this.follow(jobId, tag.job, tag.estimate)),
      ...plan.lookUp.map(async (jobId) => {
        let job: ServerJob;
        try {
          job = await http.request<ServerJob>('GET', `/api/jobs/${encodeURIComponent(jobId)}`);
        } catch (error) {
          // Gone (404: another account, or deleted): nothing to land. Otherwise try again on the next visit.
          if (isApiError(error) && error.status === 404) this.forget(jobId);
          else console.error('Could not look up a job', error);
          return;
        }
        if (this.disposed || epoch !== this.epoch) return;
        const tag = parseJobTag(job.client) ?? parseJobTag({ ...storedJobs().find((j) => j.jobId === jobId) });
        if (!tag || tag.workspaceId !== this.session.workspaceId) {
          this.forget(jobId);
          return;
        }
        if (job.status === 'IN_QUEUE' || job.status === 'IN_PROGRESS') {
          await this.follow(jobId, tag.job, tag.estimate); // it started again (a server restart) since the list
          return;
        }
        this.land(jobId, tag.job, job);
      }),
    ]);
  }

  /** Follows a job that is already running for a layer of this document, then applies or reports its end. */
  private async follow(jobId: string, job: JobOp, estimate: number): Promise<void> {
    if (this.jobsByLayer.get(job.layerId) === jobId) return; // already followed
    if (!this.session.editor.doc.layers[job.layerId]) {
      this.forget(jobId); // its layer was removed
      return;
    }
    rememberJob({ jobId, workspaceId: this.session.workspaceId });
    this.jobsByLayer.set(job.layerId, jobId);
    const options = this.streamOptions(job.layerId, estimate, () => undefined);
    options.tracker.begin();
    let keep = false;
    try {
      this.apply(job, await attachJob(jobId, options));
    } catch (error) {
      keep = options.signal?.aborted === true || this.leaving || connectionLost(error);
      // A job the server no longer knows (404) is dropped quietly; a real failure is reported.
      if (!keep && !(isApiError(error) && error.status === 404)) this.failed(job, error, -1);
    } finally {
      if (!keep) this.forget(jobId);
      if (this.jobsByLayer.get(job.layerId) === jobId) this.jobsByLayer.delete(job.layerId);
      if (this.aborts.get(job.layerId)?.signal === options.signal) this.aborts.delete(job.layerId);
      if (!this.disposed) this.session.ui.setProcessing(job.layerId, null);
    }
  }

  /** A job that ended while the page was away: its output lands, or its failure removes the placeholder. */
  private land(jobId: string, job: JobOp, result: ServerJob): void {
    this.forget(jobId);
    if (!this.session.editor.doc.layers[job.layerId]) return;
    try {
      if (result.status === 'COMPLETED') {
        this.apply(job, result.output);
        return;
      }
      throw new JobFailedError(result.error ?? 'The job failed', result.code, jobId);
    } catch (error) {
      this.failed(job, error, -1);
    }
  }

  /** (Re)starts the controller with its editor: registers it and re-attaches to jobs left running. */
  start(): void {
    this.disposed = false;
    this.epoch++;
    this.leaving = false;
    window.addEventListener('pagehide', this.onPageHide);
    this.unwatch?.();
    this.unwatch = this.session.editor.subscribe(() => this.checkShownVariation());
    registry.set(this.session, this);
    this.session.generation = this;
    void this.reattach();
  }

  /** Stops following the streams (the jobs themselves go on and are re-attached on the next visit). */
  dispose(): void {
    this.disposed = true;
    window.removeEventListener('pagehide', this.onPageHide);
    this.unwatch?.();
    this.unwatch = null;
    for (const abort of this.aborts.values()) abort.abort();
    this.aborts.clear();
    registry.delete(this.session);
  }
}
