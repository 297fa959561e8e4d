import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../http/auth.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { latestFlowImages, listFlowImages } from '../repositories/flow-images.ts';
import { zPagination } from './schemas.ts';

const zVariationId = z.string().min(1).max(200);
const zQuery = zPagination.extend({ variationId: zVariationId });
/** Variations one POST /api/flow_images/lookup may ask for: a 40-page chapter of ten pictures a page. */
const LOOKUP_MAX = 1000;
const zReply = z.object({
  userImages: z.array(z.object({ variationId: z.string(), generationData: z.record(z.string(), z.unknown()) })),
});

/**
 * GET /api/flow_images/?variationId= : the signed-in user's flow images of that variation; POST /api/flow_images/lookup
 * { variationIds }: the newest one of each of many variations.
 */
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

  // Not in the spec (editor.md §3 has the one-variation call above): the editor asks for the recipes of every
  // picture of a page in one call instead of one call per picture, which took the browser's connections while the
  // page's pictures were downloading (docs/decisions/web.md).
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/flow_images/lookup',
    {
      schema: {
        body: z.object({ variationIds: z.array(zVariationId).min(1).max(LOOKUP_MAX) }),
        response: { 200: zReply },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return { userImages: await latestFlowImages(database.db, user.id, request.body.variationIds) };
    },
  );
}
