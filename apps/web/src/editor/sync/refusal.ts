import type { ApiError } from '../../api/index.ts';
import { i18n } from '../../i18n/index.ts';
import './i18n.ts';

const KNOWN = new Set([400, 401, 403, 404, 413]);

/** Why the server refused a save, in the user's language; the server's own message is the detail. */
export function refusalReason(error: ApiError): string {
  const key = KNOWN.has(error.status) ? String(error.status) : 'other';
  const detail = error.message.replace(/\.$/, '');
  return i18n.t(`sync.refused.${key}`, { detail, status: error.status });
}
