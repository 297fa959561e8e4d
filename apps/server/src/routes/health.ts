import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { httpDuration, httpRequests, scrape } from '../metrics.ts';
import type { Readiness } from '../readiness.ts';

const check = z.object({
  ok: z.boolean(),
  ms: z.number(),
  error: z.string().optional(),
  checked: z.boolean().optional(),
});
const readyReport = z.object({ status: z.enum(['ready', 'not_ready']), checks: z.record(z.string(), check) });

/**
 * GET /api/health: liveness (the process answers; no dependency is asked, so a database outage does not get
 * every API process restarted). GET /api/ready: readiness (database, Redis, storage, engines), 503 while any is
 * down, for load balancers. GET /metrics: Prometheus. Every response is counted and timed by route pattern.
 */
export function healthRoutes(app: FastifyInstance, readiness: Readiness): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/api/health',
    {
      schema: { response: { 200: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']) }) } },
    },
    () => Promise.resolve({ status: 'ok' as const, database: app.koma.database.dialect }),
  );
  typed.get('/api/ready', { schema: { response: { 200: readyReport, 503: readyReport } } }, async (_request, reply) => {
    const report = await readiness.check();
    return reply.code(report.status === 'ready' ? 200 : 503).send(report);
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const { contentType, body } = await scrape();
    return reply.type(contentType).send(body);
  });
}
