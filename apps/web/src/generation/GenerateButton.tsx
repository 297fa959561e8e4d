import type { ReactNode } from 'react';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { useController, useSettings } from './hooks.ts';
import { useUi } from '../editor/hooks.ts';
import { engineOfPayload } from './requests.ts';
import { generateFromSelection, generateQuote, generateRequest } from './operations/txt2img.ts';
import './i18n-jobs.ts';
import './i18n.ts';
import './generation.css';

/** The Generate button with the request's price on it (quoteRequest), and what `g` does from a click. */
export function GenerateButton({ session }: { session: EditorSession }): ReactNode {
  const t = useT();
  const controller = useController(session);
  useSettings(controller); // re-render on every change: the price follows the settings
  useUi(session, (s) => s.selection); // and the selection: a selected panel sets the picture's shape
  const { payload, panel } = generateRequest(controller);
  const credits = generateQuote(controller);
  const empty = controller.settings.state.diffusion.prompt.trim() === '';
  const free = credits === 0 && engineOfPayload(controller, 'txt2img', payload) === 'builtin';
  return (
    <div className="gen-generate">
      <button
        type="button"
        className="button button--primary gen-generate__button"
        data-testid="generate-button"
        disabled={empty || credits === null}
        title={empty ? t('generation.prompt.emptyPrompt') : t('generation.prompt.generateHint')}
        onClick={() => generateFromSelection(controller)}
      >
        {t('generation.prompt.generate')}
        {credits !== null && (
          <span className="gen-cost" data-testid="generate-cost" data-credits={credits}>
            {free ? t('generation.builtin.free') : t('generation.prompt.cost', { credits })}
          </span>
        )}
      </button>
      {panel && (
        <p className="small" data-testid="generate-size" data-width={payload.width} data-height={payload.height}>
          {t('generation.request.panelSize', { width: payload.width, height: payload.height })}
        </p>
      )}
      <p className="muted small">{t('generation.prompt.generateHint')}</p>
    </div>
  );
}
