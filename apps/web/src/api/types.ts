// Wire shapes of the Koma API, taken from the types generated out of the server's OpenAPI document
// (schema.gen.ts, `npm run api:types`), so a change of a route's schema shows up here as a type error.
import type { paths } from './schema.gen.ts';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** The JSON body a route answers with for one status. */
export type ReplyOf<P extends keyof paths, M extends Method, S extends number = 200> =
  Operation<P, M> extends { responses: infer R }
    ? S extends keyof R
      ? R[S] extends { content: { 'application/json': infer J } }
        ? J
        : never
      : never
    : never;

/** The JSON body a route expects. */
export type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The query parameters a route accepts. */
export type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type User = ReplyOf<'/api/auth/me', 'get'>['user'];
export type Plan = User['plan'];
export type WorkspaceSummary = ReplyOf<'/api/workspaces', 'get'>['items'][number];
export type WorkspaceType = WorkspaceSummary['type'];

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export type WorkspaceRecord = ReplyOf<'/api/workspace/{id}', 'get'>;
export type CreateWorkspaceRequest = BodyOf<'/api/workspace', 'post'>;
/** `thumbnail` is base64 webp; a stale `revision` is answered with 409 revision_conflict. */
export type SaveWorkspaceRequest = BodyOf<'/api/workspace/{id}', 'put'>;
export type SavePatchRequest = BodyOf<'/api/workspace/{id}/patches', 'post'>;
export type SaveWorkspaceResult = ReplyOf<'/api/workspace/{id}', 'put'>;
export type WorkspaceRevision = ReplyOf<'/api/workspace/{id}/revisions', 'get'>['items'][number];
export type Credits = ReplyOf<'/api/credits', 'get'>;

/** The stored preferences as the server answers them: every field present, defaults filled in. */
export type StoredPreferences = ReplyOf<'/api/preferences', 'get'>['preferences'];
/** What the web holds: nothing until the server has answered. */
export type Preferences = Partial<StoredPreferences>;
export type Locale = StoredPreferences['locale'];
