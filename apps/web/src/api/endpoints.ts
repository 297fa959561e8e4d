import { isApiError } from './ApiError.ts';
import { createHttpClient, withQuery } from './http.ts';
import { postJsonWithProgress, type UploadProgress } from './upload.ts';
import type { HttpClient, HttpClientOptions } from './http.ts';
import type {
  BodyOf,
  CreateWorkspaceRequest,
  Credits,
  Page,
  ReplyOf,
  SaveWorkspaceRequest,
  SavePatchRequest,
  SaveWorkspaceResult,
  WorkspaceRecord,
  WorkspaceRevision,
  WorkspaceSummary,
} from './types.ts';

const enc = encodeURIComponent;

/**
 * Every Koma endpoint the web app calls, one typed method each; bodies and replies are the generated wire
 * types (types.ts), so a server change that the client does not follow fails the typecheck. Failures throw ApiError.
 */
export function createKomaApi(http: HttpClient) {
  return {
    auth: {
      signUp: (body: BodyOf<'/api/auth/signup', 'post'>) =>
        http.request<ReplyOf<'/api/auth/signup', 'post', 201>>('POST', '/api/auth/signup', body),
      signIn: (body: BodyOf<'/api/auth/signin', 'post'>) =>
        http.request<ReplyOf<'/api/auth/signin', 'post'>>('POST', '/api/auth/signin', body),
      signOut: () => http.request<void>('POST', '/api/auth/signout'),
      me: () => http.request<ReplyOf<'/api/auth/me', 'get'>>('GET', '/api/auth/me'),
      /** The signed-in user, or null: signed out answers 200, so a visit before sign-in logs no failed request. */
      session: () => http.request<ReplyOf<'/api/auth/session', 'get'>>('GET', '/api/auth/session'),
    },
    workspaces: {
      list: (page = 1, pageSize = 50) =>
        http.request<Page<WorkspaceSummary>>('GET', withQuery('/api/workspaces', { page, pageSize })),
    },
    workspace: {
      create: (body: CreateWorkspaceRequest) =>
        http.request<ReplyOf<'/api/workspace', 'post', 201>>('POST', '/api/workspace', body),
      get: (id: string) => http.request<WorkspaceRecord>('GET', `/api/workspace/${enc(id)}`),
      save: (id: string, body: SaveWorkspaceRequest) =>
        http.request<SaveWorkspaceResult>('PUT', `/api/workspace/${enc(id)}`, body),
      savePatch: (id: string, body: SavePatchRequest) =>
        http.request<SaveWorkspaceResult>('POST', `/api/workspace/${enc(id)}/patches`, body),
      rename: (id: string, name: string) =>
        http.request<ReplyOf<'/api/workspace/{id}', 'patch'>>('PATCH', `/api/workspace/${enc(id)}`, { name }),
      duplicate: (id: string) =>
        http.request<ReplyOf<'/api/workspace/{id}/duplicate', 'post', 201>>(
          'POST',
          `/api/workspace/${enc(id)}/duplicate`,
        ),
      remove: (id: string) => http.request<void>('DELETE', `/api/workspace/${enc(id)}`),
      revisions: (id: string, page: { before?: number; limit?: number } = {}) =>
        http.request<ReplyOf<'/api/workspace/{id}/revisions', 'get'>>(
          'GET',
          withQuery(`/api/workspace/${enc(id)}/revisions`, page),
        ),
      /** One kept version, read-only. */
      version: (id: string, revision: number) =>
        http.request<ReplyOf<'/api/workspace/{id}/revisions/{revision}', 'get'>>(
          'GET',
          `/api/workspace/${enc(id)}/revisions/${revision}`,
        ),
      /** A new workspace holding one kept version; returns its id. */
      copyVersion: (id: string, revision: number, name?: string) =>
        http.request<ReplyOf<'/api/workspace/{id}/revisions/{revision}/copy', 'post', 201>>(
          'POST',
          `/api/workspace/${enc(id)}/revisions/${revision}/copy`,
          name === undefined ? {} : { name },
        ),
      restore: (id: string, revision: number) =>
        http.request<ReplyOf<'/api/workspace/{id}/revisions/{revision}/restore', 'post'>>(
          'POST',
          `/api/workspace/${enc(id)}/revisions/${revision}/restore`,
        ),
    },
    images: {
      upload: (encoded: string, fileType: BodyOf<'/api/image', 'post'>['fileType']) =>
        http.request<ReplyOf<'/api/image', 'post', 201>>('POST', '/api/image', { encoded, fileType }),
      url: (id: string) => http.request<ReplyOf<'/api/image', 'get'>>('GET', withQuery('/api/image', { id })),
    },
    credits: {
      get: () => http.request<Credits>('GET', '/api/credits'),
    },
    preferences: {
      get: () => http.request<ReplyOf<'/api/preferences', 'get'>>('GET', '/api/preferences'),
      /** Replaces the whole record: fields left out fall back to their defaults, so send every field. */
      update: (preferences: BodyOf<'/api/preferences', 'put'>['preferences']) =>
        http.request<ReplyOf<'/api/preferences', 'put'>>('PUT', '/api/preferences', { preferences }),
    },
    flowImages: {
      /** Entries are validated by the caller (zFlowImage of @koma/domain): the list comes from another service. */
      find: (variationId: string) =>
        http.request<{ userImages: unknown[] }>('GET', withQuery('/api/flow_images/', { variationId })),
      /**
       * The newest flow image of each of many variations (at most 1,000), in one call: POST /api/flow_images/lookup,
       * beside the spec's one-variation call (docs/decisions/web.md). Variations without one are left out.
       */
      lookup: (variationIds: string[]) =>
        http.request<{ userImages: unknown[] }>('POST', '/api/flow_images/lookup', { variationIds }),
    },
  };
}

export type KomaApi = ReturnType<typeof createKomaApi>;
export type { WorkspaceRevision };

const unauthorizedListeners = new Set<(path: string) => void>();

/** Subscribes to "the session ended" (a 401 from a non-auth call of the shared client); returns the unsubscribe. */
export function onSessionExpired(listener: (path: string) => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** The app's shared client: same origin, the browser's fetch. */
export const api: KomaApi = createKomaApi(
  createHttpClient({
    onUnauthorized: (path) => {
      for (const listener of unauthorizedListeners) listener(path);
    },
  }),
);

/** POST /api/image with upload progress (large files), on the shared client's session handling. */
export function uploadImage(encoded: string, fileType: string, onProgress: UploadProgress): Promise<{ id: string }> {
  return postJsonWithProgress('/api/image', { encoded, fileType }, onProgress, (path) => {
    for (const listener of unauthorizedListeners) listener(path);
  });
}

export function createApi(options: HttpClientOptions): KomaApi {
  return createKomaApi(createHttpClient(options));
}

/** Receives the spec's log line and the error behind it. */
type Logger = (message: string, error: unknown) => void;

function statusOf(error: unknown): number | string {
  return isApiError(error) ? error.status : error instanceof Error ? error.message : String(error);
}

/**
 * Creates a workspace the way spec §8 asks: on failure it logs "Failed to create workspace: {status}" and
 * returns an empty id instead of throwing, so the caller decides what to tell the user.
 */
export async function createWorkspaceOrEmpty(
  client: KomaApi,
  body: CreateWorkspaceRequest,
  log: Logger = (message) => console.error(message),
): Promise<string> {
  try {
    const { id } = await client.workspace.create(body);
    return id;
  } catch (error) {
    log(`Failed to create workspace: ${statusOf(error)}`, error);
    return '';
  }
}

/**
 * Saves a workspace per spec §8: a failure logs "Failed to save workspace: {status}" and yields null.
 * A 409 revision conflict is rethrown, because the editor must reload or merge rather than lose work silently.
 */
export async function saveWorkspaceOrNull(
  client: KomaApi,
  id: string,
  body: SaveWorkspaceRequest,
  log: Logger = (message) => console.error(message),
): Promise<SaveWorkspaceResult | null> {
  try {
    return await client.workspace.save(id, body);
  } catch (error) {
    if (isApiError(error) && error.code === 'revision_conflict') throw error;
    log(`Failed to save workspace: ${statusOf(error)}`, error);
    return null;
  }
}
