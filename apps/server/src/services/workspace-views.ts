import type { WorkspaceType } from '@koma/domain';
import { imageUrl } from './workspace-thumbnails.ts';

// What the API answers about workspaces: dashboard rows, the document as the editor reads it, saved versions.

/** The dashboard row of a workspace. */
export interface WorkspaceSummary {
  id: string;
  name: string;
  type: WorkspaceType;
  thumbnailUrl: string | null;
  updatedAt: string;
  revision: number;
}

/** A workspace as the editor reads it: the stored document bytes and its head. */
export interface WorkspaceRead {
  name: string;
  type: WorkspaceType;
  revision: number;
  data: Buffer;
}

/** One saved version as the History panel lists it. */
export interface VersionSummary {
  revision: number;
  savedAt: string;
  tab: string | null;
  device: string | null;
  thumbnailUrl: string | null;
}

/** A stored version's row as the History panel lists it. */
export function versionSummary(
  revision: number,
  row: { saved_at: string; tab: string | null; device: string | null; thumbnail_id: string | null },
): VersionSummary {
  return {
    revision,
    savedAt: row.saved_at,
    tab: row.tab,
    device: row.device,
    thumbnailUrl: row.thumbnail_id ? imageUrl(row.thumbnail_id) : null,
  };
}
