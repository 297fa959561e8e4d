import { isApiError } from '../api/ApiError.ts';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A short, translated explanation of a failed call for a notice; the server's own message when it sent one. */
export function errorText(error: unknown, t: Translate): string {
  if (isApiError(error)) {
    if (error.status === 0) return t('common.network_error');
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
