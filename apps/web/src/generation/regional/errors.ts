// generation.md §8: "Regional and brush-based generation errors: response text shown as a toast".
import { SUBSCRIPTION_REQUIRED } from '@koma/domain';
import { isApiError } from '../../api/ApiError.ts';
import { refusalMessage } from '../failure-text.ts';
import { JobFailedError } from '../stream.ts';

/**
 * The server's own words for a failed regional or brush-based job, or null where the usual handling applies: the
 * credits and subscription dialogs, a cancel (nothing to say), or an error that carries no text.
 */
export function responseText(error: unknown): string | null {
  if (isApiError(error)) {
    if (error.code === 'not_enough_credits' || error.code === SUBSCRIPTION_REQUIRED) return null;
    // A refusal by moderation names its rules and words in the user's language, as every other refusal does.
    if (error.code === 'prompt_rejected') return refusalMessage(error.body);
    return error.message || null;
  }
  if (error instanceof JobFailedError) return error.code === 'cancelled' ? null : error.detail || null;
  return error instanceof Error && error.message ? error.message : null;
}

/** The layers regional and brush-based jobs are running into (layer ids are unique across workspaces). */
const compositeLayers = new Set<string>();

/** Marks a layer's job as regional or brush-based while `run` lasts. */
export async function asCompositeJob(layerId: string, run: () => Promise<void>): Promise<void> {
  compositeLayers.add(layerId);
  try {
    await run();
  } finally {
    compositeLayers.delete(layerId);
  }
}

/** The toast text for a failed job: the response text for regional and brush-based jobs, else null. */
export function compositeFailureText(layerId: string, error: unknown): string | null {
  return compositeLayers.has(layerId) ? responseText(error) : null;
}
