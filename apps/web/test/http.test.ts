import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api/ApiError.ts';
import { createHttpClient, withQuery } from '../src/api/http.ts';
import { createApi, createWorkspaceOrEmpty, saveWorkspaceOrNull } from '../src/api/endpoints.ts';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('http client', () => {
  it('sends JSON with same-origin credentials and returns the decoded body', async () => {
    const fetch = vi.fn(() => Promise.resolve(json(201, { id: 'w1' })));
    const client = createHttpClient({ fetch, baseUrl: 'http://x' });
    const result = await client.request<{ id: string }>('POST', '/api/workspace', { name: 'A' });
    expect(result).toEqual({ id: 'w1' });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://x/api/workspace');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"name":"A"}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('turns the server error shape into ApiError { status, code, message }', async () => {
    const client = createHttpClient({
      fetch: () => Promise.resolve(json(401, { error: 'unauthorized', message: 'Sign in first' })),
    });
    const error = await caught(client.request('GET', '/api/auth/me'));
    expect(error.status).toBe(401);
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe('Sign in first');
  });

  it('keeps the whole body of a revision conflict so the editor can read the current revision', async () => {
    const api = createApi({
      fetch: () => Promise.resolve(json(409, { error: 'revision_conflict', message: 'Stale', revision: 7 })),
    });
    const error = await caught(api.workspace.save('w1', { data: {}, revision: 3 }));
    expect(error.code).toBe('revision_conflict');
    expect((error.body as { revision: number }).revision).toBe(7);
  });

  it('reports a non-JSON error page with a generic code and the status', async () => {
    const client = createHttpClient({
      fetch: () => Promise.resolve(new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' })),
    });
    const error = await caught(client.request('GET', '/api/workspaces'));
    expect(error).toMatchObject({ status: 502, code: 'http_error', message: 'HTTP 502 Bad Gateway' });
  });

  it('reports a request that never got an answer as status 0 network_error', async () => {
    const client = createHttpClient({ fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    const error = await caught(client.request('GET', '/api/credits'));
    expect(error).toMatchObject({ status: 0, code: 'network_error', message: 'Network error: Failed to fetch' });
  });

  it('accepts an empty 204 reply', async () => {
    const client = createHttpClient({ fetch: () => Promise.resolve(new Response(null, { status: 204 })) });
    await expect(client.request('DELETE', '/api/workspace/w1')).resolves.toBeUndefined();
  });

  it('rejects a successful reply that is not JSON', async () => {
    const client = createHttpClient({ fetch: () => Promise.resolve(new Response('<html>', { status: 200 })) });
    const error = await caught(client.request('GET', '/api/workspaces'));
    expect(error.code).toBe('invalid_response');
  });

  it('encodes query strings and skips undefined values', () => {
    expect(withQuery('/api/flow_images/', { variationId: 'a b&c', page: undefined })).toBe(
      '/api/flow_images/?variationId=a+b%26c',
    );
    expect(withQuery('/api/workspaces', {})).toBe('/api/workspaces');
  });
});

describe('endpoint helpers of spec §8', () => {
  it('logs "Failed to create workspace: {status}" and returns an empty id', async () => {
    const api = createApi({ fetch: () => Promise.resolve(json(500, { error: 'internal', message: 'boom' })) });
    const log = vi.fn();
    await expect(createWorkspaceOrEmpty(api, { name: 'x', data: {} }, log)).resolves.toBe('');
    expect(log).toHaveBeenCalledWith('Failed to create workspace: 500', expect.any(ApiError));
  });

  it('returns the new id when the create succeeds', async () => {
    const api = createApi({ fetch: () => Promise.resolve(json(201, { id: 'new-id' })) });
    const log = vi.fn();
    await expect(createWorkspaceOrEmpty(api, { name: 'x', data: {} }, log)).resolves.toBe('new-id');
    expect(log).not.toHaveBeenCalled();
  });

  it('logs "Failed to save workspace: {status}" but rethrows a revision conflict', async () => {
    const log = vi.fn();
    const failing = createApi({ fetch: () => Promise.resolve(json(413, { error: 'too_large', message: 'big' })) });
    await expect(saveWorkspaceOrNull(failing, 'w', { data: {} }, log)).resolves.toBeNull();
    expect(log).toHaveBeenCalledWith('Failed to save workspace: 413', expect.any(ApiError));
    const conflict = createApi({
      fetch: () => Promise.resolve(json(409, { error: 'revision_conflict', message: 'stale', revision: 2 })),
    });
    await expect(saveWorkspaceOrNull(conflict, 'w', { data: {} }, log)).rejects.toBeInstanceOf(ApiError);
  });
});

describe('session expiry', () => {
  it('reports a 401 of a data call, but not of the auth calls that answer 401 by design', async () => {
    const onUnauthorized = vi.fn();
    const client = createHttpClient({
      fetch: () => Promise.resolve(json(401, { error: 'unauthorized', message: 'Sign in first.' })),
      onUnauthorized,
    });
    await expect(client.request('GET', '/api/workspaces')).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledWith('/api/workspaces');
    await expect(client.request('GET', '/api/auth/me')).rejects.toBeInstanceOf(ApiError);
    await expect(client.request('POST', '/api/auth/signin', {})).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});
