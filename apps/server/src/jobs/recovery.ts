// Recovery after a process died mid-job: used by the in-process pool at start-up (service.ts) and by BullMQ
// workers when a token comes back from a dead worker (bullmq.ts).
import type { JobDeps } from './deps.ts';
import type { JobBus } from './events.ts';
import { failJob, requeueJob, runningJobs } from './repository.ts';
import { logFailure, refundOf } from './runner.ts';

/** A job started more than this many times (restarts) is failed and refunded instead of re-queued. */
export const MAX_ATTEMPTS = 2;

/**
 * After a restart (in-process mode): a job left IN_PROGRESS is re-queued once; one that was already restarted
 * is failed and refunded. Either way it is never charged again and never lost.
 */
export async function recoverInterrupted(deps: JobDeps, bus: JobBus): Promise<{ requeued: number; failed: number }> {
  let requeued = 0;
  let failed = 0;
  for (const row of await runningJobs(deps.db)) {
    const outcome = await recoverJob(deps, bus, row.id, Number(row.attempts));
    if (outcome === 'requeued') requeued++;
    else if (outcome === 'failed') failed++;
  }
  return { requeued, failed };
}

/**
 * Recovers one job whose run on `attempt` was interrupted (its process died): re-queued while it has attempts
 * left, else failed and refunded. Does nothing when the job has moved on since (finished, or a newer attempt).
 */
export async function recoverJob(
  deps: JobDeps,
  bus: JobBus,
  jobId: string,
  attempt: number,
): Promise<'requeued' | 'failed' | 'none'> {
  if (attempt < MAX_ATTEMPTS) return (await requeueJob(deps.db, jobId, attempt)) ? 'requeued' : 'none';
  const failure = { code: 'interrupted', message: 'The job was interrupted twice by a server restart' };
  const row = await failJob(deps.db, jobId, failure, deps.now(), ['IN_PROGRESS'], attempt);
  if (!row) return 'none';
  const refunded = refundOf(row);
  logFailure(deps, row, failure, refunded);
  bus.publish({
    type: 'job',
    userId: row.user_id,
    event: { status: 'FAILED', job_id: row.id, error: failure.message, code: failure.code, refunded },
  });
  return 'failed';
}
