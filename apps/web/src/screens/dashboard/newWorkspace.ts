import { createWorkspaceData } from '@koma/domain';
import type { WorkspaceData } from '@koma/domain';
import type { CreateWorkspaceRequest, WorkspaceType } from '../../api/types.ts';

/** Ids for new documents: random UUIDs, so two tabs creating at once can never collide. */
export const randomIds = (): string => crypto.randomUUID();

/** The POST /api/workspace body of a brand-new workspace of the given kind. */
export function newWorkspaceRequest(
  type: WorkspaceType,
  name: string,
  ids: () => string = randomIds,
): CreateWorkspaceRequest & { data: WorkspaceData } {
  return { name, type, data: createWorkspaceData(type, ids) };
}
