import type { JobsTable } from './schema.ts';

export type JobStatus = JobsTable['status'];

/** One line of the NDJSON stream (docs/api-generation.md). */
export type JobEvent =
  | { status: 'IN_QUEUE'; job_id: string; queue_position: number }
  | { status: 'IN_PROGRESS'; job_id: string; logs: string[]; progress?: number; preview?: string }
  | { status: 'COMPLETED'; job_id: string; output: unknown }
  | { status: 'FAILED'; job_id: string; error: string; code?: string };

export const FINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['COMPLETED', 'FAILED']);

/** What goes over the event bus: a job's event, or a note that a lane's queue moved (positions changed). */
export type BusMessage = { type: 'job'; userId: string; event: JobEvent } | { type: 'lane'; lane: string };

/** A job failure as stored and streamed. */
export interface JobFailure {
  code: string;
  message: string;
}
