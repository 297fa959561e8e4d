/** OpenAI Images API shapes (engines.md §3): replies, stream events and error bodies. */
import { z } from 'zod';
import { EngineError } from '../errors.ts';

export const GPT_SIZES = [
  { size: '1024x1024', width: 1024, height: 1024 },
  { size: '1536x1024', width: 1536, height: 1024 },
  { size: '1024x1536', width: 1024, height: 1536 },
] as const;

/** The gpt-image-1 size whose aspect ratio is closest to the request (it renders only these three). */
export function nearestGptSize(width: number, height: number): (typeof GPT_SIZES)[number] {
  const distance = (s: (typeof GPT_SIZES)[number]) => Math.abs(Math.log(s.width / s.height) - Math.log(width / height));
  return GPT_SIZES.reduce((best, s) => (distance(s) < distance(best) ? s : best));
}

export const zImagesReply = z.looseObject({
  data: z.array(z.looseObject({ b64_json: z.string().min(1) })).min(1),
});

export const zStreamEvent = z.looseObject({
  type: z.string(),
  b64_json: z.string().optional(),
  partial_image_index: z.number().optional(),
  error: z.looseObject({ message: z.string().optional(), code: z.string().nullable().optional() }).optional(),
});

const zErrorBody = z.looseObject({
  error: z.looseObject({
    message: z.string().optional(),
    type: z.string().nullable().optional(),
    code: z.string().nullable().optional(),
  }),
});

const BLOCK_CODES = new Set(['moderation_blocked', 'content_policy_violation']);

/** Maps an OpenAI error (HTTP reply or stream error event) onto our codes; moderation is its own code. */
export function openAiError(status: number | undefined, body: unknown): EngineError {
  const parsed = zErrorBody.safeParse(body);
  const err = parsed.success ? parsed.data.error : undefined;
  const message = err?.message ?? (status ? `HTTP ${status}` : 'unknown error');
  if (err?.code && BLOCK_CODES.has(err.code)) {
    return new EngineError('moderation_blocked', `OpenAI blocked the request: ${message}`, body);
  }
  if (status === 401 || status === 403)
    return new EngineError('engine_failed', `OpenAI rejected the API key (HTTP ${status})`, body);
  if (status === 429) return new EngineError('engine_failed', `OpenAI is rate limiting this account: ${message}`, body);
  if (status !== undefined && status >= 400 && status < 500) {
    return new EngineError('validation', `OpenAI rejected the request: ${message}`, body);
  }
  return new EngineError('engine_failed', `OpenAI failed: ${message}`, body);
}

/** Splits a text/event-stream into events ({event, data}); tolerant of CRLF and comment lines. */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ event: string; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  const parse = (block: string) => {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    return data.length ? { event, data: data.join('\n') } : undefined;
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: RegExpExecArray | null;
    while ((end = /\r?\n\r?\n/.exec(buffer))) {
      const parsed = parse(buffer.slice(0, end.index));
      buffer = buffer.slice(end.index + end[0].length);
      if (parsed) yield parsed;
    }
  }
  const last = parse(buffer);
  if (last) yield last;
}
