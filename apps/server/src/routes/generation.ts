import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../http/auth.ts';
import { HttpError, invalidRequest, notFound } from '../http/errors.ts';
import { isId } from '../ids.ts';
import { findVideo } from '../jobs/repository.ts';
import type { JobService } from '../jobs/service.ts';

/** Every submitting endpoint and the job kind it creates (docs/api-generation.md). */
export const GENERATION_ENDPOINTS: Readonly<Record<string, string>> = {
  '/api/diffusion/txt2img': 'txt2img',
  '/api/diffusion/img2img': 'img2img',
  '/api/diffusion/inpaint': 'inpaint',
  '/api/diffusion/sdxl_inpaint': 'inpaint',
  '/api/diffusion/smd': 'smd',
  '/api/diffusion/outpaint': 'outpaint',
  '/api/diffusion/refine': 'refine',
  '/api/diffusion/face_edit': 'face_edit',
  '/api/regional': 'regional',
  '/api/edit': 'edit',
  '/api/video': 'video',
  '/api/prompt_expansion': 'prompt_expansion',
  '/api/upscale': 'upscale',
  '/api/background': 'background',
  '/api/pose': 'pose',
  '/api/face_detection': 'face_detection',
};

const zJobParams = z.object({ id: z.string().min(1).max(64) });
const zJobsQuery = z.object({ status: z.enum(['active', 'recent']).default('active') });

/** A failed job's message, and its code when it has one (cancelled, validation, …). */
function failureOf(error: string): { error: string; code?: string } {
  const failure = JSON.parse(error) as { message: string; code?: string };
  return { error: failure.message, ...(failure.code ? { code: failure.code } : {}) };
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
      const row = await jobs.submit(user, kind, request.body);
      reply.hijack();
      await jobs.stream(row, reply.raw);
      await jobs.enqueue(row);
    });
  }

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
      ...(row.error ? failureOf(row.error) : {}),
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
