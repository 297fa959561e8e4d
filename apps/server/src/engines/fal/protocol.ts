/** zod schemas of the fal queue API (engines.md §2.2) and the error bodies it sends. */
import { z } from 'zod';
import { EngineError } from '../errors.ts';

export const zSubmitted = z.looseObject({
  request_id: z.string().min(1),
  status_url: z.string().optional(),
  response_url: z.string().optional(),
  cancel_url: z.string().optional(),
  queue_position: z.number().optional(),
});

const zLog = z.looseObject({ message: z.string() });

export const zStatus = z.looseObject({
  status: z.string(),
  queue_position: z.number().optional(),
  logs: z.array(zLog).nullable().optional(),
});

const zFile = z.looseObject({
  url: z.string().min(1),
  content_type: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
});

export const zImagesOutput = z.looseObject({
  images: z.array(zFile).min(1),
  has_nsfw_concepts: z.array(z.boolean()).optional(),
  seed: z.number().optional(),
});
export const zImageOutput = z.looseObject({ image: zFile });
export const zVideoOutput = z.looseObject({ video: zFile });

const zDetailItem = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])).optional(),
  msg: z.string(),
  type: z.string().optional(),
});
const zErrorBody = z.looseObject({
  detail: z.union([z.string(), z.array(zDetailItem)]).optional(),
  error_type: z.string().optional(),
});

/**
 * Maps a non-2xx fal reply onto our error codes: 422 → validation (or moderation when a detail's type says
 * content policy), 504 timeouts → timeout, 401/403 → a key problem, anything else → engine_failed.
 */
export function falHttpError(status: number, body: unknown, what: string, errorTypeHeader: string | null): EngineError {
  const parsed = zErrorBody.safeParse(body);
  const detail = parsed.success ? parsed.data.detail : undefined;
  const errorType = (parsed.success ? parsed.data.error_type : undefined) ?? errorTypeHeader ?? undefined;
  const text = Array.isArray(detail)
    ? detail.map((d) => `${(d.loc ?? []).filter((l) => l !== 'body').join('.') || 'input'}: ${d.msg}`).join('; ')
    : (detail ?? (errorType ? errorType.replace(/_/g, ' ') : `HTTP ${status}`));
  const types = Array.isArray(detail) ? detail.map((d) => d.type ?? '') : [];
  if (types.some((t) => /content_policy|nsfw|moderation/i.test(t))) {
    return new EngineError('moderation_blocked', `fal blocked the request: ${text}`, body);
  }
  if (status === 422) return new EngineError('validation', `fal rejected the input: ${text}`, body);
  if (status === 401 || status === 403)
    return new EngineError('engine_auth', `fal rejected the API key (HTTP ${status})`, body);
  if (status === 413) return new EngineError('input_too_large', `fal refused an input as too large: ${text}`, body);
  if (status === 504 || errorType?.endsWith('timeout'))
    return new EngineError('timeout', `fal timed out: ${text}`, body);
  if (status === 429) {
    return new EngineError('engine_rate_limited', `fal kept rate limiting this account after retrying: ${text}`, body);
  }
  return new EngineError('engine_failed', `fal failed ${what}: ${text}`, body);
}

/** Numeric progress from free-text log lines such as `step 5/28`, `Progress: 5/28` or ` 40%|████`. */
export function progressFromLog(message: string): number | undefined {
  const ratio = /(\d+)\s*\/\s*(\d+)/.exec(message);
  if (ratio) {
    const [n, m] = [Number(ratio[1]), Number(ratio[2])];
    if (m > 0 && n <= m) return n / m;
  }
  const percent = /(\d{1,3}(?:\.\d+)?)\s*%/.exec(message);
  if (percent) {
    const p = Number(percent[1]);
    if (p <= 100) return p / 100;
  }
  return undefined;
}
