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
import { secondsLeft } from './processing.ts';
import { processingBox } from './processing-box.ts';
import { BuiltinBadges, SelectedFaces } from './CanvasOverlays.tsx';
import { ResultsTray } from './ResultsTray.tsx';
import './i18n.ts';
import './i18n-jobs.ts';
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

/**
 * What generation shows over the canvas: live processing on each layer, the preview-engine badges, the outlines
 * of the selected image's faces and the results tray. The queue sits in the editor's bottom dock with the toasts
 * (EditorLayout), so neither can cover the other.
 */
export function ProcessingOverlay({ session }: { session: EditorSession }) {
  return (
    <>
      <ProcessingBoxes session={session} />
      <BuiltinBadges session={session} />
      <SelectedFaces session={session} />
      <ResultsTray session={session} />
    </>
  );
}

/** Live processing over the canvas: queue position, progress with the time left, and the preview in place. */
function ProcessingBoxes({ session }: { session: EditorSession }) {
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
        const box = processingBox(node, view);
        const style = {
          left: box.left,
          top: box.top,
          width: box.width,
          height: box.height,
          ...(box.rotation ? { transform: `rotate(${box.rotation}deg)` } : {}),
        };
        const mirror = box.flipX || box.flipY ? `scale(${box.flipX ? -1 : 1}, ${box.flipY ? -1 : 1})` : undefined;
        const percent = Math.round((state.progress ?? 0) * 100);
        const left = secondsLeft(state, now);
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
              <img
                className="gen-overlay__preview"
                src={state.previewUrl}
                alt=""
                style={mirror ? { transform: mirror } : undefined}
                data-testid="processing-preview"
              />
            )}
            {/* Upright on screen whatever the layer's turn: it is read, not part of the picture. */}
            <div
              className="gen-overlay__label"
              role="status"
              style={box.rotation ? { transform: `translate(-50%, -50%) rotate(${-box.rotation}deg)` } : undefined}
            >
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
  const cost = controller.dialogCost;
  const link = credits ? controller.config.value?.links.credits : controller.config.value?.links.subscription;
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
        {cost !== null && (
          <p className="dialog__text" data-testid="plan-cost">
            {t('generation.plans.cost', { credits: cost, balance: creditTotal(account) ?? 0 })}
          </p>
        )}
        {!link && (
          <p className="dialog__text" data-testid="plan-ask-admin">
            {t('generation.plans.askAdmin')}
          </p>
        )}
        <div className="dialog__actions">
          {link && (
            <a className="button button--primary" href={link} target="_blank" rel="noreferrer" data-testid="plan-link">
              {t(credits ? 'generation.plans.buyCredits' : 'generation.plans.subscribe')}
            </a>
          )}
          <button type="button" className={`button${link ? '' : ' button--primary'}`} onClick={close} autoFocus>
            {t('generation.dialogs.back')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
