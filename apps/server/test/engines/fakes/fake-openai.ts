/**
 * An OpenAI Images API for tests (engines.md §3), as openai-node 6.49 and 7.57 document it (src/resources/images.ts):
 * Bearer auth, `/v1/images/generations` (JSON) and `/v1/images/edits` (multipart: image or image[], mask with
 * alpha 0 = edit, same size as the image), the current models (gpt-image-1 is shut down), sizes (three fixed
 * ones for 1.x, any WIDTHxHEIGHT in multiples of 16 with aspect 1:3..3:1 for 2.x), `input_fidelity` only where
 * the model has it, JSON or SSE replies with partial images, the moderation_blocked error, and 429 replies
 * with `retry-after` (seconds) as the API sends when rate limiting.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import sharp from 'sharp';
import { closeServer, listen, parseMultipart, readBody, sendJson } from './http-util.ts';

export const OPENAI_KEY = 'sk-test';
const SIZES = new Set(['1024x1024', '1536x1024', '1024x1536', 'auto']);
const MODELS = new Set([
  'gpt-image-1-mini',
  'gpt-image-1.5',
  'gpt-image-2',
  'gpt-image-2.5-sunburst',
  'gpt-image-2.5-flare',
  'chatgpt-image-latest',
]);

/** 2.x models: any WIDTHxHEIGHT, both multiples of 16, aspect within 1:3..3:1, at most 3840x2160. */
function flexibleSizeOk(size: string): boolean {
  const m = /^(\d+)x(\d+)$/.exec(size);
  if (!m) return size === 'auto';
  const [w, h] = [Number(m[1]), Number(m[2])];
  return w % 16 === 0 && h % 16 === 0 && w / h <= 3 && h / w <= 3 && w * h <= 3840 * 2160;
}

export type OpenAiFailure = 'server_error' | 'drop_stream' | 'stream_error' | 'stream_error_bare';

export interface RecordedCall {
  path: string;
  fields: Record<string, string>;
  files: Record<string, Buffer>;
  /** Date.now() when the request arrived. */
  at: number;
}

const apiError = (
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
) => sendJson(res, status, { error: { message, type, param, code } }, { 'x-request-id': 'req_test' });

export class FakeOpenAI {
  url = '';
  readonly calls: RecordedCall[] = [];
  nextFailure: OpenAiFailure | undefined;
  /** The next this-many requests answer 429 with `retry-after: retryAfterSeconds`. */
  rateLimit = 0;
  retryAfterSeconds = 2;
  private server!: Server;

  async start(): Promise<this> {
    const { server, url } = await listen((req, res, u) => this.handle(req, res, u));
    this.server = server;
    this.url = `${url}/v1`;
    return this;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const raw = await readBody(req);
    if (req.headers.authorization !== `Bearer ${OPENAI_KEY}`) {
      return apiError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    }
    const model = /^\/v1\/models\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && model) {
      // GET /v1/models/{model}: the free call Koma's readiness probe makes.
      const id = decodeURIComponent(model[1] ?? '');
      if (!/^(gpt-image|dall-e)/.test(id)) {
        return apiError(res, 404, `The model '${id}' does not exist`, 'invalid_request_error', 'model_not_found');
      }
      return sendJson(res, 200, { id, object: 'model', created: 1745000000, owned_by: 'system' });
    }
    const call: RecordedCall = { path: url.pathname, fields: {}, files: {}, at: Date.now() };
    if (req.method === 'POST' && url.pathname === '/v1/images/generations') {
      for (const [k, v] of Object.entries(JSON.parse(raw.toString()) as Record<string, unknown>))
        call.fields[k] = String(v);
    } else if (req.method === 'POST' && url.pathname === '/v1/images/edits') {
      const form = await parseMultipart(req, raw);
      for (const [k, v] of form.entries()) {
        if (typeof v === 'string') call.fields[k] = v;
        else call.files[k] = Buffer.from(await v.arrayBuffer());
      }
    } else {
      return apiError(res, 404, 'Not found', 'invalid_request_error', null);
    }
    this.calls.push(call);
    if (this.rateLimit > 0) {
      this.rateLimit--;
      return sendJson(
        res,
        429,
        {
          error: {
            message: 'Rate limit reached for images per minute. Please try again in 2s.',
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
        { 'retry-after': String(this.retryAfterSeconds), 'x-request-id': 'req_test' },
      );
    }
    const f = call.fields;
    if (!f.prompt)
      return apiError(
        res,
        400,
        "Missing required parameter: 'prompt'.",
        'invalid_request_error',
        'missing_required_parameter',
        'prompt',
      );
    if (!f.model || !MODELS.has(f.model))
      return apiError(
        res,
        400,
        `Invalid value for 'model': '${f.model}'.`,
        'invalid_request_error',
        'invalid_value',
        'model',
      );
    const flexible = f.model.startsWith('gpt-image-2');
    if (f.input_fidelity !== undefined && (flexible || (f.model === 'gpt-image-1-mini' && f.input_fidelity === 'high')))
      return apiError(
        res,
        400,
        `input_fidelity '${f.input_fidelity}' is not supported for model '${f.model}'.`,
        'invalid_request_error',
        'invalid_value',
        'input_fidelity',
      );
    if (f.size && !(flexible ? flexibleSizeOk(f.size) : SIZES.has(f.size)))
      return apiError(
        res,
        400,
        `Invalid value: '${f.size}'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.`,
        'invalid_request_error',
        'invalid_value',
        'size',
      );
    if (/forbidden/i.test(f.prompt)) {
      return apiError(
        res,
        400,
        'Your request was rejected by the safety system.',
        'image_generation_user_error',
        'moderation_blocked',
      );
    }
    const edit = url.pathname.endsWith('/edits');
    if (edit) {
      const image = call.files.image ?? call.files['image[]'];
      if (!image)
        return apiError(
          res,
          400,
          "Missing required parameter: 'image'.",
          'invalid_request_error',
          'missing_required_parameter',
          'image',
        );
      if (call.files.mask) {
        const [a, m] = await Promise.all([sharp(image).metadata(), sharp(call.files.mask).metadata()]);
        if (a.width !== m.width || a.height !== m.height || !m.hasAlpha) {
          return apiError(
            res,
            400,
            'Invalid mask image format - mask size does not match image size',
            'invalid_request_error',
            'invalid_mask',
            'mask',
          );
        }
      }
    }
    if (this.nextFailure === 'server_error') {
      this.nextFailure = undefined;
      return apiError(res, 500, 'The server had an error while processing your request.', 'server_error', null);
    }
    const [w, h] = (f.size && f.size !== 'auto' ? f.size : '1024x1024').split('x').map(Number) as [number, number];
    const n = Number(f.n ?? 1);
    const png = (shade: number) =>
      sharp({ create: { width: w, height: h, channels: 3, background: { r: shade, g: 100, b: 180 } } })
        .png()
        .toBuffer();
    if (f.stream !== 'true') {
      const data = await Promise.all(
        Array.from({ length: n }, async (_, i) => ({ b64_json: (await png(40 * i)).toString('base64') })),
      );
      return sendJson(res, 200, {
        created: 1700000000,
        data,
        output_format: 'png',
        size: f.size,
        usage: { total_tokens: 100 },
      });
    }
    const failure = this.nextFailure;
    this.nextFailure = undefined;
    const prefix = edit ? 'image_edit' : 'image_generation';
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const emit = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    const partials = Number(f.partial_images ?? 0);
    const small = (
      await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } })
        .png()
        .toBuffer()
    ).toString('base64');
    for (let i = 0; i < n; i++) {
      for (let p = 0; p < partials; p++) {
        emit(`${prefix}.partial_image`, {
          type: `${prefix}.partial_image`,
          b64_json: small,
          partial_image_index: p,
          created_at: 1700000000,
          size: f.size,
          output_format: 'png',
          background: 'opaque',
          quality: 'auto',
        });
        if (failure === 'drop_stream') {
          // Let the headers and the partial reach the client first: the connection breaks mid-stream.
          await new Promise((r) => setTimeout(r, 30));
          res.destroy();
          return;
        }
        if (failure === 'stream_error_bare') {
          // An error event whose data is the error itself, without the {error} wrapper.
          emit('error', { type: 'server_error', code: 'image_generation_failed', message: 'Image generation failed.' });
          res.end();
          return;
        }
        if (failure === 'stream_error') {
          emit('error', {
            type: 'error',
            error: {
              type: 'image_generation_user_error',
              code: 'moderation_blocked',
              message: 'Generated image was blocked by the safety system.',
            },
          });
          res.end();
          return;
        }
      }
      emit(`${prefix}.completed`, {
        type: `${prefix}.completed`,
        b64_json: (await png(40 * i)).toString('base64'),
        created_at: 1700000000,
        size: f.size,
        output_format: 'png',
        background: 'opaque',
        quality: 'auto',
        usage: { total_tokens: 100 },
      });
    }
    res.end();
  }
}
