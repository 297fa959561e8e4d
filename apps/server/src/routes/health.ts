import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '../http/zod-provider.ts';

/** GET /api/health: 200 when the database answers. */
export function healthRoutes(app: FastifyInstance): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: { response: { 200: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']) }) } },
    },
    async () => {
      await sql`select 1`.execute(app.koma.database.db);
      return { status: 'ok' as const, database: app.koma.database.dialect };
    },
  );
}
