/**
 * Engine health over HTTP: `GET /api/engines/availability` (any signed-in user: which catalogue models and LoRAs
 * can run, for the model tab) and `GET/POST /api/admin/engines` (the capability check, for the status view).
 * Admins are the accounts listed in `ENGINE_ADMIN_EMAILS` (comma separated); Koma has no admin role yet.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ConfiguredEngineRouter, EngineRouter } from '../engines/index.ts';
import { requireUser } from '../http/auth.ts';
import { forbidden, HttpError } from '../http/errors.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const zAvailability = z.object({
  available: z.boolean(),
  engine: z.string(),
  reason: z.string().optional(),
  previewsOff: z.boolean().optional(),
});
const zAvailabilityReply = z.object({
  checked: z.boolean(),
  models: z.record(z.string(), zAvailability),
  loras: z.record(z.string(), zAvailability),
});

export function adminEmails(env: NodeJS.ProcessEnv = process.env): Set<string> {
  return new Set(
    (env.ENGINE_ADMIN_EMAILS ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );
}

function withStatus(
  router: EngineRouter,
): Pick<ConfiguredEngineRouter, 'checkEngines' | 'lastStatus' | 'modelAvailability'> {
  const { checkEngines, lastStatus, modelAvailability } = router;
  if (!checkEngines || !lastStatus || !modelAvailability) {
    throw new HttpError(503, 'engine_status_unavailable', 'This server has no engine status (test router)');
  }
  return { checkEngines, lastStatus, modelAvailability };
}

export function engineRoutes(app: FastifyInstance, admins = adminEmails()): void {
  const router = (): EngineRouter => app.koma.jobs.deps.router;
  const requireAdmin = (request: Parameters<typeof requireUser>[0]) => {
    const user = requireUser(request);
    if (!admins.has(user.email.toLowerCase())) {
      throw forbidden('Only the accounts listed in ENGINE_ADMIN_EMAILS can see the engine status');
    }
  };
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get('/api/engines/availability', { schema: { response: { 200: zAvailabilityReply } } }, (request) => {
    requireUser(request);
    const status = withStatus(router());
    return { checked: status.lastStatus() !== undefined, ...status.modelAvailability() };
  });

  typed.get('/api/admin/engines', (request) => {
    requireAdmin(request);
    const status = withStatus(router());
    return status.lastStatus() ?? status.checkEngines();
  });

  typed.post('/api/admin/engines/check', (request) => {
    requireAdmin(request);
    return withStatus(router()).checkEngines();
  });
}
