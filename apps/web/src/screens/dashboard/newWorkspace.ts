import { createWorkspaceData } from '@koma/domain';
import type { PageSetup, WorkspaceData } from '@koma/domain';
import type { CreateWorkspaceRequest, WorkspaceType } from '../../api/types.ts';

/** Ids for new documents: random UUIDs, so two tabs creating at once can never collide. */
export const randomIds = (): string => crypto.randomUUID();

/** The POST /api/workspace body of a brand-new workspace of the given kind (a comic on the chosen page setup). */
export function newWorkspaceRequest(
  type: WorkspaceType,
  name: string,
  ids: () => string = randomIds,
  setup?: PageSetup,
): CreateWorkspaceRequest & { data: WorkspaceData } {
  return { name, type, data: createWorkspaceData(type, ids, 'LEFT_TO_RIGHT', setup) };
}
