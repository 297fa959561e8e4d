import { EngineError, cancelledError } from './errors.ts';

/**
 * fetch with a per-request time limit that maps failures onto EngineError codes: the job's own abort becomes
 * `cancelled`, our time limit `timeout`, a refused or dropped connection `connection_lost`.
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
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    throw new EngineError('connection_lost', `${service} is unreachable${cause}`, err);
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
