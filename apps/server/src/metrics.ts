import { sql } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from './db/database.ts';

/**
 * Prometheus metrics of this process (API or worker), served at GET /metrics. Counters and histograms count what
 * happened in this process; the job and queue gauges are read from the database at scrape time, so every process
 * reports the same cluster-wide numbers (a scrape of any one is enough for those).
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'koma_' });

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export const httpRequests = new Counter({
  name: 'koma_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'koma_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method and route pattern',
  labelNames: ['method', 'route'] as const,
  buckets: seconds,
  registers: [metricsRegistry],
});

export const jobsFinished = new Counter({
  name: 'koma_jobs_finished_total',
  help: 'Jobs this process ran to an end, by kind and final state (COMPLETED or FAILED)',
  labelNames: ['kind', 'state'] as const,
  registers: [metricsRegistry],
});

export const jobWait = new Histogram({
  name: 'koma_job_queue_wait_seconds',
  help: 'Time from submission to the first start of a job, by lane',
  labelNames: ['lane'] as const,
  buckets: seconds,
  registers: [metricsRegistry],
});

export const engineDuration = new Histogram({
  name: 'koma_engine_call_duration_seconds',
  help: 'Time an engine call took, by engine and task kind',
  labelNames: ['engine', 'task'] as const,
  buckets: seconds,
  registers: [metricsRegistry],
});

export const engineErrors = new Counter({
  name: 'koma_engine_errors_total',
  help: 'Engine calls that failed, by engine, task kind and error code',
  labelNames: ['engine', 'task', 'code'] as const,
  registers: [metricsRegistry],
});

export const creditsCharged = new Counter({
  name: 'koma_credits_charged_total',
  help: 'Credits charged for jobs (plan and purchased together)',
  registers: [metricsRegistry],
});

export const creditsRefunded = new Counter({
  name: 'koma_credits_refunded_total',
  help: 'Credits given back for failed or cancelled jobs',
  registers: [metricsRegistry],
});

// The database the gauges read; the last process part to open one (an API app or a worker) sets it.
let source: Database | undefined;

/** Lets the job gauges read `db` at scrape time; the returned function stops it (on close). */
export function useMetricsDatabase(db: Database): () => void {
  source = db;
  return () => {
    if (source === db) source = undefined;
  };
}

new Gauge({
  name: 'koma_jobs',
  help: 'Jobs in the database, by kind and state',
  labelNames: ['kind', 'state'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    if (!source) return;
    const rows = await source
      .selectFrom('jobs')
      .select(['kind', 'status', sql<number>`count(*)`.as('n')])
      .groupBy(['kind', 'status'])
      .execute();
    for (const row of rows) this.set({ kind: row.kind, state: row.status }, Number(row.n));
  },
});

new Gauge({
  name: 'koma_queue_depth',
  help: 'Jobs waiting to start, by lane',
  labelNames: ['lane'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    if (!source) return;
    const rows = await source
      .selectFrom('jobs')
      .select(['lane', sql<number>`count(*)`.as('n')])
      .where('status', '=', 'IN_QUEUE')
      .groupBy('lane')
      .execute();
    for (const row of rows) this.set({ lane: row.lane }, Number(row.n));
  },
});

new Gauge({
  name: 'koma_queue_oldest_wait_seconds',
  help: 'How long the oldest waiting job of each lane has waited',
  labelNames: ['lane'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    if (!source) return;
    const rows = await source
      .selectFrom('jobs')
      .select(['lane', sql<string>`min(created_at)`.as('oldest')])
      .where('status', '=', 'IN_QUEUE')
      .groupBy('lane')
      .execute();
    for (const row of rows) {
      this.set({ lane: row.lane }, Math.max(0, (Date.now() - Date.parse(String(row.oldest))) / 1000));
    }
  },
});

/** The text a Prometheus scrape reads, with its content type. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
