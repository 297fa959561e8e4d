// The client side of the job streams (docs/api-generation.md): every generation or vision endpoint answers an
// NDJSON stream of job events, or a JSON `{ error, message }` before anything starts.
import { ApiError, CLIENT_ERROR_CODES } from '../api/ApiError.ts';
import type { FetchLike } from '../api/http.ts';

export type JobStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export interface QueueEvent {
  status: 'IN_QUEUE';
  job_id?: string;
  queue_position?: number;
  /** First event of a submission: the credits charged, and words moderation stripped from the prompts. */
  cost?: number;
  stripped?: unknown;
}
export interface ProgressEvent {
  status: 'IN_PROGRESS';
  job_id?: string;
  logs?: string[] | string;
  progress?: number;
  /** A data: URL of the picture so far. */
  preview?: string;
  /** The expected run time, learned by the server from the engine's recent speed. */
  estimate_ms?: number;
}
export interface CompletedEvent {
  status: 'COMPLETED';
  job_id?: string;
  output: unknown;
}
export interface FailedEvent {
  status: 'FAILED';
  job_id?: string;
  error?: string;
  code?: string;
  /** Credits the server gave back. */
  refunded?: number;
}
export type JobEvent = QueueEvent | ProgressEvent | CompletedEvent | FailedEvent;

/** The job reached FAILED; `detail` is the server's own text, the user sees its reason in their language. */
export class JobFailedError extends Error {
  constructor(
    readonly detail: string,
    readonly code: string | undefined,
    readonly jobId: string | undefined,
    /** Credits the server gave back. */
    readonly refunded = 0,
  ) {
    super(detail);
    this.name = 'JobFailedError';
  }
}

/** The stream closed before a final event (a dropped connection); the job itself may still be running. */
export class StreamEndedError extends Error {
  constructor(readonly jobId: string | undefined) {
    super('The job stream ended before the job finished');
    this.name = 'StreamEndedError';
  }
}

const STATUSES = new Set<string>(['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED', 'FAILED']);

/** A decoded line as a job event, or null for anything else (blank keep-alives, unknown shapes). */
export function toJobEvent(value: unknown): JobEvent | null {
  if (typeof value !== 'object' || value === null) return null;
  const status = (value as { status?: unknown }).status;
  return typeof status === 'string' && STATUSES.has(status) ? (value as JobEvent) : null;
}

/** Decodes an NDJSON body line by line; a line split across chunks (or a multi-byte character) is joined first. */
export async function* readNdjson(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line !== '') yield parseLine(line);
        newline = buffer.indexOf('\n');
      }
      if (done) break;
    }
    // A last line without its newline is kept if it is whole; a connection cut mid-line leaves a fragment, which
    // is dropped so the caller sees the stream end early.
    const rest = buffer.trim();
    if (rest !== '') {
      let value: unknown;
      try {
        value = JSON.parse(rest) as unknown;
      } catch {
        return;
      }
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    throw new ApiError(
      200,
      CLIENT_ERROR_CODES.invalidResponse,
      `Not a JSON line in the job stream: ${line.slice(0, 80)}`,
    );
  }
}

/** The error of a non-ok answer: its `error` field is the code, a string body becomes the message. */
async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    // not JSON: keep the text
  }
  if (typeof body === 'object' && body !== null) {
    const record = body as { error?: unknown; message?: unknown };
    const code = typeof record.error === 'string' ? record.error : CLIENT_ERROR_CODES.http;
    const message =
      typeof record.message === 'string' && record.message !== ''
        ? record.message
        : typeof record.error === 'string'
          ? record.error
          : `HTTP ${response.status}`;
    return new ApiError(response.status, code, message, body);
  }
  return new ApiError(
    response.status,
    CLIENT_ERROR_CODES.http,
    typeof body === 'string' && body !== '' ? body : `HTTP ${response.status}`,
    body,
  );
}

export interface StreamOptions {
  fetch?: FetchLike;
  /**
   * Sent as `Idempotency-Key` on a submit: the server answers a repeat of the same request under the same key with
   * the job it already made, without charging again. One per user action; a retry of that action reuses it.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Every event as it arrives, the final one included. */
  onEvent?: (event: JobEvent) => void;
}

/**
 * Follows one job stream to its end: resolves with the COMPLETED output, rejects with JobFailedError on FAILED,
 * ApiError when the answer is not ok (or the network fails), StreamEndedError when the body ends early.
 */
export async function followJobStream(
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  options: StreamOptions = {},
): Promise<unknown> {
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    headers: {
      Accept: 'application/x-ndjson, application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(method === 'POST' && options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  let response: Response;
  try {
    response = await doFetch(path, init);
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError(
      0,
      CLIENT_ERROR_CODES.network,
      `Network error: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
  if (!response.ok) throw await errorOf(response);
  if (!response.body) throw new StreamEndedError(undefined);
  let jobId: string | undefined;
  for await (const line of readNdjson(response.body)) {
    const event = toJobEvent(line);
    if (!event) continue;
    jobId = event.job_id ?? jobId;
    options.onEvent?.(event);
    if (event.status === 'COMPLETED') return event.output;
    if (event.status === 'FAILED') {
      const refunded = typeof event.refunded === 'number' ? event.refunded : 0;
      throw new JobFailedError(event.error ?? 'The job failed', event.code, jobId, refunded);
    }
  }
  throw new StreamEndedError(jobId);
}

/** A fresh key for one user action's submit. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** Submits a job: POST the payload (with an Idempotency-Key, a new one unless given) and follow the answer's stream. */
export function submitJob(path: string, payload: unknown, options: StreamOptions = {}): Promise<unknown> {
  return followJobStream('POST', path, payload, {
    ...options,
    idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
  });
}

/** Re-attaches to a job that is already running (after a reload or a dropped connection). */
export function attachJob(jobId: string, options: StreamOptions = {}): Promise<unknown> {
  return followJobStream('GET', `/api/jobs/${encodeURIComponent(jobId)}/events`, undefined, options);
}
