import { WORKSPACE_TYPES } from '@koma/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../http/auth.ts';
import { deviceLabel } from '../http/device-label.ts';
import { tabOf } from './workspaces.ts';
import { zId } from './schemas.ts';

// Revision numbers fit comfortably in a JS integer; past this a number is a typo or a probe, not a version.
const MAX_REVISION = 2 ** 31 - 1;
const zRevision = z.coerce
  .number({ error: 'must be a version number' })
  .int('must be a whole version number')
  .min(1, 'must be 1 or more')
  .max(MAX_REVISION, `must be at most ${MAX_REVISION}`);
const zVersionParams = z.object({ id: zId, revision: zRevision });
const zVersion = z.object({
  revision: z.number().int(),
  savedAt: z.string(),
  tab: z.string().nullable(),
  device: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
});

/** Version history (issue 14 item 4): list kept versions, read one, restore one, copy one into a new workspace. */
export function historyRoutes(app: FastifyInstance): void {
  const { workspaces } = app.koma;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/workspace/:id/revisions',
    {
      schema: {
        params: z.object({ id: zId }),
        querystring: z.object({
          // Versions older than this revision (the next page of the list).
          before: zRevision.optional(),
          limit: z.coerce
            .number({ error: 'must be a number' })
            .int('must be a whole number')
            .min(1, 'must be 1 or more')
            .max(500, 'must be at most 500')
            .default(100),
        }),
        response: { 200: z.object({ head: z.number().int(), items: z.array(zVersion) }) },
      },
    },
    (request) => workspaces.revisions(requireUser(request).id, request.params.id, request.query),
  );

  api.get(
    '/api/workspace/:id/revisions/:revision',
    {
      schema: {
        params: zVersionParams,
        response: {
          200: z.object({
            name: z.string(),
            type: z.enum(WORKSPACE_TYPES),
            version: zVersion,
            data: z.unknown(),
          }),
        },
      },
    },
    async (request, reply) => {
      const found = await workspaces.version(requireUser(request).id, request.params.id, request.params.revision);
      const head = JSON.stringify({ name: found.name, type: found.type, version: found.summary }).slice(0, -1);
      // The rebuilt document's bytes spliced in, as the editor's own GET does.
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(Buffer.concat([Buffer.from(`${head},"data":`), found.data, Buffer.from('}')]) as never);
    },
  );

  api.post(
    '/api/workspace/:id/revisions/:revision/restore',
    {
      schema: {
        params: zVersionParams,
        response: { 200: z.object({ revision: z.number().int() }) },
      },
    },
    async (request) => ({
      revision: await workspaces.restore(requireUser(request).id, request.params.id, request.params.revision, {
        tab: tabOf(request.headers['x-koma-tab']),
        device: deviceLabel(request.headers['user-agent']),
      }),
    }),
  );

  api.post(
    '/api/workspace/:id/revisions/:revision/copy',
    {
      schema: {
        params: zVersionParams,
        body: z
          .object({ name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters') })
          .partial()
          .optional(),
        response: { 201: z.object({ id: z.string() }) },
      },
    },
    async (request, reply) => {
      const id = await workspaces.copyVersion(
        requireUser(request).id,
        request.params.id,
        request.params.revision,
        request.body?.name,
      );
      return reply.status(201).send({ id });
    },
  );
}
