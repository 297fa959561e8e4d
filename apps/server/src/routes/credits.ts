import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../http/auth.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** GET /api/credits: both balances (generation.md §7). */
export function creditRoutes(app: FastifyInstance): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/credits',
      { schema: { response: { 200: z.object({ credits: z.number().int(), purchasedCredits: z.number().int() }) } } },
      (request) => app.koma.ledger.balance(requireUser(request).id),
    );
}
