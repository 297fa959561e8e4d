import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobDeps } from './deps.ts';
import type { JobBus } from './events.ts';
import type { LanePool } from './runner.ts';
import { recoverJob } from './recovery.ts';
import { jobClaimedBy } from './repository.ts';

/**
 * What a run token carries: the job it was added for and, once a worker takes it, the key that worker's claim
 * writes on the row. `claimed` is what tokens of earlier versions recorded after claiming (still honoured, for
 * tokens left in Redis across an upgrade).
 */
interface TokenData {
  jobId: string;
  claimKey?: string;
  claimed?: { id: string; attempt: number };
}

/**
 * BullMQ carries run tokens, one per job: a worker that takes a token claims the oldest queued row of the lane
 * (the database stays the one source of truth for order, status and credits, so queue_position is exact and a
 * cancelled job's token just finds nothing). BullMQ gives the distribution over worker processes, their
 * concurrency and the hand-over of tokens held by a worker that died (stalled-job detection).
 */
export class BullQueues {
  private readonly queues = new Map<string, Queue>();
  private readonly connection: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    this.connection = new Redis(url, { maxRetriesPerRequest: null });
  }

  private queue(lane: string): Queue {
    let queue = this.queues.get(lane);
    if (!queue) {
      queue = new Queue(`jobs-${lane}`, { connection: this.connection, prefix: this.prefix });
      this.queues.set(lane, queue);
    }
    return queue;
  }

  /** Adds one run token to the lane. */
  async enqueue(lane: string, jobId: string): Promise<void> {
    await this.queue(lane).add('run', { jobId }, { removeOnComplete: true, removeOnFail: true, attempts: 1 });
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    await this.connection.quit().catch(() => undefined);
  }
}

/** The consuming side, in `npm run worker` processes: one BullMQ worker per lane with that lane's concurrency. */
export function startBullWorkers(
  url: string,
  prefix: string,
  pool: LanePool,
  concurrency: Record<string, number>,
  recovery: { deps: JobDeps; bus: JobBus },
  workerOptions: { lockDuration?: number; stalledInterval?: number } = {},
): { close(): Promise<void> } {
  const workers = Object.entries(concurrency)
    .filter(([lane]) => pool.serves(lane))
    .map(
      ([lane, n]) =>
        new Worker<TokenData>(
          `jobs-${lane}`,
          async (token) => {
            // A token seen again after its worker died (BullMQ stalled detection) recovers the row it had
            // claimed: re-queued once, or failed and refunded; then it claims the oldest queued row as usual.
            // The key goes into the token before the claim and onto the row with it, so there is no moment when
            // the database says a row is running and no token knows which.
            const { claimKey, claimed } = token.data;
            if (claimed) await recoverJob(recovery.deps, recovery.bus, claimed.id, claimed.attempt);
            if (claimKey) {
              const held = await jobClaimedBy(recovery.deps.db, claimKey);
              if (held) await recoverJob(recovery.deps, recovery.bus, held.id, Number(held.attempts));
            }
            const key = randomUUID();
            await token.updateData({ jobId: token.data.jobId, claimKey: key });
            await pool.runOne(lane, key);
          },
          {
            connection: new Redis(url, { maxRetriesPerRequest: null }),
            prefix,
            concurrency: n,
            maxStalledCount: 1,
            ...workerOptions,
            removeOnComplete: { count: 0 },
            removeOnFail: { count: 0 },
          },
        ),
    );
  return {
    async close() {
      await Promise.allSettled(workers.map((w) => w.close()));
    },
  };
}
