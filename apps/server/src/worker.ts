import { pino } from 'pino';
import { loadConfig } from './config.ts';
import { useMetricsDatabase } from './metrics.ts';
import { Readiness } from './readiness.ts';
import { startWorkerHttp } from './worker-http.ts';
import { openDatabase } from './db/database.ts';
import { BullQueues, startBullWorkers } from './jobs/bullmq.ts';
import { RedisJobBus } from './jobs/events.ts';
import { createJobDeps } from './jobs/index.ts';
import { requeueJob } from './jobs/repository.ts';
import { LanePool } from './jobs/runner.ts';
import { ImageStore } from './services/image-store.ts';
import { sweepOrphanBlobs } from './services/orphan-sweep.ts';
import { createBlobStore } from './storage/blob-store.ts';
import { closeVision } from './vision/index.ts';

/**
 * `npm run worker`: runs queued jobs from BullMQ on Redis (REDIS_URL) against the same database and image
 * storage as the HTTP server; progress goes back to the HTTP processes over Redis pub/sub. JOB_LANES limits
 * which lanes this process serves (e.g. JOB_LANES=background on a machine with memory to spare).
 */
const ORPHAN_SWEEP_MS = 60 * 60 * 1000;
const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const log = pino({ level: process.env.LOG_LEVEL ?? 'info' }).child({ worker: process.pid });

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const blobs = createBlobStore(config.storage);
  const now = () => new Date();
  const images = new ImageStore(database.db, blobs, config, now);
  const deps = createJobDeps({ database, images, blobs, now }, { log });
  const stopMetrics = useMetricsDatabase(database.db);
  const readiness = new Readiness({ db: database.db, blobs, redisUrl: deps.config.redisUrl, router: deps.router });
  const healthPort = process.env.HEALTH_PORT ? Number(process.env.HEALTH_PORT) : undefined;
  const health =
    healthPort === undefined
      ? undefined
      : await startWorkerHttp({ host: config.host, port: healthPort, readiness, log });
  const url = deps.config.redisUrl;
  if (!url) throw new Error('npm run worker needs REDIS_URL (without it the server runs jobs in-process)');
  const bus = new RedisJobBus(url, deps.config.queuePrefix);
  await bus.ready;
  const lanes = process.env.JOB_LANES?.split(',')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const pool = new LanePool(deps, bus, deps.config.concurrency, lanes);
  // JOB_TRACE=1 prints each job this worker claims (the scale-out test counts them per process).
  if (process.env.JOB_TRACE === '1') pool.onClaim = (row) => log.info({ job: row.id, lane: row.lane }, 'claimed');
  const ms = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const lockDuration = ms('JOB_LOCK_MS');
  const stalledInterval = ms('JOB_STALLED_CHECK_MS');
  const workers = startBullWorkers(
    url,
    deps.config.queuePrefix,
    pool,
    deps.config.concurrency,
    { deps, bus },
    {
      ...(lockDuration ? { lockDuration } : {}),
      ...(stalledInterval ? { stalledInterval } : {}),
    },
  );
  log.info({ lanes: lanes ?? 'all', healthPort }, 'koma worker ready');
  // Bytes left without their row by a crash between the two writes go after an hour (several workers may
  // sweep at once; that is harmless).
  const sweep = setInterval(() => {
    sweepOrphanBlobs(database.db, blobs, new Date(Date.now() - ORPHAN_GRACE_MS))
      .then((swept) => {
        if (swept.deleted.length > 0) log.info({ deleted: swept.deleted }, 'deleted orphaned image bytes');
      })
      .catch((err: unknown) => log.warn({ err }, 'orphan sweep failed'));
  }, ORPHAN_SWEEP_MS);
  sweep.unref();

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    clearInterval(sweep);
    // Jobs running here go back to the queue, first in line (their order is their submission), with a new token.
    const interrupted = await pool.close();
    const queues = new BullQueues(url, deps.config.queuePrefix);
    for (const row of interrupted) {
      if (await requeueJob(deps.db, row.id, Number(row.attempts), true)) await queues.enqueue(row.lane, row.id);
    }
    await queues.close();
    await workers.close();
    health?.close();
    await readiness.close();
    stopMetrics();
    await bus.close();
    blobs.close();
    await database.close();
    await closeVision();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err: unknown) => {
  log.fatal({ err }, 'worker could not start');
  process.exit(1);
});
