/**
 * A fal queue server for tests (engines.md §2.2, §2.5): Key auth, submit → IN_QUEUE (decreasing position) →
 * IN_PROGRESS (growing logs) → COMPLETED on successive status polls, results with CDN-like file URLs,
 * 422 validation bodies, request timeouts, cancel. Failures are switched on per test.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import sharp from 'sharp';
import { closeServer, listen, readBody, sendJson } from './http-util.ts';

export type FalFailure = 'validation' | 'request_timeout' | 'server_error' | 'nsfw' | 'stuck' | 'drop' | 'garbage';

interface Job {
  id: string;
  endpoint: string;
  input: Record<string, unknown>;
  polls: number;
  cancelled: boolean;
  failure: FalFailure | undefined;
}

export const FAL_KEY = 'test-key-id:test-secret';
const STEPS = 3;

function sizeOfDataUri(uri: unknown): Promise<{ width: number; height: number }> {
  if (typeof uri !== 'string' || !uri.startsWith('data:')) return Promise.resolve({ width: 64, height: 64 });
  const bytes = Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64');
  return sharp(bytes)
    .metadata()
    .then((m) => ({ width: m.width ?? 64, height: m.height ?? 64 }));
}

export class FakeFal {
  url = '';
  readonly requests: { method: string; path: string; body?: Record<string, unknown>; auth?: string }[] = [];
  nextFailure: FalFailure | undefined;
  /** Polls a job spends IN_QUEUE before it starts. */
  queuePolls = 2;
  private server!: Server;
  private readonly jobs = new Map<string, Job>();
  private readonly files = new Map<string, { bytes: Buffer; type: string }>();

  async start(): Promise<this> {
    const { server, url } = await listen((req, res, u) => this.handle(req, res, u));
    this.server = server;
    this.url = url;
    return this;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  job(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const raw = req.method === 'POST' ? await readBody(req) : Buffer.alloc(0);
    const body = raw.length ? (JSON.parse(raw.toString()) as Record<string, unknown>) : undefined;
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      ...(body ? { body } : {}),
      ...(req.headers.authorization ? { auth: req.headers.authorization } : {}),
    });
    if (url.pathname.startsWith('/files/')) {
      const file = this.files.get(url.pathname.slice('/files/'.length));
      if (!file) return sendJson(res, 404, { detail: 'Not found' });
      res.writeHead(200, { 'content-type': file.type }).end(file.bytes);
      return;
    }
    if (req.headers.authorization !== `Key ${FAL_KEY}`) {
      return sendJson(res, 401, { detail: 'No user found for Key ID and Secret' });
    }
    const parts = url.pathname.split('/').filter(Boolean);
    const [owner, alias, third, id, action] = parts;
    if (req.method === 'POST' && owner && alias)
      return this.submit(res, parts.join('/'), `${owner}/${alias}`, body ?? {});
    if (third !== 'requests' || !id) return sendJson(res, 404, { detail: 'Not found' });
    const job = this.jobs.get(id);
    if (!job) return sendJson(res, 404, { detail: `Request ${id} not found` });
    if (req.method === 'GET' && action === 'status') return this.status(req, res, job, url);
    if (req.method === 'GET' && action === undefined) return this.result(res, job);
    if (req.method === 'PUT' && action === 'cancel') {
      if (job.polls >= this.queuePolls + STEPS) return sendJson(res, 400, { status: 'ALREADY_COMPLETED' });
      job.cancelled = true;
      return sendJson(res, 202, { status: 'CANCELLATION_REQUESTED' });
    }
    sendJson(res, 405, { detail: 'Method not allowed' });
  }

  private submit(res: ServerResponse, endpoint: string, ownerAlias: string, input: Record<string, unknown>): void {
    const id = randomUUID();
    this.jobs.set(id, { id, endpoint, input, polls: 0, cancelled: false, failure: this.nextFailure });
    this.nextFailure = undefined;
    const base = `${this.url}/${ownerAlias}/requests/${id}`;
    sendJson(res, 200, {
      status: 'IN_QUEUE',
      request_id: id,
      queue_position: this.queuePolls,
      response_url: base,
      status_url: `${base}/status`,
      cancel_url: `${base}/cancel`,
    });
  }

  private status(req: IncomingMessage, res: ServerResponse, job: Job, url: URL): void {
    if (job.failure === 'drop') {
      req.socket.destroy();
      return;
    }
    if (job.failure === 'garbage') return sendJson(res, 202, { state: 'who knows' });
    const withLogs = url.searchParams.get('logs') === '1';
    const urls = {
      request_id: job.id,
      response_url: `${this.url}/x`,
      status_url: `${this.url}/x`,
      cancel_url: `${this.url}/x`,
    };
    const poll = job.failure === 'stuck' ? Math.min(job.polls++, this.queuePolls + 1) : job.polls++;
    if (job.cancelled || poll < this.queuePolls) {
      return sendJson(res, 202, { status: 'IN_QUEUE', queue_position: this.queuePolls - poll - 1, ...urls });
    }
    const step = Math.min(STEPS, poll - this.queuePolls + 1);
    const logs = Array.from({ length: step }, (_, i) => ({
      message: `step ${i + 1}/${STEPS}`,
      level: 'INFO',
      source: 'USER',
      timestamp: new Date().toISOString(),
    }));
    const completed = step >= STEPS && job.failure !== 'stuck';
    sendJson(res, completed ? 200 : 202, {
      status: completed ? 'COMPLETED' : 'IN_PROGRESS',
      logs: withLogs ? logs : null,
      ...(completed ? { metrics: { inference_time: 0.5 } } : {}),
      ...urls,
    });
  }

  private async result(res: ServerResponse, job: Job): Promise<void> {
    const headers = { 'x-fal-request-id': job.id };
    if (
      job.failure === 'validation' ||
      (typeof job.input.prompt !== 'string' && !job.endpoint.includes('esrgan') && !('start_image_url' in job.input))
    ) {
      return sendJson(
        res,
        422,
        { detail: [{ loc: ['body', 'prompt'], msg: 'field required', type: 'missing' }] },
        headers,
      );
    }
    if (job.failure === 'request_timeout') {
      return sendJson(
        res,
        504,
        { detail: 'Request timed out', error_type: 'request_timeout' },
        { ...headers, 'x-fal-error-type': 'request_timeout' },
      );
    }
    if (job.failure === 'server_error') return sendJson(res, 500, { detail: 'Runner crashed' }, headers);
    if (job.endpoint.includes('video') || job.endpoint.includes('wan') || job.endpoint.includes('vidu')) {
      const name = `${job.id}.mp4`;
      this.files.set(name, {
        bytes: Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypmp42fake-video')]),
        type: 'video/mp4',
      });
      return sendJson(
        res,
        200,
        { video: { url: `${this.url}/files/${name}`, content_type: 'video/mp4', file_name: name }, seed: 1 },
        headers,
      );
    }
    const size = job.input.image_size as { width: number; height: number } | undefined;
    const { width, height } =
      size ?? (await sizeOfDataUri(job.input.image_url ?? (job.input.image_urls as unknown[] | undefined)?.[0]));
    const count = Number(job.input.num_images ?? 1);
    const make = async (i: number, w: number, h: number) => {
      const name = `${job.id}-${i}.png`;
      const bytes = await sharp({
        create: { width: w, height: h, channels: 3, background: { r: 200, g: 40 * i, b: 90 } },
      })
        .png()
        .toBuffer();
      this.files.set(name, { bytes, type: 'image/png' });
      return { url: `${this.url}/files/${name}`, content_type: 'image/png', width: w, height: h };
    };
    if (job.endpoint === 'fal-ai/esrgan') {
      const scale = Number(job.input.scale ?? 2);
      return sendJson(res, 200, { image: await make(0, width * scale, height * scale) }, headers);
    }
    const images = await Promise.all(Array.from({ length: count }, (_, i) => make(i, width, height)));
    sendJson(
      res,
      200,
      {
        images,
        seed: Number(job.input.seed ?? 0),
        has_nsfw_concepts: images.map(() => job.failure === 'nsfw'),
        prompt: job.input.prompt,
        timings: {},
      },
      headers,
    );
  }
}
