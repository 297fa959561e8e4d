import { EngineError, cancelledError } from './errors.ts';

/** Errors of a connection that was never made (undici wraps them as the cause of "fetch failed"). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * fetch with a per-request time limit that maps failures onto EngineError codes: the job's own abort becomes
 * `cancelled`, our time limit `timeout`, a refused connection or unknown host `engine_unreachable`, a connection that broke `connection_lost`.
 */
export async function fetchOrFail(
  service: string,
  url: string,
  init: RequestInit,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Response> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    return await fetch(url, { ...init, signal: AbortSignal.any([signal, timeout]) });
  } catch (err) {
    if (signal.aborted) throw cancelledError();
    if (timeout.aborted) throw new EngineError('timeout', `${service} did not answer within ${timeoutMs} ms`, err);
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : undefined;
    const code = (cause as { code?: unknown } | undefined)?.code;
    const detail = cause ? `: ${cause.message}` : '';
    if (typeof code === 'string' && UNREACHABLE.has(code)) {
      throw new EngineError('engine_unreachable', `${service} is unreachable${detail}`, err);
    }
    throw new EngineError('connection_lost', `The connection to ${service} broke${detail}`, err);
  }
}

/** Reads a body as JSON; a body that is not JSON is an engine failure, reported with a short excerpt. */
export async function readJson(service: string, res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EngineError(
      'engine_failed',
      `${service} sent a reply to ${what} that is not JSON (HTTP ${res.status}): ${text.slice(0, 120)}`,
    );
  }
}

export function malformed(service: string, what: string, detail: unknown): EngineError {
  return new EngineError('engine_failed', `${service} sent an unexpected reply to ${what}`, detail);
}
