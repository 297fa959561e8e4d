import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SCALED_IMAGE_SIDES } from '@koma/domain';
import { requireUser } from '../http/auth.ts';
import { HttpError, notFound } from '../http/errors.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { decodeBase64 } from '../services/image-store.ts';
import { imageUrl } from '../services/workspace-thumbnails.ts';
import { zId } from './schemas.ts';

const zScaledSide = z.union(SCALED_IMAGE_SIDES.map((side) => z.literal(side)));
const IMMUTABLE = 'private, max-age=31536000, immutable';
/** Ids one POST /api/image/urls may resolve: a 40-page chapter of ten pictures a page. */
const IMAGE_URLS_MAX = 1000;

/** Upload, look up and serve images; all of them owned, all addressed by server ids. */
export function imageRoutes(app: FastifyInstance): void {
  const { images, config } = app.koma;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/image',
    {
      // base64 is 4/3 of the bytes; allow a data: prefix and the JSON around it.
      bodyLimit: Math.ceil((config.maxImageBytes * 4) / 3) + 4096,
      // Per user (per address before sign-in), counted before the body is read; shared through Redis when set.
      config: {
        rateLimit: {
          max: config.uploadRateLimit.max,
          timeWindow: config.uploadRateLimit.windowMs,
          keyGenerator: (request: FastifyRequest) => `upload:${request.user?.id ?? request.ip}`,
          errorResponseBuilder: (_request: FastifyRequest, limit: { max: number; ttl: number }) =>
            new HttpError(
              429,
              'rate_limited',
              `Too many image uploads: at most ${limit.max} every ${Math.ceil(config.uploadRateLimit.windowMs / 1000)} s ` +
                `(UPLOAD_RATE_LIMIT); try again in ${Math.ceil(limit.ttl / 1000)} s.`,
            ),
        },
      },
      schema: {
        body: z.object({ encoded: z.string().min(1), fileType: z.enum(['png', 'jpeg', 'webp']) }),
        response: { 201: z.object({ id: z.string() }) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // fileType is the client's hint; the bytes decide the stored type (a "jpeg" drop may be a re-encoded PNG).
      const id = await images.putUpload(user.id, decodeBase64(request.body.encoded));
      return reply.status(201).send({ id });
    },
  );

  api.get(
    '/api/image',
    { schema: { querystring: z.object({ id: zId }), response: { 200: z.object({ url: z.string() }) } } },
    async (request) => {
      const user = requireUser(request);
      if (!(await images.exists(user.id, request.query.id))) throw notFound('Image');
      return { url: imageUrl(request.query.id) };
    },
  );

  // Not in the spec (editor.md §7 has the one-id call above): the editor resolves every picture of an open document
  // in one call, so each picture is then one request instead of two (docs/decisions/web.md).
  api.post(
    '/api/image/urls',
    {
      schema: {
        body: z.object({ ids: z.array(zId).min(1).max(IMAGE_URLS_MAX) }),
        response: { 200: z.object({ urls: z.record(z.string(), z.string()) }) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const owned = await images.ownedIds(user.id, request.body.ids);
      return { urls: Object.fromEntries(owned.map((id) => [id, imageUrl(id)])) };
    },
  );

  api.get('/api/images/:id', { schema: { params: z.object({ id: zId }) } }, async (request, reply) => {
    const user = requireUser(request);
    const image = await images.getImage(user.id, request.params.id);
    if (!image) throw notFound('Image');
    return reply.header('content-type', image.mime).header('cache-control', IMMUTABLE).send(image.bytes);
  });

  // Not in the spec: the picture shrunk to fit `side` (SCALED_IMAGE_SIDES), which a page seen whole draws instead of
  // downloading and decoding the whole picture (docs/how-it-works/chapter-memory.md).
  api.get(
    '/api/images/:id/scaled/:side',
    { schema: { params: z.object({ id: zId, side: z.coerce.number().pipe(zScaledSide) }) } },
    async (request, reply) => {
      const user = requireUser(request);
      const image = await images.getScaled(user.id, request.params.id, request.params.side);
      if (!image) throw notFound('Image');
      return reply.header('content-type', image.mime).header('cache-control', IMMUTABLE).send(image.bytes);
    },
  );

  api.get('/api/images/:id/thumbnail', { schema: { params: z.object({ id: zId }) } }, async (request, reply) => {
    const user = requireUser(request);
    const thumbnail = await images.getThumbnail(user.id, request.params.id);
    if (!thumbnail) throw notFound('Image');
    return reply.header('content-type', 'image/jpeg').header('cache-control', IMMUTABLE).send(thumbnail);
  });
}
