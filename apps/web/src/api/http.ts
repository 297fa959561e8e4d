import { ApiError, CLIENT_ERROR_CODES } from './ApiError.ts';
import { TAB_ID } from './tab.ts';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface HttpClientOptions {
  /** Prefix for every path; '' means the page's own origin (the server serves the app and the API together). */
  baseUrl?: string;
  fetch?: FetchLike;
  /**
   * Called when a call outside /api/auth/ answers 401: the session ended (expired, or signed out in another tab).
   * The app uses it to send the user to sign-in instead of showing a broken screen.
   */
  onUnauthorized?: (path: string) => void;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpClient {
  request<T>(method: HttpMethod, path: string, body?: unknown): Promise<T>;
}

/** Builds `path?key=value&…`, skipping undefined values, so callers never hand-encode a query string. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function errorFromBody(status: number, statusText: string, body: unknown): ApiError {
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>;
    const code = typeof record.error === 'string' ? record.error : CLIENT_ERROR_CODES.http;
    const message =
      typeof record.message === 'string' && record.message !== ''
        ? record.message
        : `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
    return new ApiError(status, code, message, body);
  }
  return new ApiError(status, CLIENT_ERROR_CODES.http, `HTTP ${status}${statusText ? ` ${statusText}` : ''}`, body);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A JSON-over-fetch client: same-origin cookies, and every failure turned into an ApiError. */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const baseUrl = options.baseUrl ?? '';
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));

  return {
    async request<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
      const headers: Record<string, string> = { Accept: 'application/json', 'X-Koma-Tab': TAB_ID };
      const init: RequestInit = { method, headers, credentials: 'same-origin' };
      if (body !== undefined) {
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
      let response: Response;
      try {
        response = await doFetch(`${baseUrl}${path}`, init);
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw new ApiError(0, CLIENT_ERROR_CODES.network, `Network error: ${reason}`);
      }
      const decoded = await readJson(response).catch(() => undefined);
      if (!response.ok) {
        if (response.status === 401 && !path.startsWith('/api/auth/')) options.onUnauthorized?.(path);
        throw errorFromBody(response.status, response.statusText, decoded);
      }
      if (response.status !== 204 && typeof decoded === 'string') {
        throw new ApiError(response.status, CLIENT_ERROR_CODES.invalidResponse, `Expected JSON from ${method} ${path}`);
      }
      return decoded as T;
    },
  };
}
