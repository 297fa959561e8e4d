import type { Database } from '../db/database.ts';

/** The stored preferences JSON of a user, or undefined when never saved. */
export async function findPreferences(db: Database, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('preferences').select('data').where('user_id', '=', userId).executeTakeFirst();
  return row?.data;
}

/** Stores (inserts or replaces) the preferences JSON of a user. */
export async function upsertPreferences(db: Database, userId: string, data: string, nowIso: string): Promise<void> {
  await db
    .insertInto('preferences')
    .values({ user_id: userId, data, updated_at: nowIso })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ data, updated_at: nowIso }))
    .execute();
}
