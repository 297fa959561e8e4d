import { useState } from 'react';
import { EDIT_MODELS, costOf, findModelById, type EditModelId } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import { useUi } from '../editor/hooks.ts';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { useController, useSettings } from './hooks.ts';
import { maskBounds } from './mask.ts';
import { OutpaintForm } from './OutpaintForm.tsx';
import { VideoClips, VideoForm } from './VideoPanel.tsx';
import './i18n.ts';
import './generation.css';

/** The image operations of the layer tab for IMAGE, POSE and SKETCH layers, each with its price. */
export function ImageOperations({ session, node }: { session: EditorSession; node: LayerNode }) {
  const t = useT();
  const controller = useController(session);
  useSettings(controller);
  // The state itself, not a boolean: each change re-renders, so the Cancel button appears once the job has an id.
  const busy = !!useUi(session, (s) => s.processing[node.id]);
  if (node.type === 'POSE' || node.type === 'SKETCH') {
    const empty = controller.settings.state.diffusion.prompt.trim() === '';
    return (
      <div className="gen-ops" data-testid="image-operations">
        <button
          type="button"
          className="button"
          disabled={empty}
          data-testid="generate-from-control"
          onClick={() => controller.generateFromPoseOrSketch()}
        >
          {t(node.type === 'POSE' ? 'generation.ops.fromPose' : 'generation.ops.fromSketch')}
        </button>
      </div>
    );
  }
  if (node.type !== 'IMAGE') return null;
  // Keyed by layer: an open form and its choices belong to the layer they were opened on.
  return <ImageLayerOperations key={node.id} session={session} node={node} busy={busy} />;
}

function ImageLayerOperations({
  session,
  node,
  busy,
}: {
  session: EditorSession;
  node: LayerNode<'IMAGE'>;
  busy: boolean;
}) {
  const t = useT();
  const controller = useController(session);
  const settings = useSettings(controller);
  const [instruction, setInstruction] = useState('');
  const [editModel, setEditModel] = useState<EditModelId>(settings.editModel);
  const [form, setForm] = useState<'outpaint' | 'video' | null>(null);
  const toggle = (which: 'outpaint' | 'video') => setForm((open) => (open === which ? null : which));
  const variation = node.data.variations[node.data.variationsIdx];
  const busyRow = busy && (
    <div className="button-row">
      <span className="muted small">{t('generation.ops.busy')}</span>
      {controller.hasJob(node.id) && (
        <button
          type="button"
          className="button button--small"
          data-testid="op-cancel"
          onClick={() => void controller.cancel(node.id)}
        >
          {t('common.cancel')}
        </button>
      )}
    </div>
  );
  // An image layer with no data offers nothing but cancelling the job that will fill it.
  if (!variation) {
    return busyRow ? (
      <div className="gen-ops" data-testid="image-operations" aria-busy={busy}>
        {busyRow}
      </div>
    ) : null;
  }
  const faces = node.data.faceStore[variation.id] ?? [];
  const hasMask = maskBounds(node.data.maskParams.mask) !== null;
  const label = (key: string, credits: number | null) =>
    credits === null ? t(key) : t('generation.ops.withCost', { label: t(key), credits });
  const modelType = findModelById(settings.diffusion.model)?.modelType ?? 'sdxl';
  const safeCost = (f: () => number): number | null => {
    try {
      return f();
    } catch {
      return null;
    }
  };
  const inpaintQuote = hasMask ? controller.quoteOf('inpaint', controller.inpaintPayload(node.id)) : null;
  const editPayload = controller.editPayload(node.id, instruction || 'x', editModel);
  const outpaintCost = safeCost(() => costOf({ kind: 'outpaint', modelType, numImages: 1 }));
  return (
    <div className="gen-ops" data-testid="image-operations" aria-busy={busy}>
      {node.data.variations.length > 1 && (
        <div className="button-row">
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            aria-label={t('generation.ops.previous')}
            data-testid="variation-prev"
            onClick={() => void controller.switchVariation(node.id, -1)}
          >
            ←
          </button>
          <span className="small" data-testid="variation-index">
            {node.data.variationsIdx + 1} / {node.data.variations.length}
          </span>
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            aria-label={t('generation.ops.next')}
            data-testid="variation-next"
            onClick={() => void controller.switchVariation(node.id, 1)}
          >
            →
          </button>
        </div>
      )}
      {busyRow}
      <div className="button-row">
        {node.data.params && (
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            data-testid="op-regenerate"
            onClick={() => void controller.regenerate(node.id)}
          >
            {t('generation.ops.regenerate')}
          </button>
        )}
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          data-testid="op-variations"
          onClick={() => void controller.variations(node.id)}
        >
          {label('generation.ops.variations', controller.quoteOf('img2img', controller.variationsPayload(node.id)))}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy || settings.diffusion.prompt.trim() === ''}
          data-testid="op-img2img"
          onClick={() => void controller.img2img(node.id)}
        >
          {t('generation.ops.img2img')}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          data-testid="op-refine"
          onClick={() => void controller.refine(node.id)}
        >
          {label('generation.ops.refine', controller.quoteOf('refine', controller.refinePayload(node.id)))}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy || !hasMask}
          title={hasMask ? undefined : t('generation.ops.inpaintHint')}
          data-testid="op-inpaint"
          onClick={() => void controller.inpaint(node.id)}
        >
          {label('generation.ops.inpaint', inpaintQuote)}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          aria-expanded={form === 'outpaint'}
          data-testid="op-outpaint"
          onClick={() => toggle('outpaint')}
        >
          {label('generation.ops.outpaint', outpaintCost)}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          data-testid="op-upscale"
          onClick={() => void controller.upscale(node.id)}
        >
          {label('generation.ops.upscale', controller.quoteOf('upscale', { image: variation.id }))}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          data-testid="op-background"
          onClick={() => void controller.removeBackground(node.id)}
        >
          {label('generation.ops.background', controller.quoteOf('background', { image: variation.id }))}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          data-testid="op-detect-faces"
          onClick={() => void controller.detectFaces(node.id)}
        >
          {t('generation.ops.detectFaces')}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          data-testid="op-estimate-pose"
          onClick={() => controller.estimatePose()}
        >
          {t('generation.ops.estimatePose')}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          aria-expanded={form === 'video'}
          data-testid="op-video"
          onClick={() => toggle('video')}
        >
          {t('generation.ops.toVideo')}
        </button>
      </div>
      {form === 'outpaint' && (
        <OutpaintForm session={session} node={node} busy={busy} credits={outpaintCost} onSent={() => setForm(null)} />
      )}
      {form === 'video' && <VideoForm session={session} node={node} busy={busy} onSent={() => setForm(null)} />}
      {faces.length === 0 && node.data.faceStore[variation.id] !== undefined && (
        <div className="button-row" data-testid="faces">
          {/* Detection ran and found nothing: enhancing says so (editor.md §5). */}
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            data-testid="op-enhance-face-0"
            onClick={() => void controller.enhanceFace(node.id, 0)}
          >
            {t('generation.ops.enhanceFace', { n: 1 })}
          </button>
        </div>
      )}
      {faces.length > 0 && (
        <div className="button-row" data-testid="faces">
          {faces.map((_, i) => (
            <button
              key={i}
              type="button"
              className="button button--small"
              disabled={busy}
              data-testid={`op-enhance-face-${i}`}
              onClick={() => void controller.enhanceFace(node.id, i)}
            >
              {t('generation.ops.withCost', {
                label: t('generation.ops.enhanceFace', { n: i + 1 }),
                credits: safeCost(() => costOf({ kind: 'face_enhance', modelType })) ?? '?',
              })}
            </button>
          ))}
        </div>
      )}
      <label className="field">
        <span>{t('generation.ops.editPrompt')}</span>
        <input value={instruction} data-testid="edit-instruction" onChange={(e) => setInstruction(e.target.value)} />
      </label>
      <div className="button-row">
        <select
          aria-label={t('generation.ops.editModel')}
          value={editModel}
          data-testid="edit-model"
          onChange={(e) => {
            const model = e.target.value as EditModelId;
            setEditModel(model);
            controller.settings.update({ editModel: model });
          }}
        >
          {EDIT_MODELS.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name} · {m.credits} cr
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button--small"
          disabled={busy || instruction.trim() === ''}
          data-testid="op-edit"
          onClick={() => void controller.edit(node.id, instruction, editModel)}
        >
          {label('generation.ops.edit', controller.quoteOf('edit', editPayload))}
        </button>
      </div>
      <VideoClips session={session} node={node} />
    </div>
  );
}
