import type { Database } from '../db/database.ts';
import { newId } from '../ids.ts';

/** A flow image as GET /api/flow_images returns it (editor.md §3). */
export interface FlowImage {
  variationId: string;
  generationData: Record<string, unknown>;
}

/** Records the generation data behind a variation, for the user who generated it (called by the generation work). */
export async function recordFlowImage(
  db: Database,
  userId: string,
  image: FlowImage,
  now: Date = new Date(),
): Promise<string> {
  const id = newId();
  await db
    .insertInto('flow_images')
    .values({
      id,
      user_id: userId,
      variation_id: image.variationId,
      generation_data: JSON.stringify(image.generationData),
      created_at: now.toISOString(),
    })
    .execute();
  return id;
}

/** The user's flow images for one variation, newest first. */
export async function listFlowImages(
  db: Database,
  userId: string,
  variationId: string,
  page: { limit: number; offset: number },
): Promise<FlowImage[]> {
  const rows = await db
    .selectFrom('flow_images')
    .select(['variation_id', 'generation_data'])
    .where('user_id', '=', userId)
    .where('variation_id', '=', variationId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(toFlowImage);
}

/** The user's newest flow image of each of `variationIds` that has one (others are left out), in no set order. */
export async function latestFlowImages(
  db: Database,
  userId: string,
  variationIds: readonly string[],
): Promise<FlowImage[]> {
  const wanted = [...new Set(variationIds)];
  if (wanted.length === 0) return [];
  const rows = await db
    .selectFrom('flow_images')
    .select(['variation_id', 'generation_data'])
    .where('user_id', '=', userId)
    .where('variation_id', 'in', wanted)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  // Rows come newest first: the first row of a variation is the one its one-id lookup would list first.
  const newest = new Map<string, FlowImage>();
  for (const row of rows) {
    if (newest.has(row.variation_id)) continue;
    newest.set(row.variation_id, toFlowImage(row));
  }
  return [...newest.values()];
}

function toFlowImage(row: { variation_id: string; generation_data: string }): FlowImage {
  return {
    variationId: row.variation_id,
    generationData: JSON.parse(row.generation_data) as Record<string, unknown>,
  };
}
