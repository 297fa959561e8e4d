import { useState } from 'react';
import type { LayerNode } from '@koma/editor';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { useController, useSettings } from './hooks.ts';
import { inpaint, inpaintPayload, inpaintPromptOf } from './operations/inpaint.ts';
import './i18n.ts';
import './i18n-jobs.ts';

/** The inpaint menu: the prompt for the painted area (prefilled from the layer), its price, and Inpaint. */
export function InpaintForm({
  session,
  node,
  busy,
  onSent,
}: {
  session: EditorSession;
  node: LayerNode<'IMAGE'>;
  busy: boolean;
  onSent: () => void;
}) {
  const t = useT();
  const controller = useController(session);
  useSettings(controller);
  const [prompt, setPrompt] = useState(() => inpaintPromptOf(controller, node.id));
  const payload = inpaintPayload(controller, node.id, prompt);
  const credits = payload ? controller.quote('inpaint', payload) : null;
  const label = t('generation.request.inpaintRun');
  return (
    <div className="gen-outpaint-form" data-testid="inpaint-form">
      <label className="field">
        <span>{t('generation.request.inpaintPrompt')}</span>
        <textarea rows={2} value={prompt} data-testid="inpaint-prompt" onChange={(e) => setPrompt(e.target.value)} />
      </label>
      <p className="muted small">{t('generation.request.inpaintPromptHint')}</p>
      <button
        type="button"
        className="button button--small button--primary"
        disabled={busy || payload === null || credits === null}
        data-testid="inpaint-run"
        onClick={() => {
          onSent();
          void inpaint(controller, node.id, prompt);
        }}
      >
        {credits === null ? label : t('generation.ops.withCost', { label, credits })}
      </button>
    </div>
  );
}
