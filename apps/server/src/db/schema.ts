import type { Generated } from 'kysely';

/** Table shapes as Kysely sees them. Times are ISO-8601 strings and flags are 0/1 so SQLite and PostgreSQL agree. */
export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  plan: 'free' | 'subscriber';
  restricted_mode: number;
  credits: number;
  purchased_credits: number;
  created_at: string;
}

export interface SessionsTable {
  /** sha256 of the cookie value, so a leaked table does not leak live sessions. */
  token_hash: string;
  user_id: string;
  created_at: string;
  /** Absolute end of the session (SESSION_DAYS after sign-in). */
  expires_at: string;
  /** Last request made with it (kept to within a few minutes); null for sessions older than the column. */
  last_seen_at: string | null;
}

export interface CreditLedgerTable {
  id: string;
  user_id: string;
  kind: 'grant' | 'purchase' | 'charge' | 'refund';
  /** Signed change of plan credits. */
  credits_delta: number;
  /** Signed change of purchased credits. */
  purchased_delta: number;
  reason: string;
  ref: string | null;
  created_at: string;
}

export interface WorkspacesTable {
  id: string;
  user_id: string;
  name: string;
  type: 'INFINITE' | 'COMIC';
  revision: number;
  /** JSON array of image ids, one per page (or one for an infinite canvas); '' entries have none. */
  thumbnail_ids: string;
  /** The latest thumbnail, for the dashboard. */
  thumbnail_id: string | null;
  created_at: string;
  updated_at: string;
  /** Patches stored since the last keyframe, and their total length: when the next version is a keyframe. */
  chain_patches: Generated<number>;
  chain_bytes: Generated<number>;
}

export interface WorkspaceRevisionsTable {
  workspace_id: string;
  revision: number;
  /** `full`: the encoded workspace data as JSON text, exactly as served (a keyframe); `patch`: a JSON Patch
   *  against the stored row just before this one. */
  kind: 'full' | 'patch';
  data: string;
  saved_at: string;
  /** The editor tab that saved (its X-Koma-Tab), when it said. */
  tab: string | null;
  /** Browser and system of the save, from its User-Agent ("Chrome on macOS"). */
  device: string | null;
  /** The workspace's latest thumbnail when this version was saved (kept while a version names it). */
  thumbnail_id: string | null;
}

export interface ImagesTable {
  id: string;
  user_id: string;
  mime: string;
  byte_size: number;
  width: number;
  height: number;
  created_at: string;
}

export interface PreferencesTable {
  user_id: string;
  data: string;
  updated_at: string;
}

export interface FlowImagesTable {
  id: string;
  user_id: string;
  variation_id: string;
  generation_data: string;
  created_at: string;
}

/** The whole database, for `Kysely<DB>`. */
export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  credit_ledger: CreditLedgerTable;
  workspaces: WorkspacesTable;
  workspace_revisions: WorkspaceRevisionsTable;
  images: ImagesTable;
  preferences: PreferencesTable;
  flow_images: FlowImagesTable;
}
