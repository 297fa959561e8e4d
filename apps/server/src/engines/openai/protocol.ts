/**
 * OpenAI Images API knowledge (engines.md §3) as of openai-node 6.49 and 7.57 (src/resources/images.ts, the same in both): which models
 * exist and what they accept, sizes, and the mapping of the SDK's errors onto our failure reasons.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { EngineError } from '../errors.ts';

export const GPT_SIZES = [
  { size: '1024x1024', width: 1024, height: 1024 },
  { size: '1536x1024', width: 1536, height: 1024 },
  { size: '1024x1536', width: 1024, height: 1536 },
] as const;

/**
 * What each image model takes (images.ts doc comments): `gpt-image-1` was shut down on 2026-10-23; the 2.x
 * models take any WIDTHxHEIGHT (multiples of 16, aspect 1:3 to 3:1) but no `input_fidelity`; `input_fidelity:
 * "high"` (keep faces and details of the input) exists on gpt-image-1.5, while gpt-image-1-mini only has low.
 */
export interface ImageModelTraits {
  flexibleSizes: boolean;
  highFidelity: boolean;
}

export function modelTraits(model: string): ImageModelTraits {
  if (/^gpt-image-2/.test(model)) return { flexibleSizes: true, highFidelity: false };
  if (model === 'gpt-image-1.5' || model.startsWith('gpt-image-1.5-'))
    return { flexibleSizes: false, highFidelity: true };
  return { flexibleSizes: false, highFidelity: false };
}

export const DEFAULT_IMAGE_MODEL = 'gpt-image-1.5';

/** The gpt-image size whose aspect ratio is closest to the request (the 1.x models render only these three). */
export function nearestGptSize(width: number, height: number): (typeof GPT_SIZES)[number] {
  const distance = (s: (typeof GPT_SIZES)[number]) => Math.abs(Math.log(s.width / s.height) - Math.log(width / height));
  return GPT_SIZES.reduce((best, s) => (distance(s) < distance(best) ? s : best));
}

/**
 * A size for the 2.x models: the requested aspect clamped to 1:3..3:1, at most 2560x1440 worth of pixels
 * (larger is experimental), at least 1024 on the long edge, both sides multiples of 16.
 */
export function flexibleSize(width: number, height: number): { size: string; width: number; height: number } {
  const ratio = Math.min(3, Math.max(1 / 3, width / height));
  const maxPixels = 2560 * 1440;
  let w = width;
  let h = w / ratio;
  const scale = Math.min(Math.sqrt(maxPixels / (w * h)), 1) * Math.max(1, 1024 / Math.max(w, h));
  w *= scale;
  h *= scale;
  const r16 = (n: number) => Math.max(16, Math.round(n / 16) * 16);
  const out = { width: r16(w), height: r16(h) };
  return { size: `${out.width}x${out.height}`, ...out };
}

const BLOCK_CODES = new Set(['moderation_blocked', 'content_policy_violation']);

/**
 * Any error of the SDK (after its own retries) or of the image stream, as one of our reasons with OpenAI's words.
 * Stream `error` events arrive with or without the `{error}` wrapper; the SDK hands both over as APIError.
 */
export function openAiError(err: unknown, signal: AbortSignal): EngineError {
  if (err instanceof EngineError) return err;
  if (err instanceof APIUserAbortError || signal.aborted) return new EngineError('cancelled', 'The job was cancelled');
  if (err instanceof APIConnectionTimeoutError) return new EngineError('timeout', 'OpenAI did not answer in time', err);
  if (err instanceof APIConnectionError) {
    const cause = err.cause instanceof Error ? err.cause : undefined;
    const code = (cause as { code?: unknown } | undefined)?.code;
    const refused = typeof code === 'string' && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|UNREACH|CONNECT_TIMEOUT/.test(code);
    return new EngineError(
      refused ? 'engine_unreachable' : 'connection_lost',
      refused ? `OpenAI is unreachable: ${cause?.message ?? err.message}` : 'The connection to OpenAI broke',
      err,
    );
  }
  if (!(err instanceof APIError)) {
    // undici ends a body whose connection broke with TypeError("terminated"), cause UND_ERR_SOCKET.
    const causeCode = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
    if (err instanceof TypeError && (err.message === 'terminated' || causeCode === 'UND_ERR_SOCKET')) {
      return new EngineError('connection_lost', 'The connection to OpenAI broke while the image was streaming', err);
    }
    const message = err instanceof Error ? err.message : String(err);
    return new EngineError('engine_failed', `OpenAI failed: ${message}`, err);
  }
  const detail = (err.error as { message?: unknown } | undefined)?.message;
  const words = typeof detail === 'string' && detail ? detail : err.message;
  const code = err.code ?? undefined;
  if (code && BLOCK_CODES.has(code))
    return new EngineError('moderation_blocked', `OpenAI blocked the request: ${words}`, err);
  switch (err.status) {
    case 401:
    case 403:
      return new EngineError('engine_auth', `OpenAI rejected the API key (HTTP ${err.status}): ${words}`, err);
    case 429:
      return new EngineError(
        'engine_rate_limited',
        code === 'insufficient_quota'
          ? `OpenAI says the account has no quota left: ${words}`
          : `OpenAI kept rate limiting this account after retrying: ${words}`,
        err,
      );
    case 413:
      return new EngineError('input_too_large', `OpenAI refused an input as too large: ${words}`, err);
    case undefined:
      // An error event inside the stream: the request was accepted, the generation failed.
      return new EngineError('engine_failed', `OpenAI stopped the image: ${words}${code ? ` (${code})` : ''}`, err);
    default:
      if (err.status >= 400 && err.status < 500) {
        return new EngineError('engine_rejected', `OpenAI rejected the request: ${words}`, err);
      }
      return new EngineError('engine_failed', `OpenAI failed (HTTP ${err.status}): ${words}`, err);
  }
}
