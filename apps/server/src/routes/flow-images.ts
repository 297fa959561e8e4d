import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../http/auth.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listFlowImages } from '../repositories/flow-images.ts';
import { zPagination } from './schemas.ts';

const zQuery = zPagination.extend({ variationId: z.string().min(1).max(200) });
const zReply = z.object({
  userImages: z.array(z.object({ variationId: z.string(), generationData: z.record(z.string(), z.unknown()) })),
});

/** GET /api/flow_images/?variationId= : the signed-in user's flow images of that variation. */
export function flowImageRoutes(app: FastifyInstance): void {
  const { database } = app.koma;
  // The spec writes the path with a trailing slash; both spellings answer.
  for (const url of ['/api/flow_images/', '/api/flow_images']) {
    app
      .withTypeProvider<ZodTypeProvider>()
      .get(url, { schema: { querystring: zQuery, response: { 200: zReply } } }, async (request) => {
        const user = requireUser(request);
        const { variationId, page, pageSize } = request.query;
        const userImages = await listFlowImages(database.db, user.id, variationId, {
          limit: pageSize,
          offset: (page - 1) * pageSize,
        });
        return { userImages };
      });
  }
}
