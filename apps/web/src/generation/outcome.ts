// What a failed job tells the user: the same for a job followed live and one that ended while the page was away.
import { SUBSCRIPTION_REQUIRED } from '@koma/domain';
import { isApiError } from '../api/ApiError.ts';
import type { EditorSession } from '../editor/session.ts';
import { i18n } from '../i18n/index.ts';
import type { JobOp } from './jobs.ts';
import { failureMessage, refusalMessage } from './failure-text.ts';
import { JobFailedError } from './stream.ts';

const FACE_FAILURES: Readonly<Record<string, string>> = {
  'No faces detected': 'generation.faces.none',
  'Face not detected': 'generation.faces.missing',
};

/** Opens the credits or subscription dialog: 'plan' is the credits or the subscription dialog by plan. */
export type PlanDialogOpener = (
  dialog: 'plan' | 'subscription',
  reason: 'subscription_required' | 'not_enough_credits',
) => void;

/**
 * Tells the user why a job failed, in their language: credits and subscription errors open their dialog, a
 * moderation refusal names its rules and words, the face rules keep their own words, anything else its reason
 * and the credits given back. A cancel says it was cancelled and refunded.
 */
export function reportFailure(session: EditorSession, job: JobOp, error: unknown, openDialog: PlanDialogOpener): void {
  if (job.op === 'faces' && !(error instanceof JobFailedError && error.code === 'cancelled')) {
    session.ui.notify(i18n.t('generation.faces.failed'), 'error');
    return;
  }
  if (isApiError(error)) {
    if (error.code === 'not_enough_credits') {
      openDialog('plan', 'not_enough_credits');
      return;
    }
    if (error.code === SUBSCRIPTION_REQUIRED) {
      openDialog('subscription', 'subscription_required');
      return;
    }
    if (error.code === 'prompt_rejected') {
      session.ui.notify(refusalMessage(error.body), 'error');
      return;
    }
    console.warn(`Request refused: ${error.code}`, error.message);
    session.ui.notify(failureMessage(error.code, error.message, 0), 'error');
    return;
  }
  if (error instanceof JobFailedError) {
    console.warn('Job failed:', error.code, error.detail);
    // The face rules of the server keep their own words (editor.md §5).
    const face = FACE_FAILURES[error.detail];
    if (error.code === 'validation' && face) {
      session.ui.notify(i18n.t(face), 'error');
      return;
    }
    session.ui.notify(
      failureMessage(error.code, error.detail, error.refunded),
      error.code === 'cancelled' ? 'info' : 'error',
    );
    return;
  }
  console.error('Image operation failed', error);
  session.ui.notify(i18n.t('common.failed_to_perform_image_operation'), 'error');
}
