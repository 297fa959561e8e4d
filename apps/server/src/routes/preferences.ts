import { zStoredPreferences } from '@koma/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../http/auth.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { findPreferences, upsertPreferences } from '../repositories/preferences.ts';

const zReply = z.object({ preferences: zStoredPreferences });

/** GET and PUT /api/preferences; fields the user never set come back as the domain defaults. */
export function preferenceRoutes(app: FastifyInstance): void {
  const { database, now } = app.koma;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/preferences', { schema: { response: { 200: zReply } } }, async (request) => {
    const stored = await findPreferences(database.db, requireUser(request).id);
    // Stored values are re-read through the schema so a newer default reaches old rows.
    const parsed = zStoredPreferences.safeParse(stored === undefined ? {} : JSON.parse(stored));
    return { preferences: parsed.success ? parsed.data : zStoredPreferences.parse({}) };
  });

  api.put(
    '/api/preferences',
    { schema: { body: z.object({ preferences: zStoredPreferences }), response: { 200: zReply } } },
    async (request) => {
      const user = requireUser(request);
      await upsertPreferences(database.db, user.id, JSON.stringify(request.body.preferences), now().toISOString());
      return { preferences: request.body.preferences };
    },
  );
}
