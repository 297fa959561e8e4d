// Why a job failed, in the user's language: the reason for its code (packages/domain/src/generation/failures.ts),
// the credits given back, a moderation refusal's rules and words, and the words moderation stripped.
import { isJobFailureCode } from '@koma/domain';
import { isApiError } from '../api/ApiError.ts';
import { i18n } from '../i18n/index.ts';
import { JobFailedError } from './stream.ts';
import './i18n-jobs.ts';

const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);

/** The reason of a failure code, with the server's words where the code alone says too little. */
export function failureReason(code: string | undefined, detail: string): string {
  const known = code === 'interrupted' || isJobFailureCode(code) ? code : 'unknown';
  return t(`generation.failures.codes.${known}`, { detail: detail.replace(/\.$/, '') });
}

/** "Failed: the engine could not be reached. 6 credits were refunded." */
export function failureMessage(code: string | undefined, detail: string, refunded: number | undefined): string {
  const reason =
    code === 'cancelled'
      ? t('generation.failures.cancelledJob')
      : t('generation.failures.failed', { reason: failureReason(code, detail) });
  if (!refunded || refunded <= 0) return reason;
  return t('generation.failures.withRefund', {
    reason,
    refund: t('generation.failures.refunded', { count: refunded }),
  });
}

interface RefusalReason {
  code?: unknown;
  terms?: unknown;
}

function words(terms: unknown): string {
  return Array.isArray(terms) ? terms.filter((w): w is string => typeof w === 'string').join(', ') : '';
}

/** A moderation refusal (`prompt_rejected`): each rule in words, with the words of the prompt that broke it. */
export function refusalMessage(body: unknown): string {
  const reasons = (body as { reasons?: unknown } | null)?.reasons;
  const list = Array.isArray(reasons) ? (reasons as RefusalReason[]) : [];
  const rules = list.map((r) => {
    const code = typeof r.code === 'string' ? r.code : 'unknown';
    const rule = i18n.exists(`generation.moderation.rules.${code}`)
      ? t(`generation.moderation.rules.${code}`)
      : t('generation.moderation.rules.unknown');
    const w = words(r.terms);
    return w === '' ? rule : t('generation.moderation.reason', { rule, words: w });
  });
  const unique = [...new Set(rules)];
  return t('generation.moderation.refused', {
    reasons: unique.length > 0 ? unique.join('; ') : t('generation.moderation.rules.unknown'),
  });
}

/** The words moderation took out of an allowed prompt, or null when none were. */
export function strippedMessage(stripped: unknown): string | null {
  if (!Array.isArray(stripped)) return null;
  const all = stripped.flatMap((s) => {
    const w = (s as { terms?: unknown } | null)?.terms;
    return Array.isArray(w) ? w.filter((x): x is string => typeof x === 'string') : [];
  });
  const unique = [...new Set(all)];
  return unique.length === 0 ? null : t('generation.moderation.stripped', { words: unique.join(', ') });
}

/** Why a job failed, for the queue panel: read when shown, so it follows a change of language. */
export function failureText(error: unknown): () => string {
  if (error instanceof JobFailedError) return () => failureMessage(error.code, error.detail, error.refunded);
  if (isApiError(error)) {
    return () =>
      error.code === 'prompt_rejected' ? refusalMessage(error.body) : failureMessage(error.code, error.message, 0);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return () => failureMessage(undefined, detail, 0);
}
