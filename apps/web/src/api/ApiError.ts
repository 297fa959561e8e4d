/** A failed API call: the HTTP status (0 when the request never got an answer), the server's error code and message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The whole decoded error body, for replies that carry more than `{ error, message }` (a 409 carries `revision`). */
  readonly body: unknown;

  constructor(status: number, code: string, message: string, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Codes the client itself produces, for failures where the server could not say anything. */
export const CLIENT_ERROR_CODES = {
  network: 'network_error',
  http: 'http_error',
  invalidResponse: 'invalid_response',
} as const;
