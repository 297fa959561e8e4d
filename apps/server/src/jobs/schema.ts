/** Tables of the job pipeline (migration 0002_jobs), merged into the database type. */
export interface JobsTable {
  id: string;
  user_id: string;
  /** A JobKind (registry.ts). */
  kind: string;
  /** The worker pool the job runs in (concurrency is per lane). */
  lane: string;
  status: 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  /** Submission order: queue order and queue positions (bigint; PostgreSQL hands it back as a string). */
  seq: number | string;
  /** The engine chosen when the job was created (builtin, comfyui, fal, openai, vision, chat). */
  engine: string;
  cost: number;
  /** What the charge took from each bucket, so a refund puts it back where it came from. */
  charged_credits: number;
  charged_purchased: number;
  /** 1 once the charge was given back (a failed or cancelled job). */
  refunded: number;
  /** JSON: the normalised, moderated request with every image as a stored image id. */
  inputs: string;
  /** JSON: the COMPLETED output. */
  output: string | null;
  /** JSON: `{ code, message }` of a FAILED job. */
  error: string | null;
  /** JSON: the submitting client's tag (migration 0003), handed back with the job and never read by the server. */
  client: string | null;
  /** Times the job was started (a restart re-queues an IN_PROGRESS job once). */
  attempts: number;
  /**
   * Which BullMQ run token claimed the job (migration 0008): written in the same update that claims it, so a
   * token coming back from a dead worker finds the job it held even when the worker died right after claiming.
   */
  claim_key: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** Videos made by image-to-video jobs: bytes in the blob store under `video-<id>`. */
export interface JobVideosTable {
  id: string;
  user_id: string;
  mime: string;
  byte_size: number;
  created_at: string;
}

/**
 * A paid request's `Idempotency-Key`, per user: the job it created and a hash of the request, so that a retry of the
 * same request gets that job back (no second charge) and a different request under the same key is refused.
 */
export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  job_id: string;
  created_at: string;
}

declare module '../db/schema.ts' {
  interface DB {
    jobs: JobsTable;
    job_videos: JobVideosTable;
    idempotency_keys: IdempotencyKeysTable;
  }
}
