import { sql } from 'kysely';
import type { Database, DatabaseDialect } from '../db/database.ts';
import { newId } from '../ids.ts';
import { creditsCharged, creditsRefunded } from '../metrics.ts';
import { lockBalance, splitCharge, writeEntry } from '../services/credit-ledger.ts';
import type { JobsTable } from './schema.ts';
import type { JobFailure, JobStatus } from './types.ts';
import './schema.ts';

export type JobRow = JobsTable;

let lastSeq = 0;
/** Microseconds since the epoch, strictly increasing in this process: the queue order of new jobs. */
export function nextSeq(nowMs: number): number {
  lastSeq = Math.max(lastSeq + 1, nowMs * 1000);
  return lastSeq;
}

export interface NewJob {
  id: string;
  userId: string;
  kind: string;
  lane: string;
  engine: string;
  cost: number;
  inputs: unknown;
  /** The client's tag as JSON text, or null. */
  client?: string | null;
}

/**
 * Inserts a job and charges its cost in one transaction (plan credits first, then purchased), through the
 * ledger's own entry writer, with the job id as ref. Throws not_enough_credits (400)
 * and writes nothing when the balance is short.
 */
/** Thrown inside the insert transaction when another request already holds the job's Idempotency-Key. */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('The Idempotency-Key is already in use');
  }
}

/** The job an Idempotency-Key of the user stands for, if any. */
export async function findIdempotencyKey(
  db: Database,
  userId: string,
  key: string,
): Promise<{ request_hash: string; job_id: string; created_at: string } | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'job_id', 'created_at'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Forgets a key that has outlived its window, so it can stand for a new request. */
export async function deleteIdempotencyKey(
  db: Database,
  userId: string,
  key: string,
  createdAt: string,
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .where('created_at', '=', createdAt)
    .execute();
}

export async function insertJobWithCharge(
  db: Database,
  dialect: DatabaseDialect,
  job: NewJob,
  now: Date,
  idempotency?: { key: string; hash: string },
): Promise<JobRow> {
  const inserted = await db.transaction().execute(async (trx) => {
    if (idempotency) {
      // First, so that of two requests racing with one key the second waits here and then inserts nothing.
      const claimed = await trx
        .insertInto('idempotency_keys')
        .values({
          user_id: job.userId,
          key: idempotency.key,
          request_hash: idempotency.hash,
          job_id: job.id,
          created_at: now.toISOString(),
        })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) throw new IdempotencyKeyTaken();
    }
    let fromCredits = 0;
    let fromPurchased = 0;
    if (job.cost > 0) {
      ({ fromCredits, fromPurchased } = splitCharge(await lockBalance(trx, dialect, job.userId), job.cost));
      await writeEntry(trx, {
        userId: job.userId,
        kind: 'charge',
        creditsDelta: -fromCredits,
        purchasedDelta: -fromPurchased,
        reason: `job ${job.kind}`,
        ref: job.id,
        at: now,
      });
    }
    const row: JobRow = {
      id: job.id,
      user_id: job.userId,
      kind: job.kind,
      lane: job.lane,
      status: 'IN_QUEUE',
      seq: nextSeq(now.getTime()),
      engine: job.engine,
      cost: job.cost,
      charged_credits: fromCredits,
      charged_purchased: fromPurchased,
      refunded: 0,
      inputs: JSON.stringify(job.inputs),
      output: null,
      error: null,
      attempts: 0,
      claim_key: null,
      client: job.client ?? null,
      created_at: now.toISOString(),
      started_at: null,
      finished_at: null,
    };
    await trx.insertInto('jobs').values(row).execute();
    return row;
  });
  creditsCharged.inc(Number(inserted.charged_credits) + Number(inserted.charged_purchased));
  return inserted;
}

export async function getJob(db: Database, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Claims the oldest queued job of a lane for running: IN_QUEUE → IN_PROGRESS, attempts + 1. Safe with several
 * processes claiming at once (the update re-checks the status; a lost race tries the next row).
 */
export async function claimNext(
  db: Database,
  lane: string,
  now: Date,
  claimKey: string | null = null,
): Promise<JobRow | undefined> {
  for (let tries = 0; tries < 20; tries++) {
    const next = await db
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', 'IN_QUEUE')
      .where('lane', '=', lane)
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
    if (!next) return undefined;
    const claimed = await db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'IN_PROGRESS',
        attempts: eb('attempts', '+', 1),
        started_at: now.toISOString(),
        claim_key: claimKey,
      }))
      .where('id', '=', next.id)
      .where('status', '=', 'IN_QUEUE')
      .returningAll()
      .executeTakeFirst();
    if (claimed) return claimed;
  }
  return undefined;
}

/** The running job a run token claimed, if any (the token came back from a worker that died). */
export async function jobClaimedBy(db: Database, claimKey: string): Promise<JobRow | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('claim_key', '=', claimKey)
    .where('status', '=', 'IN_PROGRESS')
    .executeTakeFirst();
}

/** IN_PROGRESS → COMPLETED for the attempt that ran; false when the job was cancelled or failed meanwhile. */
export async function completeJob(
  db: Database,
  id: string,
  attempt: number,
  output: unknown,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'COMPLETED', output: JSON.stringify(output), finished_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'IN_PROGRESS')
    .where('attempts', '=', attempt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Fails a job that is still in one of `from` (and, when given, still on `attempt`), and gives back what its
 * charge took, in the same transaction. Only the caller whose update wins refunds, so a job is refunded
 * exactly once however many paths (engine failure, cancel, restart) race to fail it. Returns the failed row.
 */
export async function failJob(
  db: Database,
  id: string,
  failure: JobFailure,
  now: Date,
  from: readonly JobStatus[],
  attempt?: number,
): Promise<JobRow | undefined> {
  const failed = await db.transaction().execute(async (trx) => {
    let update = trx
      .updateTable('jobs')
      .set({ status: 'FAILED', error: JSON.stringify(failure), finished_at: now.toISOString(), refunded: 1 })
      .where('id', '=', id)
      .where('status', 'in', [...from]);
    if (attempt !== undefined) update = update.where('attempts', '=', attempt);
    const row = await update.returningAll().executeTakeFirst();
    if (!row) return undefined;
    const credits = Number(row.charged_credits);
    const purchased = Number(row.charged_purchased);
    if (credits + purchased > 0) {
      await writeEntry(trx, {
        userId: row.user_id,
        kind: 'refund',
        creditsDelta: credits,
        purchasedDelta: purchased,
        reason: `job ${row.kind} ${failure.code}`,
        ref: row.id,
        at: now,
      });
    }
    return row;
  });
  if (failed) creditsRefunded.inc(Number(failed.charged_credits) + Number(failed.charged_purchased));
  return failed;
}

/** Jobs ahead of this one in its lane (0 = next to run). */
export async function queuePosition(db: Database, job: Pick<JobRow, 'lane' | 'seq'>): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'IN_QUEUE')
    .where('lane', '=', job.lane)
    .where('seq', '<', job.seq)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's queued and running jobs, oldest first. */
export async function activeJobs(db: Database, userId: string): Promise<JobRow[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', ['IN_QUEUE', 'IN_PROGRESS'])
    .orderBy('seq')
    .execute();
}

/**
 * A user's tagged jobs that ended since `sinceIso`, newest first, at most `limit`: what a client that was away
 * may still have to land (a placeholder layer waiting for an image started in another browser, say).
 */
export async function recentTaggedJobs(
  db: Database,
  userId: string,
  sinceIso: string,
  limit: number,
): Promise<JobRow[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', ['COMPLETED', 'FAILED'])
    .where('client', 'is not', null)
    .where('finished_at', '>', sinceIso)
    .orderBy('finished_at', 'desc')
    .limit(limit)
    .execute();
}

/** Jobs a dead process left running. */
export async function runningJobs(db: Database): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('status', '=', 'IN_PROGRESS').orderBy('seq').execute();
}

/**
 * IN_PROGRESS → IN_QUEUE (restart recovery), keeping the attempt count; `forgive` takes the attempt back (a
 * worker stopping gracefully hands its job on without using up a retry).
 */
export async function requeueJob(db: Database, id: string, attempt: number, forgive = false): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'IN_QUEUE', started_at: null, attempts: forgive ? attempt - 1 : attempt })
    .where('id', '=', id)
    .where('status', '=', 'IN_PROGRESS')
    .where('attempts', '=', attempt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Lanes that have queued jobs (to restart their pools after a restart). */
export async function queuedLanes(db: Database): Promise<string[]> {
  const rows = await db.selectFrom('jobs').select('lane').distinct().where('status', '=', 'IN_QUEUE').execute();
  return rows.map((r) => r.lane);
}

/** Records a video's owner and type; its bytes go to the blob store under `video-<id>`. */
export async function recordVideo(
  db: Database,
  userId: string,
  mime: string,
  size: number,
  now: Date,
): Promise<string> {
  const id = newId();
  await db
    .insertInto('job_videos')
    .values({ id, user_id: userId, mime, byte_size: size, created_at: now.toISOString() })
    .execute();
  return id;
}

export async function findVideo(db: Database, userId: string, id: string) {
  return db
    .selectFrom('job_videos')
    .select(['id', 'mime'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

// Kept for a raw count in tests and the bench without importing kysely there.
export const countRows = (db: Database, status: JobStatus) =>
  db
    .selectFrom('jobs')
    .select(sql<number>`count(*)`.as('n'))
    .where('status', '=', status)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
