import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OPERATION_KINDS, operationOf, type OperationKind } from '@koma/domain';
import { z } from 'zod';
import { requireUser } from '../http/auth.ts';
import { HttpError, invalidRequest, notFound } from '../http/errors.ts';
import { isId } from '../ids.ts';
import { findVideo, type JobRow } from '../jobs/repository.ts';
import { refundOf } from '../jobs/runner.ts';
import { engineTable } from '../jobs/engine-table.ts';
import { idempotencyKeyOf } from '../jobs/idempotency.ts';
import type { JobService } from '../jobs/service.ts';

/**
 * Every submitting endpoint and the job kind it creates (docs/api-generation.md): each operation's own endpoint
 * (packages/domain/src/generation/operations), plus the spec's alternative path for SDXL inpainting.
 */
export const GENERATION_ENDPOINTS: Readonly<Record<string, OperationKind>> = {
  ...Object.fromEntries(OPERATION_KINDS.map((kind) => [operationOf(kind).endpoint, kind])),
  '/api/diffusion/sdxl_inpaint': 'inpaint',
};

const zJobParams = z.object({ id: z.string().min(1).max(64) });
const zJobsQuery = z.object({ status: z.enum(['active', 'recent']).default('active') });

/** A failed job's message, its code when it has one (cancelled, validation, …), and the credits given back. */
function failureOf(row: JobRow): { error: string; code?: string; refunded: number } {
  const failure = JSON.parse(row.error ?? '{}') as { message?: string; code?: string };
  return {
    error: failure.message ?? 'The job failed',
    ...(failure.code ? { code: failure.code } : {}),
    refunded: refundOf(row),
  };
}

function jobId(request: FastifyRequest): string {
  const parsed = zJobParams.safeParse(request.params);
  if (!parsed.success || !isId(parsed.data.id)) throw notFound('Job');
  return parsed.data.id;
}

/**
 * The generation and vision endpoints: each POST answers 200 with an NDJSON stream of the job's events, or a
 * JSON error before anything is charged. Plus re-attach, cancel and the list of active jobs.
 */
export function generationRoutes(app: FastifyInstance, jobs: JobService): void {
  // Streams are long-lived: end them (and stop the pool) before the server waits for open connections.
  app.addHook('preClose', async () => jobs.close());
  for (const [path, kind] of Object.entries(GENERATION_ENDPOINTS)) {
    app.post(path, async (request: FastifyRequest, reply: FastifyReply) => {
      const user = requireUser(request);
      const key = idempotencyKeyOf(request.headers);
      const { row, first, replayed } = await jobs.submit(user, kind, request.body, key);
      reply.hijack();
      if (replayed) reply.raw.setHeader('idempotent-replayed', 'true');
      await jobs.stream(row, reply.raw, first);
      // A replayed job was queued by the request that created it.
      if (!replayed) await jobs.enqueue(row);
    });
  }

  // What the editor needs to price and explain generation: which engine runs what (the builtin preview engine is
  // free unless BUILTIN_CHARGES=true) and where the dialogs send people. Computed once: routing is fixed at start.
  const table = engineTable(jobs.deps.router);
  app.get('/api/generation/config', (request) => {
    requireUser(request);
    const { builtinCharges, links } = jobs.deps.config;
    return { builtin_charges: builtinCharges, engines: table, links };
  });

  app.get('/api/jobs/:id/events', async (request, reply) => {
    const user = requireUser(request);
    const row = await jobs.jobOf(user.id, jobId(request));
    reply.hijack();
    await jobs.stream(row, reply.raw);
  });

  app.get('/api/jobs/:id', async (request) => {
    const user = requireUser(request);
    const row = await jobs.jobOf(user.id, jobId(request));
    const summary = await jobs.summary(row);
    return {
      ...summary,
      ...(row.output ? { output: JSON.parse(row.output) as unknown } : {}),
      ...(row.error ? failureOf(row) : {}),
    };
  });

  app.post('/api/jobs/:id/cancel', async (request) => {
    const user = requireUser(request);
    const row = await jobs.jobOf(user.id, jobId(request));
    if (!(await jobs.cancel(row))) {
      throw new HttpError(
        409,
        'job_finished',
        `The job is already ${row.status === 'IN_QUEUE' ? 'finished' : 'done'}.`,
      );
    }
    return { job_id: row.id, status: 'FAILED', cancelled: true };
  });

  app.get('/api/jobs', async (request) => {
    const user = requireUser(request);
    const parsed = zJobsQuery.safeParse(request.query);
    if (!parsed.success) throw invalidRequest('status: must be active or recent');
    return { jobs: parsed.data.status === 'recent' ? await jobs.recent(user.id) : await jobs.active(user.id) };
  });

  app.get('/api/videos/:id', async (request, reply) => {
    const user = requireUser(request);
    const id = jobId(request);
    const video = await findVideo(jobs.deps.db, user.id, id);
    const bytes = video ? await jobs.deps.blobs.get(`video-${video.id}`) : null;
    if (!video || !bytes) throw notFound('Video');
    return reply.header('content-type', video.mime).header('cache-control', 'private, max-age=31536000').send(bytes);
  });
}
