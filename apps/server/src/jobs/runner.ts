import sharp from 'sharp';
import { EngineError } from '../engines/errors.ts';
import type { EngineProgress } from '../engines/types.ts';
import { VisionAbortedError, VisionInputError } from '../vision/index.ts';
import { jobsFinished, jobWait } from '../metrics.ts';
import type { JobDeps } from './deps.ts';
import type { JobBus } from './events.ts';
import { runJob } from './kinds/pipeline.ts';
import { claimNext, completeJob, failJob, type JobRow } from './repository.ts';
import { failpoint } from './failpoints.ts';
import type { JobFailure } from './types.ts';

/** Previews are sent as small JPEG data URLs; larger ones are shrunk first. */
const MAX_PREVIEW_BYTES = 48 * 1024;
const PREVIEW_SIDE = 192;

/** Why an abort happened: the user cancelled, or the process is shutting down (the job stays for recovery). */
export type AbortReason = 'cancelled' | 'shutdown';

/** Turns anything a job threw into the failure stored and streamed (messages are for the user). */
export function toFailure(err: unknown): JobFailure {
  if (err instanceof EngineError) return { code: err.code, message: err.message };
  if (err instanceof VisionInputError) return { code: 'validation', message: err.message };
  if (err instanceof VisionAbortedError) return { code: 'cancelled', message: 'The job was cancelled' };
  return { code: 'engine_failed', message: err instanceof Error ? err.message : String(err) };
}

async function previewUrl(preview: NonNullable<EngineProgress['preview']>): Promise<string> {
  let { bytes, mime } = preview;
  if (bytes.length > MAX_PREVIEW_BYTES || mime !== 'image/jpeg') {
    bytes = await sharp(bytes).resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside' }).jpeg({ quality: 70 }).toBuffer();
    mime = 'image/jpeg';
  }
  return `data:${mime};base64,${bytes.toString('base64')}`;
}

/** The credits a failed job gave back: its whole charge, plan and purchased credits together. */
export function refundOf(row: Pick<JobRow, 'charged_credits' | 'charged_purchased' | 'refunded'>): number {
  return Number(row.refunded) ? Number(row.charged_credits) + Number(row.charged_purchased) : 0;
}

/** One log line for every failed job: which, whose, where it ran, why, and what was given back. */
export function logFailure(deps: JobDeps, row: JobRow, failure: JobFailure, refunded: number): void {
  deps.log.warn(
    {
      job: row.id,
      user: row.user_id,
      kind: row.kind,
      engine: row.engine,
      code: failure.code,
      reason: failure.message,
      refunded,
      attempts: Number(row.attempts),
    },
    `job ${row.id} (${row.kind} on ${row.engine}) failed: ${failure.code}: ${failure.message}`,
  );
}

/**
 * Runs one claimed job to its end: streams progress over the bus, stores the output and completes the row, or
 * fails and refunds it. The final update only lands for this attempt while the row is still IN_PROGRESS, so a
 * job cancelled meanwhile is neither completed nor refunded twice. On shutdown it leaves the row IN_PROGRESS
 * for the next start to re-queue.
 */
export async function executeJob(deps: JobDeps, bus: JobBus, row: JobRow, controller: AbortController): Promise<void> {
  const attempt = Number(row.attempts);
  const jobId = row.id;
  const userId = row.user_id;
  const started = Date.now();
  if (attempt === 1 && row.started_at) {
    jobWait.observe({ lane: row.lane }, (Date.parse(row.started_at) - Date.parse(row.created_at)) / 1000);
  }
  deps.log.info({ job: jobId, user: userId, kind: row.kind, engine: row.engine, attempt }, 'job started');
  bus.publish({ type: 'lane', lane: row.lane });
  bus.publish({
    type: 'job',
    userId,
    event: {
      status: 'IN_PROGRESS',
      job_id: jobId,
      logs: [attempt > 1 ? `Restarted (attempt ${attempt})` : 'Started'],
      progress: 0,
    },
  });
  // Progress events are converted in order (previews take a moment to encode).
  let chain = Promise.resolve();
  const report = (p: EngineProgress & { estimateMs?: number }): void => {
    chain = chain
      .then(async () => {
        if (controller.signal.aborted) return;
        const preview = p.preview ? await previewUrl(p.preview) : undefined;
        bus.publish({
          type: 'job',
          userId,
          event: {
            status: 'IN_PROGRESS',
            job_id: jobId,
            logs: p.logs ?? [],
            ...(p.progress !== undefined ? { progress: p.progress } : {}),
            ...(preview ? { preview } : {}),
            ...(p.estimateMs !== undefined ? { estimate_ms: p.estimateMs } : {}),
          },
        });
      })
      .catch(() => undefined);
  };
  try {
    const job = { id: jobId, userId, kind: row.kind, engine: row.engine, inputs: JSON.parse(row.inputs) as unknown };
    const output = await runJob(deps, job, report, controller.signal);
    await chain;
    if (controller.signal.reason === 'shutdown') return;
    if (await completeJob(deps.db, jobId, attempt, output, deps.now())) {
      jobsFinished.inc({ kind: row.kind, state: 'COMPLETED' });
      deps.log.info({ job: jobId, kind: row.kind, ms: Date.now() - started }, 'job completed');
      bus.publish({ type: 'job', userId, event: { status: 'COMPLETED', job_id: jobId, output } });
    }
  } catch (err) {
    await chain;
    if (controller.signal.reason === 'shutdown') return;
    const failure = controller.signal.aborted
      ? { code: 'cancelled', message: 'The job was cancelled' }
      : toFailure(err);
    const failed = await failJob(deps.db, jobId, failure, deps.now(), ['IN_PROGRESS'], attempt);
    if (failed) {
      jobsFinished.inc({ kind: row.kind, state: 'FAILED' });
      const refunded = refundOf(failed);
      logFailure(deps, failed, failure, refunded);
      bus.publish({
        type: 'job',
        userId,
        event: { status: 'FAILED', job_id: jobId, error: failure.message, code: failure.code, refunded },
      });
    }
  } finally {
    bus.publish({ type: 'lane', lane: row.lane });
  }
}

/**
 * Runs the jobs of each lane in this process with a fixed concurrency per lane. Queued jobs wait as rows (no
 * per-job memory): when a slot frees up, the pool claims the oldest queued row of the lane.
 */
export class LanePool {
  private readonly active = new Map<string, number>();
  private readonly filling = new Set<string>();
  private readonly refill = new Set<string>();
  private readonly running = new Map<string, { row: JobRow; controller: AbortController; done: Promise<void> }>();
  private closed = false;
  private readonly offCancel: () => void;
  /** Hears every row this pool claims (tracing). */
  onClaim: ((row: JobRow) => void) | undefined;

  constructor(
    private readonly deps: JobDeps,
    private readonly bus: JobBus,
    private readonly concurrency: Record<string, number>,
    /** Lanes this pool serves (all when undefined). */
    private readonly lanes?: readonly string[],
  ) {
    this.offCancel = bus.onCancel((jobId) => this.running.get(jobId)?.controller.abort('cancelled'));
  }

  serves(lane: string): boolean {
    return this.lanes === undefined || this.lanes.includes(lane);
  }

  /** Fills the lane's free slots from its queued rows. */
  kick(lane: string): void {
    if (this.closed || !this.serves(lane)) return;
    if (this.filling.has(lane)) {
      this.refill.add(lane);
      return;
    }
    this.filling.add(lane);
    void this.fill(lane).finally(() => this.filling.delete(lane));
  }

  /**
   * Claims and runs at most one queued job of the lane (BullMQ workers call this per token). `claimKey` is written
   * on the row by the claiming update, so the token that carries it can find the row again if this process dies.
   */
  async runOne(lane: string, claimKey: string): Promise<void> {
    if (this.closed) return;
    const row = await claimNext(this.deps.db, lane, this.deps.now(), claimKey);
    if (!row) return;
    failpoint('kill-after-claim');
    await this.start(row);
  }

  private async fill(lane: string): Promise<void> {
    const limit = this.concurrency[lane] ?? 1;
    do {
      this.refill.delete(lane);
      while (!this.closed && (this.active.get(lane) ?? 0) < limit) {
        const row = await claimNext(this.deps.db, lane, this.deps.now()).catch(() => undefined);
        if (!row) break;
        this.active.set(lane, (this.active.get(lane) ?? 0) + 1);
        void this.start(row).finally(() => {
          this.active.set(lane, (this.active.get(lane) ?? 1) - 1);
          this.kick(lane);
        });
      }
    } while (this.refill.has(lane) && !this.closed);
  }

  private start(row: JobRow): Promise<void> {
    this.onClaim?.(row);
    const controller = new AbortController();
    const done = executeJob(this.deps, this.bus, row, controller)
      .catch(() => undefined)
      .finally(() => this.running.delete(row.id));
    this.running.set(row.id, { row, controller, done });
    return done;
  }

  get runningCount(): number {
    return this.running.size;
  }

  /** Stops claiming and aborts running jobs without failing them (the next start re-queues them); returns them. */
  async close(): Promise<JobRow[]> {
    this.closed = true;
    this.offCancel();
    const all = [...this.running.values()];
    for (const r of all) r.controller.abort('shutdown');
    await Promise.all(all.map((r) => r.done));
    return all.map((r) => r.row);
  }
}
