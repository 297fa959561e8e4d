import { ApiError, createFalClient } from '@fal-ai/client';
import type { FalClient, RequestMiddleware } from '@fal-ai/client';
import sharp from 'sharp';
import type {
  Engine,
  EngineEvents,
  EngineImage,
  EngineProbe,
  EngineResult,
  EngineTask,
  EngineVideo,
} from '../types.ts';
import { EngineError, cancelledError, sleep, throwIfAborted } from '../errors.ts';
import { fetchOrFail, malformed } from '../http.ts';
import { pasteMasked } from '../masks.ts';
import { probeOf, probeTarget } from '../reachability.ts';
import { falRequestFor, falSupports } from './endpoints.ts';
import type { FalRequest } from './endpoints.ts';
import { falHttpError, progressFromLog, zImageOutput, zImagesOutput, zStatus, zVideoOutput } from './protocol.ts';

export interface FalEngineOptions {
  apiKey: string;
  /** Replaces https://queue.fal.run (tests point it at a fake, or a proxy). */
  baseUrl?: string;
  /** Replaces https://rest.fal.ai, the storage API; defaults to `baseUrl` when that is set. */
  storageUrl?: string;
  pollIntervalMs?: number;
  requestTimeoutMs?: number;
  /** Whole-job limit for images; videos get `videoTimeoutMs`. */
  jobTimeoutMs?: number;
  videoTimeoutMs?: number;
}

const SERVICE = 'fal';
const QUEUE_HOST = 'https://queue.fal.run';
const REST_HOST = 'https://rest.fal.ai';

/** Sends the client's requests to other hosts (a fake or a proxy), keeping paths and queries. */
function rehost(queue: string | undefined, rest: string | undefined): RequestMiddleware {
  return (request) => {
    let { url } = request;
    if (queue && url.startsWith(QUEUE_HOST)) url = queue.replace(/\/+$/, '') + url.slice(QUEUE_HOST.length);
    else if (rest && url.startsWith(REST_HOST)) url = rest.replace(/\/+$/, '') + url.slice(REST_HOST.length);
    return Promise.resolve({ ...request, url });
  };
}

/**
 * Hosted FLUX, Kontext, nano-banana, ESRGAN and video models through fal's queue (engines.md §2), with the
 * official client (`createFalClient`, one per engine, not the global singleton). The client retries 429, 502,
 * 503 and 504 with exponential backoff and jitter (submit and result 3 times from 1 s, status 5 times and on
 * 500 too: queue.js QUEUE_RETRY_CONFIG / QUEUE_STATUS_RETRY_CONFIG) and uploads images to fal storage.
 */
export class FalEngine implements Engine {
  readonly id = 'fal' as const;
  private readonly fal: FalClient;
  private readonly queueUrl: string;
  private readonly opts: Required<
    Pick<FalEngineOptions, 'pollIntervalMs' | 'requestTimeoutMs' | 'jobTimeoutMs' | 'videoTimeoutMs'>
  >;

  constructor(options: FalEngineOptions) {
    if (!options.apiKey) throw new Error('fal engine needs an API key');
    this.fal = createFalClient({
      credentials: options.apiKey,
      suppressLocalCredentialsWarning: true,
      requestMiddleware: rehost(options.baseUrl, options.storageUrl ?? options.baseUrl),
    });
    this.queueUrl = (options.baseUrl ?? QUEUE_HOST).replace(/\/+$/, '');
    this.opts = {
      pollIntervalMs: options.pollIntervalMs ?? 500,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      jobTimeoutMs: options.jobTimeoutMs ?? 15 * 60_000,
      videoTimeoutMs: options.videoTimeoutMs ?? 30 * 60_000,
    };
  }

  /**
   * Reachability for readiness checks: any HTTP answer of the queue host counts. fal has no free endpoint that
   * checks a key without starting a job, so a wrong key still shows as the first job's `engine_auth`.
   */
  async probe(signal: AbortSignal): Promise<EngineProbe> {
    try {
      const res = await fetchOrFail(
        SERVICE,
        `${this.queueUrl}/`,
        { method: 'HEAD' },
        signal,
        this.opts.requestTimeoutMs,
      );
      await res.arrayBuffer().catch(() => undefined);
      return probeOf([probeTarget(this.queueUrl, undefined, signal)]);
    } catch (err) {
      return probeOf([probeTarget(this.queueUrl, err, signal)]);
    }
  }

  supports(task: EngineTask): boolean {
    return falSupports(task);
  }

  async run(task: EngineTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult> {
    throwIfAborted(signal);
    const limit = task.kind === 'video' ? this.opts.videoTimeoutMs : this.opts.jobTimeoutMs;
    const timeout = AbortSignal.timeout(limit);
    const jobSignal = AbortSignal.any([signal, timeout]);
    const upload = (png: Buffer, what: string) =>
      this.call(`upload the ${what}`, jobSignal, () => this.fal.storage.upload(new Blob([png], { type: 'image/png' })));
    let requestId: string | undefined;
    let request: FalRequest | undefined;
    try {
      request = await falRequestFor(task, upload);
      const endpoint = request.endpoint;
      const input = request.input;
      const submitted = await this.call('accept the job', jobSignal, () =>
        this.fal.queue.submit(endpoint, { input, abortSignal: jobSignal }),
      );
      requestId = submitted.request_id;
      events.onProgress({
        logs: [`Queued on fal (${endpoint})`],
        ...(submitted.queue_position !== undefined ? { queuePosition: submitted.queue_position } : {}),
      });
      await this.waitForCompletion(endpoint, requestId, events, jobSignal);
      const id = requestId;
      const output = await this.call('run the job', jobSignal, () =>
        this.fal.queue.result(endpoint, { requestId: id, abortSignal: jobSignal }),
      );
      return await this.collect(request, output.data, jobSignal);
    } catch (err) {
      if (jobSignal.aborted) {
        if (request && requestId) void this.cancel(request.endpoint, requestId);
        if (!signal.aborted) throw new EngineError('timeout', `The fal job did not finish within ${limit} ms`);
        throw cancelledError();
      }
      throw err;
    }
  }

  /** Runs one client call, turning its errors (ApiError, network failures, aborts) into EngineErrors. */
  private async call<T>(what: string, signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (signal.aborted) throw cancelledError();
      if (err instanceof EngineError) throw err;
      if (err instanceof ApiError) {
        const e = err as ApiError<unknown>;
        throw falHttpError(e.status, e.body, `to ${what}`, null);
      }
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause : undefined;
      const code = (cause as { code?: unknown } | undefined)?.code;
      const refused = typeof code === 'string' && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|UNREACH|CONNECT_TIMEOUT/.test(code);
      throw new EngineError(
        refused ? 'engine_unreachable' : 'connection_lost',
        `fal could not ${what}: ${cause?.message ?? (err instanceof Error ? err.message : String(err))}`,
        err,
      );
    }
  }

  /** Polls the status with logs until COMPLETED; logs arrive as the full list each time, so only new lines are sent. */
  private async waitForCompletion(
    endpoint: string,
    requestId: string,
    events: EngineEvents,
    signal: AbortSignal,
  ): Promise<void> {
    let seenLogs = 0;
    let lastPosition: number | undefined;
    for (;;) {
      const raw = await this.call('report the job status', signal, () =>
        this.fal.queue.status(endpoint, { requestId, logs: true, abortSignal: signal }),
      );
      const parsed = zStatus.safeParse(raw);
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

  /** Output files come from fal's CDN: a plain download, no credentials. */
  private async download(url: string, signal: AbortSignal): Promise<Buffer> {
    const res = await fetchOrFail(SERVICE, url, {}, signal, this.opts.requestTimeoutMs);
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
    let seed = 'seed' in request.input ? Number(request.input.seed) : 0;
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
  private async cancel(endpoint: string, requestId: string): Promise<void> {
    try {
      await this.fal.queue.cancel(endpoint, { requestId });
    } catch {
      // Nothing more to do: fal drops abandoned results by its own lifecycle policy.
    }
  }
}
