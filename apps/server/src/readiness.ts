import { sql } from 'kysely';
import type { Database } from './db/database.ts';
import type { EngineRouter } from './engines/router.ts';
import { acquireRedis, type SharedRedis } from './redis.ts';
import type { BlobStore } from './storage/blob-store.ts';

/** One dependency's answer: reachable or not, how long it took, and why not. */
export interface CheckResult {
  ok: boolean;
  ms: number;
  error?: string;
  /** Engines without a reachability probe are listed as configured, not checked. */
  checked?: boolean;
}

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, CheckResult>;
}

/** Each check gets this long; a dependency slower than this counts as down (a load balancer is waiting). */
const CHECK_TIMEOUT_MS = 3000;
/** A key that is never written: reading it proves the store answers without touching real data. */
const PROBE_KEY = 'koma-readiness-probe';

/** An engine that can say whether its server answers (the engines' owners add it per engine). */
interface ProbedEngine {
  reachable(signal: AbortSignal): Promise<void>;
}
const hasProbe = (engine: unknown): engine is ProbedEngine =>
  typeof (engine as Partial<ProbedEngine>).reachable === 'function';

async function timed(run: (signal: AbortSignal) => Promise<unknown>): Promise<CheckResult> {
  const started = Date.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      run(controller.signal),
      new Promise((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`));
        }, CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, ms: Date.now() - started };
  } catch (err) {
    return { ok: false, ms: Date.now() - started, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /api/ready of the API and of a worker: the database, Redis (when configured), the image store and each
 * configured engine. Holds its own share of the process's Redis connection; close it on shutdown.
 */
export class Readiness {
  private readonly redis: SharedRedis | undefined;

  constructor(
    private readonly parts: {
      db: Database;
      blobs: BlobStore;
      redisUrl: string | undefined;
      router: EngineRouter;
    },
  ) {
    this.redis = parts.redisUrl ? acquireRedis(parts.redisUrl) : undefined;
  }

  async check(): Promise<ReadinessReport> {
    const checks: Record<string, CheckResult> = {};
    const pending: Promise<void>[] = [];
    const add = (name: string, run: (signal: AbortSignal) => Promise<unknown>): void => {
      pending.push(timed(run).then((result) => void (checks[name] = result)));
    };
    add('database', () => sql`select 1`.execute(this.parts.db));
    const redis = this.redis;
    if (redis) add('redis', () => redis.client.ping());
    add('storage', () => this.parts.blobs.get(PROBE_KEY));
    for (const [id, engine] of this.parts.router.engines) {
      if (hasProbe(engine)) add(`engine:${id}`, (signal) => engine.reachable(signal));
      else checks[`engine:${id}`] = { ok: true, ms: 0, checked: false };
    }
    await Promise.all(pending);
    const ready = Object.values(checks).every((c) => c.ok);
    return { status: ready ? 'ready' : 'not_ready', checks };
  }

  async close(): Promise<void> {
    await this.redis?.release();
  }
}
