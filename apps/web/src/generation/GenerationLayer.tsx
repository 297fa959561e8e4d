import { useEffect, useId, useRef, useState } from 'react';
import { Dialog } from '../components/Dialog.tsx';
import { useDoc, useUi } from '../editor/hooks.ts';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { navigate } from '../router/history.ts';
import { paths } from '../router/routes.ts';
import { creditTotal, useSession } from '../session/context.ts';
import { GenerationController } from './controller.ts';
import { useDialog } from './hooks.ts';
import './i18n.ts';
import './generation.css';

/**
 * Creates the session's generation controller (before the tabs render) and starts it with the editor; the jobs
 * it follows are re-attached on the next visit when the editor closes mid-job.
 */
export function useGenerationController(session: EditorSession): GenerationController {
  const account = useSession();
  const accountRef = useRef(account);
  useEffect(() => {
    accountRef.current = account;
  }, [account]);
  const [controller] = useState(() => {
    const c = new GenerationController(session, {
      plan: () => accountRef.current.user?.plan ?? null,
      refreshCredits: () => accountRef.current.refreshCredits(),
    });
    session.generation = c;
    return c;
  });
  useEffect(() => {
    controller.start();
    return () => controller.dispose();
  }, [controller]);
  return controller;
}

/** Live processing over the canvas: queue position, progress with the time left, and the preview in place. */
export function ProcessingOverlay({ session }: { session: EditorSession }) {
  const t = useT();
  const processing = useUi(session, (s) => s.processing);
  const doc = useDoc(session);
  const [now, setNow] = useState(() => Date.now());
  const active = Object.keys(processing).length > 0;
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => setNow(Date.now()), 500);
    return () => window.clearInterval(timer);
  }, [active]);
  if (!active) return null;
  const view = session.view();
  return (
    <div className="gen-overlay" data-testid="processing-overlay">
      {Object.entries(processing).map(([id, state]) => {
        const node = doc.layers[id];
        if (!node) return null;
        const t0 = node.transform;
        const style = {
          left: t0.x * view.zoom + view.x,
          top: t0.y * view.zoom + view.y,
          width: t0.size.width * view.zoom,
          height: t0.size.height * view.zoom,
        };
        const percent = Math.round((state.progress ?? 0) * 100);
        const left =
          state.startedAt !== undefined && state.estimateMs !== undefined
            ? Math.max(0, Math.ceil((state.startedAt + state.estimateMs - now) / 1000))
            : null;
        const label =
          state.status === 'IN_QUEUE'
            ? state.queuePosition !== undefined
              ? t('generation.progress.queuedAt', { n: state.queuePosition + 1 })
              : t('generation.progress.queued')
            : t('generation.progress.running', { percent });
        return (
          <div
            key={id}
            className="gen-overlay__item"
            style={style}
            data-testid="processing"
            data-layer-id={id}
            data-status={state.status}
            data-progress={state.progress ?? 0}
            data-queue-position={state.queuePosition ?? ''}
          >
            {state.previewUrl && (
              <img className="gen-overlay__preview" src={state.previewUrl} alt="" data-testid="processing-preview" />
            )}
            <div className="gen-overlay__label" role="status">
              {label}
              {state.status === 'IN_PROGRESS' && left !== null && left > 0 && (
                <>
                  <br />
                  <span className="small">{t('generation.progress.left', { s: left })}</span>
                </>
              )}
            </div>
          </div>
        );
      })}
    </div>
  );
}

/** The credits and subscription dialogs that not_enough_credits and SUBSCRIPTION_REQUIRED open. */
export function PlanDialogs({ session, controller }: { session: EditorSession; controller: GenerationController }) {
  const t = useT();
  const id = useId();
  const account = useSession();
  const dialog = useDialog(controller);
  if (!dialog) return null;
  const close = () => {
    controller.setDialog(null);
    navigate(paths.editor(session.workspaceId), { replace: true });
  };
  const credits = dialog === 'credits';
  return (
    <Dialog
      title={t(credits ? 'generation.dialogs.creditsTitle' : 'generation.dialogs.subscriptionTitle')}
      labelledBy={`${id}-title`}
      onCancel={close}
    >
      <div data-testid={credits ? 'credits-dialog' : 'subscription-dialog'}>
        <p className="dialog__text">
          {credits
            ? t('generation.dialogs.creditsBody', { balance: creditTotal(account) ?? 0 })
            : t(
                controller.dialogReason === 'subscription_required'
                  ? 'generation.dialogs.subscriptionModelBody'
                  : 'generation.dialogs.subscriptionBody',
              )}
        </p>
        <div className="dialog__actions">
          <button type="button" className="button button--primary" onClick={close} autoFocus>
            {t('generation.dialogs.back')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
