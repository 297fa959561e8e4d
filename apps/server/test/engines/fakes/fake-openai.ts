/**
 * An OpenAI Images API for tests (engines.md §3): Bearer auth, `/v1/images/generations` (JSON) and
 * `/v1/images/edits` (multipart: image or image[], mask with alpha 0 = edit, same size as the image),
 * the size enum, JSON or SSE replies with partial images, and the moderation_blocked error.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import sharp from 'sharp';
import { closeServer, listen, parseMultipart, readBody, sendJson } from './http-util.ts';

export const OPENAI_KEY = 'sk-test';
const SIZES = new Set(['1024x1024', '1536x1024', '1024x1536', 'auto']);
const MODELS = new Set(['gpt-image-1', 'gpt-image-1-mini', 'gpt-image-1.5']);

export type OpenAiFailure = 'server_error' | 'drop_stream' | 'stream_error';

export interface RecordedCall {
  path: string;
  fields: Record<string, string>;
  files: Record<string, Buffer>;
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
    const call: RecordedCall = { path: url.pathname, fields: {}, files: {} };
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
    if (f.size && !SIZES.has(f.size))
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
          res.destroy();
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
