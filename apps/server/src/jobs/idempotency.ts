import { createHash } from 'node:crypto';
import { HttpError } from '../http/errors.ts';

/** How long a key stands for its first request (the window Stripe and the IETF draft use). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Visible ASCII, as the IETF httpapi Idempotency-Key draft's examples (UUIDs) and every common client send. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's `Idempotency-Key` header, or undefined when absent; a 400 naming the header when it is not 1–255
 * visible ASCII characters or is sent twice.
 */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const raw = headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !KEY_PATTERN.test(raw)) {
    throw new HttpError(
      400,
      'invalid_request',
      'Idempotency-Key: must be one value of 1 to 255 visible ASCII characters (a UUID, for example).',
    );
  }
  return raw;
}

/** JSON with object keys sorted at every level, so that the same request hashes the same however it was written. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests "the same" for a key: the endpoint's job kind and the body as sent. */
export function requestHash(kind: string, body: unknown): string {
  return createHash('sha256').update(kind).update('\n').update(canonical(body)).digest('hex');
}

export function keyReused(key: string): HttpError {
  return new HttpError(
    422,
    'idempotency_key_reused',
    `Idempotency-Key "${key}" was already used for a different request; send a new key for a new request.`,
  );
}
