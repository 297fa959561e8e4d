import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.ts';
import type { ServerConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { installAuth } from './http/auth.ts';
import { installBodyGuard } from './http/body-guard.ts';
import { HttpError, installErrorHandlers } from './http/errors.ts';
import { installOpenApi } from './http/openapi.ts';
import serverPackage from '../package.json' with { type: 'json' };
import { acquireRedis } from './redis.ts';
import { Readiness } from './readiness.ts';
import { useMetricsDatabase } from './metrics.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { createJobService, type JobOptions } from './jobs/index.ts';
import { deleteExpiredSessions } from './repositories/sessions.ts';
import { authRoutes } from './routes/auth.ts';
import { creditRoutes } from './routes/credits.ts';
import { engineRoutes } from './routes/engines.ts';
import { flowImageRoutes } from './routes/flow-images.ts';
import { generationRoutes } from './routes/generation.ts';
import { healthRoutes } from './routes/health.ts';
import { imageRoutes } from './routes/images.ts';
import { loraRoutes } from './routes/lora.ts';
import { preferenceRoutes } from './routes/preferences.ts';
import { workspaceRoutes } from './routes/workspaces.ts';
import { historyRoutes } from './routes/history.ts';
import { Accounts } from './services/accounts.ts';
import { MemoryAttemptStore, RedisAttemptStore, SigninLimiter } from './services/attempt-limiter.ts';
import { CreditLedger } from './services/credit-ledger.ts';
import { DocumentCache } from './services/document-cache.ts';
import { HeadCache } from './services/head-cache.ts';
import { ImageStore } from './services/image-store.ts';
import { Workspaces } from './services/workspaces.ts';
import { createWorkspaceEvents } from './services/workspace-events.ts';
import { createBlobStore } from './storage/blob-store.ts';

export type { AppContext } from './app-context.ts';

/** Test and embedding seams; production passes none. */
export interface BuildOptions {
  /** Pino logger options, or false for silence (tests). Default: pino at config.logLevel. */
  logger?: boolean | { level: string };
  now?: () => Date;
  /** Job pipeline seams (engine router, vision, queue settings); default: from the environment. */
  jobs?: JobOptions;
  /** More routes, registered after the core ones with `app.koma` available (e.g. generation routes in tests). */
  routes?: ((app: FastifyInstance) => void | Promise<void>)[];
}

/**
 * Builds the API server: opens the database (running migrations) and the image store, registers every
 * route, and serves the built web app when it exists. Close the instance to release both.
 */
export async function buildApp(config: ServerConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const now = options.now ?? (() => new Date());
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const blobs = createBlobStore(config.storage);
  const ledger = new CreditLedger(database.db, database.dialect, now);
  const images = new ImageStore(database.db, blobs, config, now);
  const accounts = new Accounts(database.db, ledger, config, now);
  const workspaces = new Workspaces(
    database.db,
    database.dialect,
    images,
    new DocumentCache(config.documentCacheBytes),
    now,
    config.sessionIdleDays * 24 * 3600 * 1000,
    createWorkspaceEvents(config.redisUrl, config.redisKeyPrefix),
    config.history,
    new HeadCache(config.headCacheBytes),
  );
  const signinLimiter = new SigninLimiter(
    config.redisUrl
      ? new RedisAttemptStore(config.redisUrl, config.redisKeyPrefix)
      : new MemoryAttemptStore(() => now().getTime()),
    { ip: config.signinRateLimit, account: config.signinAccountLimit },
  );
  const jobs = createJobService({ database, images, blobs, now }, options.jobs);
  const readiness = new Readiness({
    db: database.db,
    blobs,
    redisUrl: config.redisUrl,
    router: jobs.deps.router,
  });
  const stopMetrics = useMetricsDatabase(database.db);
  // Limits shared by every API process when Redis is there; otherwise each process counts alone.
  const rateLimitRedis = config.redisUrl ? acquireRedis(config.redisUrl) : undefined;
  const context: AppContext = {
    config,
    database,
    blobs,
    ledger,
    images,
    accounts,
    workspaces,
    jobs,
    now,
    signinLimiter,
  };
  await deleteExpiredSessions(database.db, now().toISOString(), accounts.idleSince().toISOString());

  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    // While shutting down, new requests get 503 and requests in flight finish.
    return503OnClosing: true,
  });
  app.decorate('koma', context);
  // Failed jobs are logged with the server's own logger unless the caller gave the pipeline one.
  if (!options.jobs?.log) jobs.deps.log = app.log;
  app.addHook('onClose', async () => {
    await workspaces.events.close();
    await jobs.close();
    await signinLimiter.close();
    await readiness.close();
    await rateLimitRedis?.release();
    stopMetrics();
    blobs.close();
    await database.close();
  });

  installSecurityHeaders(app);
  installErrorHandlers(app, spaFallback(config.webDist));
  installBodyGuard(app);
  await installOpenApi(app, serverPackage.version);
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    ...(rateLimitRedis ? { redis: rateLimitRedis.client, nameSpace: `${config.redisKeyPrefix}rate:` } : {}),
    errorResponseBuilder: (_request, limit) =>
      new HttpError(429, 'rate_limited', `Too many attempts; try again in ${Math.ceil(limit.ttl / 1000)} s.`),
  });
  installAuth(app, accounts, config.allowedOrigins);

  healthRoutes(app, readiness);
  authRoutes(app);
  workspaceRoutes(app);
  historyRoutes(app);
  imageRoutes(app);
  creditRoutes(app);
  preferenceRoutes(app);
  flowImageRoutes(app);
  loraRoutes(app);
  engineRoutes(app);
  generationRoutes(app, jobs);
  await jobs.start();
  for (const register of options.routes ?? []) await register(app);

  if (fs.existsSync(path.join(config.webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      setHeaders: (reply, filePath) => {
        // Vite fingerprints everything under assets/; index.html must be revalidated to pick up new builds.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  return app;
}

/** Non-/api GETs that match no file get index.html, so client-side routes survive a reload. */
function spaFallback(webDist: string): ((url: string) => boolean) | undefined {
  return fs.existsSync(path.join(webDist, 'index.html')) ? (url) => !url.startsWith('/api') : undefined;
}
