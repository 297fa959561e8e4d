import sharp from 'sharp';
import type { Engine, EngineEvents, EngineImage, EngineResult, EngineTask, EngineVideo } from '../types.ts';
import { EngineError, cancelledError, sleep, throwIfAborted } from '../errors.ts';
import { fetchOrFail, malformed, readJson } from '../http.ts';
import { pasteMasked } from '../masks.ts';
import { falRequestFor, falSupports } from './endpoints.ts';
import type { FalRequest } from './endpoints.ts';
import {
  falHttpError,
  progressFromLog,
  zImageOutput,
  zImagesOutput,
  zStatus,
  zSubmitted,
  zVideoOutput,
} from './protocol.ts';

export interface FalEngineOptions {
  apiKey: string;
  /** Queue host; tests point it at a fake. */
  baseUrl?: string;
  pollIntervalMs?: number;
  requestTimeoutMs?: number;
  /** Whole-job limit for images; videos get `videoTimeoutMs`. */
  jobTimeoutMs?: number;
  videoTimeoutMs?: number;
  /** Consecutive failed status polls tolerated before the job fails (the fal SDK retries status 5 times). */
  statusRetries?: number;
}

const SERVICE = 'fal';

/** Hosted FLUX, Kontext, nano-banana, ESRGAN and video models through fal's queue API (engines.md §2). */
export class FalEngine implements Engine {
  readonly id = 'fal' as const;
  private readonly base: string;
  private readonly opts: Required<Omit<FalEngineOptions, 'baseUrl'>>;

  constructor(options: FalEngineOptions) {
    if (!options.apiKey) throw new Error('fal engine needs an API key');
    this.base = (options.baseUrl ?? 'https://queue.fal.run').replace(/\/+$/, '');
    this.opts = {
      apiKey: options.apiKey,
      pollIntervalMs: options.pollIntervalMs ?? 500,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      jobTimeoutMs: options.jobTimeoutMs ?? 15 * 60_000,
      videoTimeoutMs: options.videoTimeoutMs ?? 30 * 60_000,
      statusRetries: options.statusRetries ?? 5,
    };
  }

  supports(task: EngineTask): boolean {
    return falSupports(task);
  }

  private headers(json: boolean): Record<string, string> {
    return {
      authorization: `Key ${this.opts.apiKey}`,
      accept: 'application/json',
      ...(json ? { 'content-type': 'application/json' } : {}),
    };
  }

  private call(url: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
    return fetchOrFail(SERVICE, url, init, signal, this.opts.requestTimeoutMs);
  }

  async run(task: EngineTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult> {
    throwIfAborted(signal);
    const request = await falRequestFor(task);
    const limit = task.kind === 'video' ? this.opts.videoTimeoutMs : this.opts.jobTimeoutMs;
    const timeout = AbortSignal.timeout(limit);
    const jobSignal = AbortSignal.any([signal, timeout]);
    const submitted = await this.submit(request, signal);
    events.onProgress({
      logs: [`Queued on fal (${request.endpoint})`],
      ...(submitted.queuePosition !== undefined ? { queuePosition: submitted.queuePosition } : {}),
    });
    try {
      await this.waitForCompletion(submitted.statusUrl, events, jobSignal);
      const output = await this.result(submitted.responseUrl, jobSignal);
      return await this.collect(request, output, jobSignal);
    } catch (err) {
      if (jobSignal.aborted) {
        void this.cancel(submitted.cancelUrl);
        if (!signal.aborted) throw new EngineError('timeout', `The fal job did not finish within ${limit} ms`);
        throw cancelledError();
      }
      throw err;
    }
  }

  private async submit(request: FalRequest, signal: AbortSignal) {
    const res = await this.call(
      `${this.base}/${request.endpoint}`,
      { method: 'POST', headers: this.headers(true), body: JSON.stringify(request.input) },
      signal,
    );
    const body = await readJson(SERVICE, res, `POST ${request.endpoint}`);
    if (!res.ok) throw falHttpError(res.status, body, 'to accept the job', res.headers.get('x-fal-error-type'));
    const parsed = zSubmitted.safeParse(body);
    if (!parsed.success) throw malformed(SERVICE, `POST ${request.endpoint}`, parsed.error.issues);
    // Status, result and cancel URLs drop the endpoint's sub-path: only owner/alias (engines.md §2.1).
    const [owner, alias] = request.endpoint.split('/');
    const requests = `${this.base}/${owner}/${alias}/requests/${parsed.data.request_id}`;
    return {
      statusUrl: parsed.data.status_url ?? `${requests}/status`,
      responseUrl: parsed.data.response_url ?? requests,
      cancelUrl: parsed.data.cancel_url ?? `${requests}/cancel`,
      queuePosition: parsed.data.queue_position,
    };
  }

  /** Polls the status URL with logs until COMPLETED; logs arrive as the full list each time, so only new lines are sent. */
  private async waitForCompletion(statusUrl: string, events: EngineEvents, signal: AbortSignal): Promise<void> {
    let seenLogs = 0;
    let lastPosition: number | undefined;
    let failures = 0;
    const url = `${statusUrl}${statusUrl.includes('?') ? '&' : '?'}logs=1`;
    for (;;) {
      let res: Response;
      let body: unknown;
      try {
        res = await this.call(url, { headers: this.headers(false) }, signal);
        body = await readJson(SERVICE, res, 'GET status');
      } catch (err) {
        if (signal.aborted || !(err instanceof EngineError) || ++failures > this.opts.statusRetries) throw err;
        await sleep(this.opts.pollIntervalMs, signal);
        continue;
      }
      if (!res.ok) {
        if (res.status >= 500 && ++failures <= this.opts.statusRetries) {
          await sleep(this.opts.pollIntervalMs, signal);
          continue;
        }
        throw falHttpError(res.status, body, 'to report the job status', res.headers.get('x-fal-error-type'));
      }
      failures = 0;
      const parsed = zStatus.safeParse(body);
      if (!parsed.success) throw malformed(SERVICE, 'GET status', parsed.error.issues);
      const status = parsed.data;
      const logs = (status.logs ?? []).map((l) => l.message);
      const fresh = logs.slice(seenLogs);
      seenLogs = Math.max(seenLogs, logs.length);
      const progress = fresh
        .map(progressFromLog)
        .filter((p) => p !== undefined)
        .at(-1);
      switch (status.status) {
        case 'IN_QUEUE':
          if (status.queue_position !== undefined && status.queue_position !== lastPosition) {
            lastPosition = status.queue_position;
            events.onProgress({ queuePosition: status.queue_position });
          }
          break;
        case 'IN_PROGRESS':
        case 'COMPLETED':
          if (fresh.length || progress !== undefined) {
            events.onProgress({ logs: fresh, ...(progress !== undefined ? { progress } : {}) });
          }
          if (status.status === 'COMPLETED') return;
          break;
        case 'CANCELLED':
        case 'CANCELED':
          throw new EngineError('cancelled', 'The job was cancelled on fal');
        case 'FAILED':
        case 'ERROR':
          throw new EngineError(
            'engine_failed',
            `fal reports the job failed${logs.length ? `: ${logs.at(-1)}` : ''}`,
            status,
          );
        default:
          throw new EngineError('engine_failed', `fal reports an unknown job status: ${status.status}`, status);
      }
      await sleep(this.opts.pollIntervalMs, signal);
    }
  }

  private async result(responseUrl: string, signal: AbortSignal): Promise<unknown> {
    const res = await this.call(responseUrl, { headers: this.headers(false) }, signal);
    const body = await readJson(SERVICE, res, 'GET result');
    if (!res.ok) throw falHttpError(res.status, body, 'to run the job', res.headers.get('x-fal-error-type'));
    return body;
  }

  private async download(url: string, signal: AbortSignal): Promise<Buffer> {
    const res = await this.call(url, {}, signal);
    if (!res.ok) throw new EngineError('engine_failed', `Could not download the fal output (HTTP ${res.status})`);
    return Buffer.from(await res.arrayBuffer());
  }

  private async collect(request: FalRequest, output: unknown, signal: AbortSignal): Promise<EngineResult> {
    const metadata = { engine: 'fal' as const, model: request.model, ...(request.note ? { note: request.note } : {}) };
    if (request.output === 'video') {
      const parsed = zVideoOutput.safeParse(output);
      if (!parsed.success) throw malformed(SERVICE, 'GET result', parsed.error.issues);
      const video: EngineVideo = {
        bytes: await this.download(parsed.data.video.url, signal),
        mime: parsed.data.video.content_type ?? 'video/mp4',
      };
      return { images: [], videos: [video], metadata };
    }
    let files: { url: string }[];
    let seed = 'seed' in (request.input as object) ? Number(request.input.seed) : 0;
    if (request.output === 'image') {
      const parsed = zImageOutput.safeParse(output);
      if (!parsed.success) throw malformed(SERVICE, 'GET result', parsed.error.issues);
      files = [parsed.data.image];
    } else {
      const parsed = zImagesOutput.safeParse(output);
      if (!parsed.success) throw malformed(SERVICE, 'GET result', parsed.error.issues);
      const flags = parsed.data.has_nsfw_concepts ?? [];
      // fal's safety checker returns black images and flags them; a fully flagged result is a block.
      if (flags.length > 0 && flags.every(Boolean)) {
        throw new EngineError('moderation_blocked', 'fal’s safety checker blocked every image of this request');
      }
      files = parsed.data.images.filter((_, i) => !flags[i]);
      seed = parsed.data.seed ?? seed;
    }
    const images: EngineImage[] = [];
    for (const file of files) {
      let bytes = await this.download(file.url, signal);
      if (request.paste) bytes = await pasteMasked(request.paste.original, bytes, request.paste.mask);
      let meta: sharp.Metadata;
      try {
        meta = await sharp(bytes).metadata();
      } catch (err) {
        throw new EngineError('engine_failed', 'fal returned a file that is not an image', err);
      }
      images.push({
        bytes,
        mime: `image/${meta.format ?? 'png'}`,
        width: meta.width ?? 0,
        height: meta.height ?? 0,
        seed,
      });
    }
    return { images, metadata };
  }

  /** Best effort: a cancel that fails still leaves our side cancelled. */
  private async cancel(cancelUrl: string): Promise<void> {
    try {
      const res = await this.call(
        cancelUrl,
        { method: 'PUT', headers: this.headers(false) },
        new AbortController().signal,
      );
      await res.arrayBuffer();
    } catch {
      // Nothing more to do: fal drops abandoned results by its own lifecycle policy.
    }
  }
}
