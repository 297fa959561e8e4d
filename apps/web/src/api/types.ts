// Wire shapes of the Koma API as agreed with the server (apps/server). Field names are the server's.

export type Plan = 'free' | 'subscriber';
export type WorkspaceType = 'INFINITE' | 'COMIC';
export type Locale = 'en' | 'ja';

export interface User {
  id: string;
  email: string;
  name: string;
  plan: Plan;
  restrictedMode: boolean;
  credits: number;
  purchasedCredits: number;
}

export interface WorkspaceSummary {
  id: string;
  name: string;
  type: WorkspaceType;
  thumbnailUrl: string | null;
  updatedAt: string;
  revision: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export interface WorkspaceRecord {
  name: string;
  data: unknown;
  type: WorkspaceType;
  revision: number;
}

export interface CreateWorkspaceRequest {
  name: string;
  data: unknown;
  thumbnail?: string;
  type?: WorkspaceType;
}

export interface SaveWorkspaceRequest {
  data: unknown;
  /** base64 webp */
  thumbnail?: string;
  /** The revision the client started from; a stale one is answered with 409 revision_conflict. */
  revision?: number;
}

export interface SaveWorkspaceResult {
  thumbnailUrls: string[];
  revision: number;
}

export interface WorkspaceRevision {
  revision: number;
  savedAt: string;
}

export interface Credits {
  credits: number;
  purchasedCredits: number;
}

export interface Preferences {
  locale?: Locale;
  preferredFont?: string;
  fps?: number;
  loras?: unknown[];
  storyBasePrompt?: string;
  comicPreset?: string;
  [key: string]: unknown;
}
