import type { JobsTable } from './schema.ts';

export type JobStatus = JobsTable['status'];

/** One line of the NDJSON stream (docs/api-generation.md). */
export type JobEvent =
  | {
      status: 'IN_QUEUE';
      job_id: string;
      queue_position: number;
      /** First event of a submission only: words moderation stripped from the prompts. */
      stripped?: readonly { field: string; terms: readonly string[] }[];
      /** First event of a submission only: the credits charged. */
      cost?: number;
    }
  | {
      status: 'IN_PROGRESS';
      job_id: string;
      logs: string[];
      progress?: number;
      preview?: string;
      /** The expected run time, learned from the engine's recent speed (jobs/estimates.ts). */
      estimate_ms?: number;
    }
  | { status: 'COMPLETED'; job_id: string; output: unknown }
  | {
      status: 'FAILED';
      job_id: string;
      error: string;
      code?: string;
      /** Credits given back (0 when nothing had been charged). */
      refunded?: number;
    };

export const FINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['COMPLETED', 'FAILED']);

/** What goes over the event bus: a job's event, or a note that a lane's queue moved (positions changed). */
export type BusMessage = { type: 'job'; userId: string; event: JobEvent } | { type: 'lane'; lane: string };

/** A job failure as stored and streamed. */
export interface JobFailure {
  code: string;
  message: string;
}
