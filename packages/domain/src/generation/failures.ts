/**
 * Why a generation job failed, as one word the server sends with a FAILED event and the web translates. Engines,
 * the job pipeline and the web share this list so that a failure always reaches the user as a reason in words.
 */
export const JOB_FAILURE_CODES = [
  /** The request broke a rule (sizes, counts, missing inputs). */
  'validation',
  /** Moderation refused the prompt or an input. */
  'moderation_blocked',
  /** The engine could not be reached at all (connection refused, DNS, TLS). */
  'engine_unreachable',
  /** The engine refused our credentials (API key, token, basic auth). */
  'engine_auth',
  /** The engine kept answering "too many requests" after every retry. */
  'engine_rate_limited',
  /** The engine lacks a model file (checkpoint, LoRA, ControlNet, upscaler) the job needs. */
  'model_missing',
  /** The engine lacks a node or extension the job's workflow needs (ComfyUI custom nodes). */
  'node_missing',
  /** The engine rejected the request or workflow as invalid. */
  'engine_rejected',
  /** The engine ran out of (GPU) memory. */
  'out_of_memory',
  /** An input or the output is larger than the engine or Koma accepts. */
  'input_too_large',
  /** The engine stopped answering within the job's time limit. */
  'timeout',
  /** The connection to the engine broke while the job ran. */
  'connection_lost',
  /** The user (or an administrator) cancelled the job. */
  'cancelled',
  /** Anything else the engine reported; the message carries its words. */
  'engine_failed',
] as const;

export type JobFailureCode = (typeof JOB_FAILURE_CODES)[number];

export function isJobFailureCode(value: unknown): value is JobFailureCode {
  return typeof value === 'string' && (JOB_FAILURE_CODES as readonly string[]).includes(value);
}
