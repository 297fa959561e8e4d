import { WORKSPACE_TYPES } from '@koma/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser, SESSION_COOKIE } from '../http/auth.ts';
import { deviceLabel } from '../http/device-label.ts';
import { unauthorized } from '../http/errors.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { zId, zPagination } from './schemas.ts';

const zName = z.string().trim().min(1, 'must not be empty').max(200);
// The data is checked by the domain codec in the service, which names the bad path; here only "present".
const zData = z.unknown().refine((value) => value !== undefined, 'is required');
const zThumbnail = z.string().min(1).optional();
const zParams = z.object({ id: zId });

// Whole GET replies by the cached document bytes they wrap: an entry lives exactly as long as the
// document cache keeps those bytes, and is rebuilt when the name (or anything else in the head) changed.
const replies = new WeakMap<Buffer, { head: string; body: Buffer }>();

/** The stored document bytes spliced into the reply, without parsing and re-serialising 300 KB. */
function replyBody(head: string, data: Buffer): Buffer {
  const cached = replies.get(data);
  if (cached?.head === head) return cached.body;
  const body = Buffer.concat([Buffer.from(head), data, Buffer.from('}')]);
  replies.set(data, { head, body });
  return body;
}

/** The tab that made a save, so its own live stream can skip it; any short token the editor chose. */
export function tabOf(header: string | string[] | undefined): string | null {
  return typeof header === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(header) ? header : null;
}

/** Workspace calls of editor.md §7 plus the dashboard's list, rename, duplicate and delete (history: history.ts). */
export function workspaceRoutes(app: FastifyInstance): void {
  const { workspaces } = app.koma;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/workspaces',
    {
      schema: {
        querystring: zPagination,
        response: {
          200: z.object({
            items: z.array(
              z.object({
                id: z.string(),
                name: z.string(),
                type: z.enum(WORKSPACE_TYPES),
                thumbnailUrl: z.string().nullable(),
                updatedAt: z.string(),
                revision: z.number().int(),
              }),
            ),
            page: z.number().int(),
            pageSize: z.number().int(),
            total: z.number().int(),
          }),
        },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      const { items, total } = await workspaces.list(requireUser(request).id, page, pageSize);
      return { items, page, pageSize, total };
    },
  );

  api.post(
    '/api/workspace',
    {
      config: { documentFields: ['data'] },
      schema: {
        body: z.object({ name: zName, data: zData, thumbnail: zThumbnail, type: z.enum(WORKSPACE_TYPES).optional() }),
        response: { 201: z.object({ id: z.string() }) },
      },
    },
    async (request, reply) => {
      const id = await workspaces.create(requireUser(request).id, request.body, {
        tab: tabOf(request.headers['x-koma-tab']),
        device: deviceLabel(request.headers['user-agent']),
      });
      return reply.status(201).send({ id });
    },
  );

  api.get(
    '/api/workspace/:id',
    {
      // The handler checks the session itself, in the same query that reads the workspace head.
      config: { resolvesOwnSession: true },
      schema: {
        params: zParams,
        response: {
          200: z.object({ name: z.string(), data: z.unknown(), type: z.enum(WORKSPACE_TYPES), revision: z.number() }),
        },
      },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      const found = token ? await workspaces.getForSession(token, request.params.id) : null;
      if (!found) throw unauthorized();
      request.user = found.user;
      const { workspace } = found;
      const head = `{"name":${JSON.stringify(workspace.name)},"type":${JSON.stringify(workspace.type)},"revision":${workspace.revision},"data":`;
      const body = replyBody(head, workspace.data);
      // Fastify sends a Buffer as-is; the schema above still documents the shape.
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(body as never);
    },
  );

  api.put(
    '/api/workspace/:id',
    {
      config: { documentFields: ['data'] },
      schema: {
        params: zParams,
        body: z.object({ data: zData, thumbnail: zThumbnail, revision: z.number().int().min(1).optional() }),
        response: { 200: z.object({ thumbnailUrls: z.array(z.string()), revision: z.number().int() }) },
      },
    },
    (request) =>
      workspaces.save(
        requireUser(request).id,
        request.params.id,
        request.body,
        tabOf(request.headers['x-koma-tab']),
        deviceLabel(request.headers['user-agent']),
      ),
  );

  api.post(
    '/api/workspace/:id/patches',
    {
      // Values inside the operations are pieces of the saved document: the codec repairs their text.
      config: { documentFields: ['patch'] },
      schema: {
        params: zParams,
        body: z.object({
          // The revision the patch was made against: it must still be the head.
          revision: z.number().int().min(1),
          // RFC 6902 operations (add, remove, replace); checked and applied by the service, which names the bad one.
          patch: z.array(z.unknown()),
          thumbnail: zThumbnail,
        }),
        response: { 200: z.object({ thumbnailUrls: z.array(z.string()), revision: z.number().int() }) },
      },
    },
    (request) =>
      workspaces.savePatch(
        requireUser(request).id,
        request.params.id,
        request.body,
        tabOf(request.headers['x-koma-tab']),
        deviceLabel(request.headers['user-agent']),
      ),
  );

  // Live updates (issue 14 item 3): server-sent events, one stream per open editor. `head` first (so a tab that
  // reconnects catches up), then `saved` for every new revision, from this process or (with Redis) any other.
  const streams = new Set<() => void>();
  app.addHook('preClose', (done) => {
    for (const end of [...streams]) end();
    done();
  });
  api.get('/api/workspace/:id/events', { schema: { params: zParams } }, async (request, reply) => {
    const userId = requireUser(request).id;
    const id = request.params.id;
    const head = await workspaces.head(userId, id);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    send('head', { revision: head });
    const unsubscribe = workspaces.events.subscribe(id, (saved) => {
      send('saved', { revision: saved.revision, tab: saved.tab });
    });
    // Proxies drop a quiet connection; a comment line every 20 s keeps it open.
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 20_000);
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(end);
      if (!res.writableEnded) res.end();
    };
    streams.add(end);
    res.on('close', end);
  });

  api.patch(
    '/api/workspace/:id',
    {
      schema: {
        params: zParams,
        body: z.object({ name: zName }),
        response: { 200: z.object({ id: z.string(), name: z.string() }) },
      },
    },
    (request) => workspaces.rename(requireUser(request).id, request.params.id, request.body.name),
  );

  api.post(
    '/api/workspace/:id/duplicate',
    { schema: { params: zParams, response: { 201: z.object({ id: z.string() }) } } },
    async (request, reply) => {
      const id = await workspaces.duplicate(requireUser(request).id, request.params.id);
      return reply.status(201).send({ id });
    },
  );

  api.delete('/api/workspace/:id', { schema: { params: zParams } }, async (request, reply) => {
    await workspaces.delete(requireUser(request).id, request.params.id);
    return reply.status(204).send();
  });
}
