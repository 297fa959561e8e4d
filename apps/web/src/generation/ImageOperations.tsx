import { useState } from 'react';
import { EDIT_MODELS, type EditModelId } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import { useUi } from '../editor/hooks.ts';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { useController, useSettings } from './hooks.ts';
import type { GenerationController } from './controller.ts';
import { edit, editPayload } from './operations/edit.ts';
import { enhanceFace, enhanceQuote } from './operations/faces.ts';
import { outpaintQuote } from './operations/outpaint.ts';
import { generateFromPoseOrSketch } from './operations/txt2img.ts';
import { LAYER_BUTTONS } from './operations/registry.ts';
import { switchVariation } from './variation-switch.ts';
import { InpaintForm } from './InpaintForm.tsx';
import { OutpaintForm } from './OutpaintForm.tsx';
import { RecipeView } from './RecipeView.tsx';
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
          onClick={() => generateFromPoseOrSketch(controller)}
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
  const [form, setForm] = useState<string | null>(null);
  const variation = node.data.variations[node.data.variationsIdx];
  const busyRow = busy && (
    <div className="button-row">
      <span className="muted small">{t('generation.ops.busy')}</span>
      {controller.jobs.hasJob(node.id) && (
        <button
          type="button"
          className="button button--small"
          data-testid="op-cancel"
          onClick={() => void controller.jobs.cancel(node.id)}
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
  const label = (key: string, credits: number | null) =>
    credits === null ? t(key) : t('generation.ops.withCost', { label: t(key), credits });
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
            onClick={() => void switchVariation(session, node.id, -1)}
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
            onClick={() => void switchVariation(session, node.id, 1)}
          >
            →
          </button>
        </div>
      )}
      {busyRow}
      <RecipeView session={session} node={node} />
      <div className="button-row">
        {LAYER_BUTTONS.filter((b) => b.shown?.(node) ?? true).map((b) => {
          const ready = b.ready?.(controller, node) ?? true;
          const toggles = 'form' in b.action ? b.action.form : null;
          return (
            <button
              key={b.testId}
              type="button"
              className="button button--small"
              disabled={busy || !ready}
              title={!ready && b.hint ? t(b.hint) : undefined}
              aria-expanded={toggles ? form === toggles : undefined}
              data-testid={b.testId}
              onClick={() => {
                if ('form' in b.action) setForm((open) => (open === toggles ? null : toggles));
                else b.action.start(controller, node);
              }}
            >
              {label(b.label, b.credits?.(controller, node) ?? null)}
            </button>
          );
        })}
      </div>
      {form === 'outpaint' && (
        <OutpaintForm
          session={session}
          node={node}
          busy={busy}
          credits={outpaintQuote(controller, node.id)}
          onSent={() => setForm(null)}
        />
      )}
      {form === 'video' && <VideoForm session={session} node={node} busy={busy} onSent={() => setForm(null)} />}
      {form === 'inpaint' && <InpaintForm session={session} node={node} busy={busy} onSent={() => setForm(null)} />}
      <FaceButtons controller={controller} node={node} variationId={variation.id} busy={busy} />
      <EditSection controller={controller} node={node} busy={busy} />
      <VideoClips session={session} node={node} />
    </div>
  );
}

/** One Enhance button per face found in the shown variation (numbered as their outlines on the canvas). */
function FaceButtons(props: {
  controller: GenerationController;
  node: LayerNode<'IMAGE'>;
  variationId: string;
  busy: boolean;
}) {
  const t = useT();
  const { controller, node, variationId, busy } = props;
  const found = node.data.faceStore[variationId];
  if (found === undefined) return null;
  if (found.length === 0) {
    return (
      <p className="muted small" data-testid="faces-none">
        {t('generation.facesFound.none')}
      </p>
    );
  }
  return (
    <div className="button-row" data-testid="faces">
      {found.map((_, i) => (
        <button
          key={i}
          type="button"
          className="button button--small"
          disabled={busy}
          data-testid={`op-enhance-face-${i}`}
          onClick={() => void enhanceFace(controller, node.id, i)}
        >
          {t('generation.ops.withCost', {
            label: t('generation.ops.enhanceFace', { n: i + 1 }),
            credits: enhanceQuote(controller, node.id) ?? '?',
          })}
        </button>
      ))}
    </div>
  );
}

/** Edit by instruction: the instruction, the edit model (with its price) and the button. */
function EditSection({
  controller,
  node,
  busy,
}: {
  controller: GenerationController;
  node: LayerNode<'IMAGE'>;
  busy: boolean;
}) {
  const t = useT();
  const [instruction, setInstruction] = useState('');
  const [editModel, setEditModel] = useState<EditModelId>(controller.settings.state.editModel);
  const payload = editPayload(controller, node.id, instruction || 'x', editModel);
  const credits = controller.quote('edit', payload);
  const label = t('generation.ops.edit');
  return (
    <>
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
          onClick={() => void edit(controller, node.id, instruction, editModel)}
        >
          {credits === null ? label : t('generation.ops.withCost', { label, credits })}
        </button>
      </div>
    </>
  );
}
