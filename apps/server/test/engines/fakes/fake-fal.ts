/**
 * A fal queue server for tests (engines.md §2.2, §2.5): Key auth, submit → IN_QUEUE (decreasing position) →
 * IN_PROGRESS (growing logs) → COMPLETED on successive status polls, results with CDN-like file URLs,
 * 422 validation bodies, request timeouts, cancel, 429 rate limits. It also serves fal storage as
 * @fal-ai/client 1.10.1 speaks it (src/storage.js): `POST /storage/upload/initiate?storage_type=fal-cdn-v3`
 * with `{content_type, file_name}` answers `{upload_url, file_url}`, then the client PUTs the bytes to
 * upload_url. Failures are switched on per test.
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

function sizeOf(bytes: Buffer | undefined): Promise<{ width: number; height: number }> {
  if (!bytes) return Promise.resolve({ width: 64, height: 64 });
  return sharp(bytes)
    .metadata()
    .then((m) => ({ width: m.width ?? 64, height: m.height ?? 64 }));
}

export class FakeFal {
  url = '';
  readonly requests: {
    method: string;
    path: string;
    body?: Record<string, unknown>;
    auth?: string;
    size: number;
    at: number;
  }[] = [];
  nextFailure: FalFailure | undefined;
  /** The next this-many submits answer 429, as fal does when the account's concurrency is exhausted. */
  rateLimitSubmits = 0;
  private readonly pendingUploads = new Map<string, { name: string; type: string }>();
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
    const raw = req.method === 'POST' || req.method === 'PUT' ? await readBody(req) : Buffer.alloc(0);
    const json = (req.headers['content-type'] ?? '').includes('application/json');
    const body = json && raw.length ? (JSON.parse(raw.toString()) as Record<string, unknown>) : undefined;
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      size: raw.length,
      at: Date.now(),
      ...(body ? { body } : {}),
      ...(req.headers.authorization ? { auth: req.headers.authorization } : {}),
    });
    if (req.method === 'PUT' && url.pathname.startsWith('/upload/')) {
      // The signed upload URL carries its own authorisation; the client sends no Key header here.
      const upload = this.pendingUploads.get(url.pathname.slice('/upload/'.length));
      if (!upload) return sendJson(res, 403, { detail: 'Upload URL expired' });
      this.files.set(upload.name, { bytes: raw, type: upload.type });
      res.writeHead(200).end();
      return;
    }
    if (url.pathname.startsWith('/files/')) {
      const file = this.files.get(url.pathname.slice('/files/'.length));
      if (!file) return sendJson(res, 404, { detail: 'Not found' });
      res.writeHead(200, { 'content-type': file.type }).end(file.bytes);
      return;
    }
    if (req.headers.authorization !== `Key ${FAL_KEY}`) {
      return sendJson(res, 401, { detail: 'No user found for Key ID and Secret' });
    }
    if (req.method === 'POST' && url.pathname === '/storage/upload/initiate') {
      const { content_type, file_name } = (body ?? {}) as { content_type?: string; file_name?: string };
      if (!content_type)
        return sendJson(res, 422, { detail: [{ loc: ['body', 'content_type'], msg: 'field required' }] });
      const token = randomUUID();
      const name = `${token}-${file_name ?? 'upload'}`;
      this.pendingUploads.set(token, { name, type: content_type });
      return sendJson(res, 200, { upload_url: `${this.url}/upload/${token}`, file_url: `${this.url}/files/${name}` });
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
    if (this.rateLimitSubmits > 0) {
      this.rateLimitSubmits--;
      return sendJson(res, 429, { detail: 'Rate limit exceeded' });
    }
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
    const imageUrl = job.input.image_url ?? (job.input.image_urls as unknown[] | undefined)?.[0];
    const file = typeof imageUrl === 'string' ? this.fileAt(imageUrl) : undefined;
    const { width, height } = size ?? (await sizeOf(file));
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

  /** Bytes of a file this server holds, by its URL. */
  fileAt(fileUrl: string): Buffer | undefined {
    if (!fileUrl.startsWith(`${this.url}/files/`)) return undefined;
    return this.files.get(fileUrl.slice(`${this.url}/files/`.length))?.bytes;
  }
}
