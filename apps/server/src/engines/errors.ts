import type { JobFailureCode } from '@koma/domain';

/** The reason an engine failed, from the list the web translates (`packages/domain/src/generation/failures.ts`). */
export type EngineErrorCode = JobFailureCode;

/** The only error type an engine rejects with; `message` is written for the person who submitted the job. */
export class EngineError extends Error {
  override readonly name = 'EngineError';

  constructor(
    readonly code: EngineErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function cancelledError(): EngineError {
  return new EngineError('cancelled', 'The job was cancelled');
}

/** Throws `cancelled` if the signal has fired; call between units of work. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw cancelledError();
}

/** Wraps anything thrown into an EngineError, keeping EngineErrors as they are. */
export function toEngineError(err: unknown, fallback: EngineErrorCode, context: string): EngineError {
  if (err instanceof EngineError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new EngineError(fallback, `${context}: ${message}`, err);
}

/** Resolves after `ms`, or rejects with `cancelled` as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(cancelledError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
