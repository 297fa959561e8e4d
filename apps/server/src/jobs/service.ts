import type { ServerResponse } from 'node:http';
import { notFound } from '../http/errors.ts';
import { newId } from '../ids.ts';
import type { PublicUser } from '../repositories/users.ts';
import { BullQueues } from './bullmq.ts';
import type { JobDeps } from './deps.ts';
import { LocalJobBus, RedisJobBus, type JobBus } from './events.ts';
import { splitClientTag } from './client-tag.ts';
import { discardImages, prepareJob } from './kinds/pipeline.ts';
import { IDEMPOTENCY_WINDOW_MS, keyReused, requestHash } from './idempotency.ts';
import {
  IdempotencyKeyTaken,
  activeJobs,
  deleteIdempotencyKey,
  findIdempotencyKey,
  recentTaggedJobs,
  failJob,
  getJob,
  insertJobWithCharge,
  queuedLanes,
  queuePosition,
  type JobRow,
} from './repository.ts';
import { recoverInterrupted } from './recovery.ts';
import { LanePool, logFailure, refundOf } from './runner.ts';
import { FINAL_STATUSES, type JobEvent, type JobFailure } from './types.ts';

/** Streams re-read their job this often, in case a bus message was lost (Redis reconnect). */
const POLL_MS = 1000;
/** How far back `GET /api/jobs?status=recent` looks, and how many it lists. */
const RECENT_JOBS_MS = 24 * 60 * 60 * 1000;
const RECENT_JOBS_LIMIT = 50;

/** The event that ends a stream, from a finished row. */
export function finalEvent(row: JobRow): JobEvent {
  if (row.status === 'COMPLETED') {
    return { status: 'COMPLETED', job_id: row.id, output: JSON.parse(row.output ?? 'null') as unknown };
  }
  const failure = JSON.parse(row.error ?? '{}') as Partial<JobFailure>;
  return {
    status: 'FAILED',
    job_id: row.id,
    error: failure.message ?? 'The job failed',
    ...(failure.code ? { code: failure.code } : {}),
    refunded: refundOf(row),
  };
}

/** A submitted job, and the fields its stream's first event carries for the submitter only. */
export interface Submitted {
  row: JobRow;
  first: { cost: number; stripped?: readonly { field: string; terms: readonly string[] }[] };
  /** The job an earlier request with the same Idempotency-Key created: nothing new was charged or queued. */
  replayed?: boolean;
}

/** A job as GET /api/jobs lists it. */
export interface JobSummary {
  job_id: string;
  kind: string;
  status: JobRow['status'];
  engine: string;
  cost: number;
  attempts: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  queue_position?: number;
  /** The tag the client submitted the job with (`client` in the request body), as given. */
  client?: unknown;
}

/**
 * The job pipeline as the HTTP routes see it: submit (validate, moderate, price, charge and insert in one
 * transaction, enqueue), stream a job's events as NDJSON, cancel, list, and recover after a restart.
 */
export class JobService {
  readonly bus: JobBus;
  private readonly pool: LanePool | undefined;
  private readonly bull: BullQueues | undefined;
  private readonly streams = new Set<ServerResponse>();

  constructor(readonly deps: JobDeps) {
    const { config } = deps;
    this.bus = config.redisUrl ? new RedisJobBus(config.redisUrl, config.queuePrefix) : new LocalJobBus();
    this.pool = config.runLocally ? new LanePool(deps, this.bus, config.concurrency) : undefined;
    this.bull = config.redisUrl && !config.runLocally ? new BullQueues(config.redisUrl, config.queuePrefix) : undefined;
  }

  /** Waits for the bus, then (in-process mode) re-queues what a previous process left running and starts the pools. */
  async start(): Promise<void> {
    if (this.bus instanceof RedisJobBus) await this.bus.ready;
    if (!this.pool) return;
    await recoverInterrupted(this.deps, this.bus);
    for (const lane of await queuedLanes(this.deps.db)) this.pool.kick(lane);
  }

  /**
   * Checks, prices, charges and queues a job; throws HttpError (nothing charged) on a bad request. Returns the
   * row and what the submitter should hear first: the words moderation stripped, and the charge.
   */
  async submit(user: PublicUser, kind: string, body: unknown, idempotencyKey?: string): Promise<Submitted> {
    const idempotency = idempotencyKey ? { key: idempotencyKey, hash: requestHash(kind, body) } : undefined;
    // A retry is answered before anything is checked or stored again.
    if (idempotency) {
      const earlier = await this.replay(user.id, idempotency);
      if (earlier) return earlier;
    }
    const { body: request, client } = splitClientTag(body);
    const { stripped, stored, ...prepared } = await prepareJob(this.deps, user, kind, request);
    try {
      const row = await insertJobWithCharge(
        this.deps.db,
        this.deps.dialect,
        { id: newId(), userId: user.id, kind, ...prepared, client },
        this.deps.now(),
        idempotency,
      );
      return { row, first: { cost: Number(row.cost), ...(stripped.length > 0 ? { stripped } : {}) } };
    } catch (error) {
      // Refused at the charge (or beaten to the key): the images this request stored go again.
      await discardImages(this.deps, user.id, stored);
      // Another request with this key committed first (its transaction held ours back): answer with its job.
      if (error instanceof IdempotencyKeyTaken && idempotency) {
        const earlier = await this.replay(user.id, idempotency);
        if (earlier) return earlier;
      }
      throw error;
    }
  }

  /**
   * The job an Idempotency-Key of the user already stands for, when the request is the same; 422 when the key was
   * used for a different request; undefined when the key is new or its 24 h window has passed (it is then freed).
   */
  private async replay(userId: string, idempotency: { key: string; hash: string }): Promise<Submitted | undefined> {
    const found = await findIdempotencyKey(this.deps.db, userId, idempotency.key);
    if (!found) return undefined;
    if (this.deps.now().getTime() - Date.parse(found.created_at) >= IDEMPOTENCY_WINDOW_MS) {
      await deleteIdempotencyKey(this.deps.db, userId, idempotency.key, found.created_at);
      return undefined;
    }
    if (found.request_hash !== idempotency.hash) throw keyReused(idempotency.key);
    const row = await getJob(this.deps.db, found.job_id);
    if (!row) return undefined;
    return { row, first: { cost: Number(row.cost) }, replayed: true };
  }

  /** Hands a freshly inserted job to the queue (after its stream has sent IN_QUEUE). */
  async enqueue(row: JobRow): Promise<void> {
    if (this.pool) this.pool.kick(row.lane);
    else if (this.bull) await this.bull.enqueue(row.lane, row.id);
  }

  /** A job of the user's, or 404 (another user's job looks absent). */
  async jobOf(userId: string, id: string): Promise<JobRow> {
    const row = await getJob(this.deps.db, id);
    if (!row || row.user_id !== userId) throw notFound('Job');
    return row;
  }

  async summary(row: JobRow): Promise<JobSummary> {
    return {
      job_id: row.id,
      kind: row.kind,
      status: row.status,
      engine: row.engine,
      cost: Number(row.cost),
      attempts: Number(row.attempts),
      created_at: row.created_at,
      started_at: row.started_at,
      finished_at: row.finished_at,
      ...(row.status === 'IN_QUEUE' ? { queue_position: await queuePosition(this.deps.db, row) } : {}),
      ...(row.client ? { client: JSON.parse(row.client) as unknown } : {}),
    };
  }

  async active(userId: string): Promise<JobSummary[]> {
    const rows = await activeJobs(this.deps.db, userId);
    return Promise.all(rows.map((r) => this.summary(r)));
  }

  /** Tagged jobs that ended in the last day (at most 50, newest first), for clients that were away meanwhile. */
  async recent(userId: string): Promise<JobSummary[]> {
    const since = new Date(this.deps.now().getTime() - RECENT_JOBS_MS).toISOString();
    const rows = await recentTaggedJobs(this.deps.db, userId, since, RECENT_JOBS_LIMIT);
    return Promise.all(rows.map((r) => this.summary(r)));
  }

  /**
   * Cancels a queued or running job: FAILED with code cancelled and refunded in one transaction, then the
   * process running it is told to abort. False when the job had already finished.
   */
  async cancel(row: JobRow): Promise<boolean> {
    const failure = { code: 'cancelled', message: 'The job was cancelled' };
    const failed = await failJob(this.deps.db, row.id, failure, this.deps.now(), ['IN_QUEUE', 'IN_PROGRESS']);
    if (!failed) return false;
    const refunded = refundOf(failed);
    logFailure(this.deps, failed, failure, refunded);
    this.bus.publishCancel(row.id);
    this.bus.publish({
      type: 'job',
      userId: row.user_id,
      event: { status: 'FAILED', job_id: row.id, error: failure.message, code: failure.code, refunded },
    });
    this.bus.publish({ type: 'lane', lane: row.lane });
    return true;
  }

  /**
   * Streams a job's events as NDJSON on a raw response: first its current state (IN_QUEUE with its position,
   * the last IN_PROGRESS, or the final event at once), then every change until the final event. A dropped
   * connection only stops the stream; the job goes on.
   */
  async stream(row: JobRow, res: ServerResponse, first: Partial<Submitted['first']> = {}): Promise<void> {
    res.writeHead(200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'cache-control': 'no-cache',
      'x-job-id': row.id,
    });
    this.streams.add(res);
    let finished = false;
    let phase: 'queued' | 'running' = 'queued';
    let lastPosition = Number.POSITIVE_INFINITY;
    let refreshing = false;
    let again = false;
    const cleanups: (() => void)[] = [];
    const end = (): void => {
      if (finished) return;
      finished = true;
      for (const c of cleanups) c();
      this.streams.delete(res);
      res.end();
    };
    const send = (event: JobEvent): void => {
      if (finished) return;
      res.write(`${JSON.stringify(event)}\n`);
      if (event.status === 'COMPLETED' || event.status === 'FAILED') end();
    };
    const onEvent = (event: JobEvent): void => {
      if (event.status === 'IN_QUEUE') return;
      if (event.status === 'IN_PROGRESS') phase = 'running';
      send(event);
    };
    // Positions are recomputed from the rows whenever the lane moves; they are only ever sent when they fall.
    // A final row seen by a later refresh is only streamed from the row on the next look: until then the bus
    // gets the chance to deliver the job's last progress and its COMPLETED in order (they are published after
    // the row is written). A stream attaching to a finished job gets the final event at once.
    let finalSeen = false;
    let initial = true;
    const refresh = async (): Promise<void> => {
      if (refreshing) {
        again = true;
        return;
      }
      refreshing = true;
      try {
        do {
          again = false;
          const current = await getJob(this.deps.db, row.id);
          if (finished || !current) return;
          if (FINAL_STATUSES.has(current.status)) {
            if (initial || finalSeen) send(finalEvent(current));
            finalSeen = true;
            return;
          }
          if (current.status === 'IN_PROGRESS' && phase === 'queued') {
            phase = 'running';
            send(this.bus.progressOf(row.id) ?? { status: 'IN_PROGRESS', job_id: row.id, logs: [] });
          }
          if (current.status === 'IN_QUEUE' && phase === 'queued') {
            const position = await queuePosition(this.deps.db, current);
            if (position < lastPosition && !finished && phase === 'queued') {
              const extra = lastPosition === Number.POSITIVE_INFINITY ? first : {};
              lastPosition = position;
              send({ status: 'IN_QUEUE', job_id: row.id, queue_position: position, ...extra });
            }
          }
        } while (again && !finished);
      } catch {
        // The database went away (shutdown); close() ends the stream.
      } finally {
        refreshing = false;
        initial = false;
      }
    };
    cleanups.push(this.bus.onJob(row.id, onEvent));
    cleanups.push(this.bus.onLane(row.lane, () => void refresh()));
    const timer = setInterval(() => void refresh(), POLL_MS);
    cleanups.push(() => clearInterval(timer));
    res.on('close', end);
    await refresh();
  }

  private closing: Promise<void> | undefined;

  /**
   * Ends every open stream, stops the pool (running jobs stay IN_PROGRESS for recovery) and the queues. Runs
   * once (preClose, so open streams do not hold the server open; onClose again is a no-op).
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    for (const res of [...this.streams]) {
      this.streams.delete(res);
      res.end();
    }
    await this.pool?.close();
    await this.bull?.close();
    await this.bus.close();
  }
}
