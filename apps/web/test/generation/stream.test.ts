import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/ApiError.ts';
import type { FetchLike } from '../../src/api/http.ts';
import {
  JobFailedError,
  StreamEndedError,
  attachJob,
  readNdjson,
  submitJob,
  type JobEvent,
} from '../../src/generation/stream.ts';

/** A body that delivers the given text in chunks cut at the given offsets (mid-line and mid-character). */
function chunkedBody(text: string, cuts: number[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const bounds = [0, ...cuts.filter((c) => c > 0 && c < bytes.length), bytes.length];
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i + 1 >= bounds.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(bounds[i], bounds[i + 1]));
      i++;
    },
  });
}

function fakeFetch(status: number, text: string, cuts: number[], calls: { url: string; init?: RequestInit }[] = []) {
  const f: FetchLike = (url, init) => {
    calls.push({ url, ...(init ? { init } : {}) });
    return Promise.resolve(
      new Response(chunkedBody(text, cuts), {
        status,
        headers: { 'content-type': status === 200 ? 'application/x-ndjson' : 'application/json' },
      }),
    );
  };
  return f;
}

const LINES = [
  { status: 'IN_QUEUE', job_id: 'j1', queue_position: 2 },
  { status: 'IN_QUEUE', job_id: 'j1', queue_position: 0 },
  {
    status: 'IN_PROGRESS',
    job_id: 'j1',
    logs: ['Progress: 3/20'],
    progress: 0.15,
    preview: 'data:image/jpeg;base64,AAAA',
  },
  { status: 'IN_PROGRESS', job_id: 'j1', logs: ['ノイズ除去 45%|████ | 9/20'] },
  { status: 'COMPLETED', job_id: 'j1', output: { images: [{ id: 'img1', width: 832, height: 1216, seed: 7 }] } },
];
const NDJSON = LINES.map((l) => JSON.stringify(l)).join('\n') + '\n';

describe('readNdjson', () => {
  it('joins lines and multi-byte characters split across chunks', async () => {
    // Cut every 7 bytes: many cuts land inside a line, some inside the three-byte Japanese characters.
    const cuts = Array.from({ length: Math.ceil(NDJSON.length / 7) }, (_, i) => (i + 1) * 7);
    const out: unknown[] = [];
    for await (const v of readNdjson(chunkedBody(NDJSON, cuts))) out.push(v);
    expect(out).toEqual(LINES);
  });

  it('reads a last line without a trailing newline and skips blank lines', async () => {
    const text = '\n{"status":"IN_QUEUE"}\n\n{"status":"COMPLETED","output":1}';
    const out: unknown[] = [];
    for await (const v of readNdjson(chunkedBody(text, [3, 15]))) out.push(v);
    expect(out).toEqual([{ status: 'IN_QUEUE' }, { status: 'COMPLETED', output: 1 }]);
  });
});

describe('submitJob', () => {
  it('posts the payload, reports every event in order and resolves with the output', async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const events: JobEvent[] = [];
    const output = await submitJob(
      '/api/diffusion/txt2img',
      { prompt: 'a cat' },
      { fetch: fakeFetch(200, NDJSON, [10, 95, 96, 200, 333], calls), onEvent: (e) => events.push(e) },
    );
    expect(output).toEqual({ images: [{ id: 'img1', width: 832, height: 1216, seed: 7 }] });
    expect(events.map((e) => e.status)).toEqual(['IN_QUEUE', 'IN_QUEUE', 'IN_PROGRESS', 'IN_PROGRESS', 'COMPLETED']);
    expect(calls[0]?.url).toBe('/api/diffusion/txt2img');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(JSON.parse(calls[0]?.init?.body as string)).toEqual({ prompt: 'a cat' });
  });

  it('sends a new Idempotency-Key with every submit unless one is given, and none when re-attaching', async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const done = '{"status":"COMPLETED","job_id":"j1","output":1}\n';
    const keyOf = (i: number) => (calls[i]?.init?.headers as Record<string, string> | undefined)?.['Idempotency-Key'];
    await submitJob('/api/diffusion/txt2img', {}, { fetch: fakeFetch(200, done, [], calls) });
    await submitJob('/api/diffusion/txt2img', {}, { fetch: fakeFetch(200, done, [], calls) });
    await submitJob('/api/diffusion/txt2img', {}, { fetch: fakeFetch(200, done, [], calls), idempotencyKey: 'k-1' });
    await attachJob('j1', { fetch: fakeFetch(200, done, [], calls), idempotencyKey: 'k-1' });
    expect(keyOf(0)).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf(1)).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf(1)).not.toBe(keyOf(0));
    expect(keyOf(2)).toBe('k-1');
    expect(keyOf(3)).toBeUndefined();
  });

  it('rejects with JobFailedError carrying the server text and the job id on FAILED', async () => {
    const text = '{"status":"IN_QUEUE","job_id":"j9"}\n{"status":"FAILED","job_id":"j9","error":"engine down"}\n';
    const error = await submitJob('/api/upscale', {}, { fetch: fakeFetch(200, text, [20]) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as JobFailedError).detail).toBe('engine down');
    expect((error as JobFailedError).jobId).toBe('j9');
  });

  it('throws the error field of a non-ok answer as an ApiError with its code and status', async () => {
    const body = JSON.stringify({ error: 'not_enough_credits', message: 'You need 6 credits' });
    const error = await submitJob('/api/diffusion/txt2img', {}, { fetch: fakeFetch(400, body, [5]) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('not_enough_credits');
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe('You need 6 credits');
  });

  it('turns a plain-text error answer into an Error with that text', async () => {
    const error = await submitJob('/api/regional', {}, { fetch: fakeFetch(500, 'upstream broke', []) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('upstream broke');
  });

  it('rejects with StreamEndedError (and the job id) when the body ends before a final event', async () => {
    const text = '{"status":"IN_QUEUE","job_id":"j4","queue_position":1}\n{"status":"IN_PROG';
    const error = await submitJob('/api/pose', {}, { fetch: fakeFetch(200, text, [30]) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamEndedError);
    expect((error as StreamEndedError).jobId).toBe('j4');
  });
});

describe('attachJob', () => {
  it('follows GET /api/jobs/{id}/events', async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const output = await attachJob('abc', {
      fetch: fakeFetch(200, '{"status":"COMPLETED","job_id":"abc","output":{"ok":true}}\n', [4], calls),
    });
    expect(output).toEqual({ ok: true });
    expect(calls[0]?.url).toBe('/api/jobs/abc/events');
    expect(calls[0]?.init?.method).toBe('GET');
  });
});
