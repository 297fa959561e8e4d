import sharp from 'sharp';
import type { Engine, EngineEvents, EngineImage, EngineResult, EngineTask } from '../types.ts';
import { EngineError, cancelledError, throwIfAborted } from '../errors.ts';
import { fetchOrFail, malformed, readJson } from '../http.ts';
import { featheredMask, imageSize, outpaintCanvas, pasteMasked, toPng } from '../masks.ts';
import { nearestGptSize, openAiError, readServerSentEvents, zImagesReply, zStreamEvent } from './protocol.ts';

export interface OpenAiEngineOptions {
  apiKey: string;
  /** API root including `/v1`; tests point it at a fake. */
  baseUrl?: string;
  model?: string;
  /** Partial images streamed as previews (0–3); 0 turns streaming off. */
  partialImages?: number;
  /** The request is held open while the image renders (20–120 s is normal). */
  jobTimeoutMs?: number;
}

const SERVICE = 'OpenAI';
const GPT_TYPES = new Set(['gpt']);

/** What to send: the endpoint, its body and how to turn the returned pictures into the requested ones. */
interface Call {
  path: '/images/generations' | '/images/edits';
  body: FormData | string;
  width: number;
  height: number;
  n: number;
  /** Inpaint-like tasks: the result is pasted over this original through this mask. */
  paste?: { original: Buffer; mask: Buffer };
  note: string;
}

/** gpt-image-1 through the Images API (engines.md §3): generations, and edits with a mask. */
export class OpenAiEngine implements Engine {
  readonly id = 'openai' as const;
  private readonly base: string;
  private readonly model: string;
  private readonly partialImages: number;
  private readonly jobTimeoutMs: number;

  constructor(private readonly options: OpenAiEngineOptions) {
    if (!options.apiKey) throw new Error('OpenAI engine needs an API key');
    this.base = (options.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
    this.model = options.model ?? 'gpt-image-1';
    this.partialImages = Math.max(0, Math.min(3, options.partialImages ?? 2));
    this.jobTimeoutMs = options.jobTimeoutMs ?? 180_000;
  }

  supports(task: EngineTask): boolean {
    switch (task.kind) {
      case 'txt2img':
      case 'img2img':
      case 'inpaint':
      case 'outpaint':
        return GPT_TYPES.has(task.model.modelType) && !task.ipAdapter && (task.controlnets ?? []).length === 0;
      default:
        return false;
    }
  }

  async run(task: EngineTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult> {
    throwIfAborted(signal);
    if (!this.supports(task)) throw new EngineError('validation', `OpenAI cannot run this ${task.kind} task`);
    const call = await this.callFor(task);
    const timeout = AbortSignal.timeout(this.jobTimeoutMs);
    const jobSignal = AbortSignal.any([signal, timeout]);
    events.onProgress({ logs: [`Sent to OpenAI ${this.model}`], queuePosition: 0 });
    let pictures: Buffer[];
    try {
      pictures = await this.request(call, events, jobSignal);
    } catch (err) {
      if (signal.aborted) throw cancelledError();
      if (timeout.aborted) throw new EngineError('timeout', `OpenAI did not answer within ${this.jobTimeoutMs} ms`);
      throw err;
    }
    const seed = 'seed' in task ? task.seed : 0;
    const images: EngineImage[] = [];
    for (const picture of pictures) images.push(await this.finish(call, picture, seed));
    return { images, metadata: { engine: 'openai', model: this.model, note: call.note } };
  }

  private async callFor(task: EngineTask): Promise<Call> {
    if (task.kind === 'txt2img') {
      const size = nearestGptSize(task.width, task.height);
      const body = JSON.stringify({
        model: this.model,
        prompt: task.prompt,
        n: task.numImages,
        size: size.size,
        quality: 'auto',
        output_format: 'png',
        ...(this.partialImages > 0 ? { stream: true, partial_images: this.partialImages } : {}),
      });
      return {
        path: '/images/generations',
        body,
        width: task.width,
        height: task.height,
        n: task.numImages,
        note: `gpt-image-1 renders ${size.size}; cropped and scaled to ${task.width}x${task.height}. No seed control.`,
      };
    }
    if (task.kind !== 'img2img' && task.kind !== 'inpaint' && task.kind !== 'outpaint') {
      throw new EngineError('validation', `OpenAI cannot run a ${task.kind} task`);
    }
    let image = task.image;
    let mask: Buffer | undefined;
    if (task.kind === 'inpaint') {
      const { width, height } = await imageSize(task.image, 'input image');
      mask = await featheredMask(task.mask, width, height, task.maskBlur);
    } else if (task.kind === 'outpaint') {
      const canvas = await outpaintCanvas(task.image, task.padding, task.blur);
      [image, mask] = [canvas.image, canvas.mask];
    }
    const { width, height } = task.kind === 'img2img' ? task : await imageSize(image, 'input image');
    const size = nearestGptSize(width, height);
    const form = new FormData();
    form.append('model', this.model);
    form.append('prompt', task.prompt);
    form.append('n', String(task.numImages));
    form.append('size', size.size);
    form.append('output_format', 'png');
    form.append('image', new Blob([await toPng(image, 'input image')], { type: 'image/png' }), 'image.png');
    if (mask) form.append('mask', new Blob([await openAiMask(mask)], { type: 'image/png' }), 'mask.png');
    if (this.partialImages > 0) {
      form.append('stream', 'true');
      form.append('partial_images', String(this.partialImages));
    }
    return {
      path: '/images/edits',
      body: form,
      width,
      height,
      n: task.numImages,
      ...(mask ? { paste: { original: image, mask } } : {}),
      note:
        task.kind === 'img2img'
          ? 'gpt-image-1 edits the whole image; strength is not supported. No seed control.'
          : 'gpt-image-1 edit through a mask; pixels outside the mask are kept from the input. No seed control.',
    };
  }

  private async request(call: Call, events: EngineEvents, signal: AbortSignal): Promise<Buffer[]> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}` };
    if (typeof call.body === 'string') headers['content-type'] = 'application/json';
    const res = await fetchOrFail(
      SERVICE,
      `${this.base}${call.path}`,
      { method: 'POST', headers, body: call.body },
      signal,
      this.jobTimeoutMs,
    );
    if (!res.ok) throw openAiError(res.status, await readJson(SERVICE, res, `POST ${call.path}`));
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream') || !res.body) {
      const parsed = zImagesReply.safeParse(await readJson(SERVICE, res, `POST ${call.path}`));
      if (!parsed.success) throw malformed(SERVICE, `POST ${call.path}`, parsed.error.issues);
      return parsed.data.data.map((d) => Buffer.from(d.b64_json, 'base64'));
    }
    return this.readStream(res.body, call, events, signal);
  }

  /** Partial images become previews; each `*.completed` event is one finished picture. */
  private async readStream(
    body: ReadableStream<Uint8Array>,
    call: Call,
    events: EngineEvents,
    signal: AbortSignal,
  ): Promise<Buffer[]> {
    const done: Buffer[] = [];
    let partials = 0;
    try {
      for await (const sse of readServerSentEvents(body)) {
        let data: unknown;
        try {
          data = JSON.parse(sse.data) as unknown;
        } catch {
          throw malformed(SERVICE, 'the image stream', sse.data.slice(0, 120));
        }
        if (sse.event === 'error' || (typeof data === 'object' && data !== null && 'error' in data))
          throw openAiError(undefined, data);
        const parsed = zStreamEvent.safeParse(data);
        if (!parsed.success) throw malformed(SERVICE, 'the image stream', parsed.error.issues);
        const { type, b64_json } = parsed.data;
        if (!b64_json) continue;
        if (type.endsWith('.partial_image')) {
          partials++;
          events.onProgress({
            preview: { bytes: Buffer.from(b64_json, 'base64'), mime: 'image/png' },
            progress: Math.min(0.95, partials / (call.n * (this.partialImages + 1))),
            logs: [`Partial image ${partials}`],
          });
        } else if (type.endsWith('.completed')) {
          done.push(Buffer.from(b64_json, 'base64'));
          events.onProgress({ progress: done.length / call.n });
        }
      }
    } catch (err) {
      if (err instanceof EngineError) throw err;
      if (signal.aborted) throw cancelledError();
      throw new EngineError('connection_lost', 'The connection to OpenAI dropped while the image was streaming', err);
    }
    if (done.length === 0) throw new EngineError('engine_failed', 'OpenAI ended the stream without an image');
    return done;
  }

  /** Fits the returned picture to the requested size, or pastes it through the mask for inpaint and outpaint. */
  private async finish(call: Call, picture: Buffer, seed: number): Promise<EngineImage> {
    let bytes: Buffer;
    try {
      bytes = call.paste
        ? await pasteMasked(call.paste.original, picture, call.paste.mask)
        : await sharp(picture).resize(call.width, call.height, { fit: 'cover' }).png().toBuffer();
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw new EngineError('engine_failed', 'OpenAI returned something that is not an image', err);
    }
    const { width, height } = await imageSize(bytes, 'result');
    return { bytes, mime: 'image/png', width, height, seed };
  }
}

/** OpenAI edits with a PNG whose fully transparent pixels are the area to edit: our white = change becomes alpha 0. */
async function openAiMask(mask: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(mask).removeAlpha().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const rgba = Buffer.alloc(info.width * info.height * 4);
  for (let i = 0; i < info.width * info.height; i++) {
    rgba.fill(0, i * 4, i * 4 + 3);
    rgba[i * 4 + 3] = (data[i] ?? 0) > 0 ? 0 : 255;
  }
  return sharp(rgba, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
}
