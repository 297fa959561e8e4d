import OpenAI, { APIError, toFile } from 'openai';
import type { ImageEditStreamEvent, ImageGenStreamEvent, ImagesResponse } from 'openai/resources/images';
import sharp from 'sharp';
import type { Engine, EngineEvents, EngineImage, EngineProbe, EngineResult, EngineTask } from '../types.ts';
import { EngineError, throwIfAborted } from '../errors.ts';
import { malformed } from '../http.ts';
import { probeOf, probeTarget } from '../reachability.ts';
import { featheredMask, imageSize, outpaintCanvas, pasteMasked, toPng } from '../masks.ts';
import { DEFAULT_IMAGE_MODEL, flexibleSize, modelTraits, nearestGptSize, openAiError } from './protocol.ts';

export interface OpenAiEngineOptions {
  apiKey: string;
  /** API root including `/v1`; tests point it at a fake. */
  baseUrl?: string;
  model?: string;
  /** Partial images streamed as previews (0–3); 0 turns streaming off. */
  partialImages?: number;
  /** The request is held open while the image renders (20–120 s is normal). */
  jobTimeoutMs?: number;
  /** Retries of the SDK on 408/409/429/5xx and dropped connections (its default is 2). */
  maxRetries?: number;
}

const SERVICE = 'OpenAI';
const GPT_TYPES = new Set(['gpt']);

/** What to ask for and how to turn the returned pictures into the requested ones. */
interface Call {
  kind: 'generate' | 'edit';
  prompt: string;
  size: string;
  n: number;
  image?: Buffer;
  mask?: Buffer;
  width: number;
  height: number;
  /** Inpaint-like tasks: the result is pasted over this original through this mask. */
  paste?: { original: Buffer; mask: Buffer };
  note: string;
}

type StreamEvent = ImageGenStreamEvent | ImageEditStreamEvent;

/**
 * GPT image models through the official `openai` client (engines.md §3): generations, and edits with a mask
 * and `input_fidelity: "high"` where the model has it. The client retries twice with backoff and honours
 * `retry-after` / `retry-after-ms` (client.ts `retryRequest`).
 */
export class OpenAiEngine implements Engine {
  readonly id = 'openai' as const;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly partialImages: number;
  private readonly jobTimeoutMs: number;

  constructor(options: OpenAiEngineOptions) {
    if (!options.apiKey) throw new Error('OpenAI engine needs an API key');
    this.model = options.model ?? DEFAULT_IMAGE_MODEL;
    this.partialImages = Math.max(0, Math.min(3, options.partialImages ?? 2));
    this.jobTimeoutMs = options.jobTimeoutMs ?? 180_000;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
      maxRetries: options.maxRetries ?? 2,
      timeout: this.jobTimeoutMs,
    });
  }

  /**
   * Reachability for readiness checks: `GET /models/{model}` (free) checks the host, the key and that the key may
   * use the model. A 404 still counts as reachable: OpenAI-compatible proxies often lack the models list.
   */
  async probe(signal: AbortSignal): Promise<EngineProbe> {
    const url = this.client.baseURL;
    try {
      await this.client.models.retrieve(this.model, { signal, maxRetries: 0 });
      return probeOf([probeTarget(url, undefined, signal)]);
    } catch (err) {
      if (err instanceof APIError && err.status === 404) {
        return probeOf([{ url, reachable: true, detail: `OpenAI does not list the model ${this.model}` }]);
      }
      return probeOf([probeTarget(url, openAiError(err, signal), signal)]);
    }
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
    events.onProgress({ logs: [`Sent to OpenAI ${this.model}`], queuePosition: 0 });
    let pictures: Buffer[];
    try {
      pictures = await this.request(call, events, signal);
    } catch (err) {
      throw openAiError(err, signal);
    }
    const seed = 'seed' in task ? task.seed : 0;
    const images: EngineImage[] = [];
    for (const picture of pictures) images.push(await this.finish(call, picture, seed));
    return { images, metadata: { engine: 'openai', model: this.model, note: call.note } };
  }

  private sizeFor(width: number, height: number): { size: string; label: string } {
    if (modelTraits(this.model).flexibleSizes) {
      const s = flexibleSize(width, height);
      return { size: s.size, label: s.size };
    }
    const s = nearestGptSize(width, height);
    return { size: s.size, label: s.size };
  }

  private async callFor(task: EngineTask): Promise<Call> {
    if (task.kind === 'txt2img') {
      const { size, label } = this.sizeFor(task.width, task.height);
      return {
        kind: 'generate',
        prompt: task.prompt,
        size,
        n: task.numImages,
        width: task.width,
        height: task.height,
        note: `${this.model} renders ${label}; cropped and scaled to ${task.width}x${task.height}. No seed control.`,
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
    return {
      kind: 'edit',
      prompt: task.prompt,
      size: this.sizeFor(width, height).size,
      n: task.numImages,
      image: await toPng(image, 'input image'),
      ...(mask ? { mask: await openAiMask(mask), paste: { original: image, mask } } : {}),
      width,
      height,
      note:
        task.kind === 'img2img'
          ? `${this.model} edits the whole image; strength is not supported. No seed control.`
          : `${this.model} edit through a mask; pixels outside the mask are kept from the input. No seed control.`,
    };
  }

  private async request(call: Call, events: EngineEvents, signal: AbortSignal): Promise<Buffer[]> {
    const stream = this.partialImages > 0;
    const common = {
      model: this.model,
      prompt: call.prompt,
      n: call.n,
      size: call.size,
      output_format: 'png' as const,
      ...(stream ? { stream: true as const, partial_images: this.partialImages } : {}),
    };
    const options = { signal };
    if (call.kind === 'generate') {
      const reply = await this.client.images.generate({ ...common, quality: 'auto' }, options);
      return isStream(reply) ? this.readStream(reply, call, events) : pictures(reply);
    }
    const edit = {
      ...common,
      image: await toFile(call.image!, 'image.png', { type: 'image/png' }),
      ...(call.mask ? { mask: await toFile(call.mask, 'mask.png', { type: 'image/png' }) } : {}),
      // Keeps faces and details of the input (a character) where the model has the setting.
      ...(modelTraits(this.model).highFidelity ? { input_fidelity: 'high' as const } : {}),
    };
    const reply = await this.client.images.edit(edit, options);
    return isStream(reply) ? this.readStream(reply, call, events) : pictures(reply);
  }

  /** Partial images become previews; each `*.completed` event is one finished picture. */
  private async readStream(stream: AsyncIterable<StreamEvent>, call: Call, events: EngineEvents): Promise<Buffer[]> {
    const done: Buffer[] = [];
    let partials = 0;
    for await (const event of stream) {
      // openai 6 (the last line that runs on Node 20) throws only wrapped `{error}` events and yields a bare
      // error event as data; read it as the APIError openai 7 would throw.
      const bare = bareStreamError(event);
      if (bare) throw bare;
      if (!event.b64_json) continue;
      if (event.type.endsWith('.partial_image')) {
        partials++;
        events.onProgress({
          preview: { bytes: Buffer.from(event.b64_json, 'base64'), mime: 'image/png' },
          progress: Math.min(0.95, partials / (call.n * (this.partialImages + 1))),
          logs: [`Partial image ${partials}`],
        });
      } else if (event.type.endsWith('.completed')) {
        done.push(Buffer.from(event.b64_json, 'base64'));
        events.onProgress({ progress: done.length / call.n });
      }
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

function isStream<T>(reply: ImagesResponse | AsyncIterable<T>): reply is AsyncIterable<T> {
  return Symbol.asyncIterator in reply;
}

function pictures(reply: ImagesResponse): Buffer[] {
  const data = (reply.data ?? []).flatMap((d) => (d.b64_json ? [Buffer.from(d.b64_json, 'base64')] : []));
  if (data.length === 0) throw malformed(SERVICE, 'the image request', reply);
  return data;
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

/** A stream event that is an error without the `{error}` wrapper (`{type, code, message}`), as an APIError. */
function bareStreamError(event: unknown): APIError | undefined {
  const e = event as { type?: unknown; code?: unknown; message?: unknown; b64_json?: unknown };
  const known = typeof e.type === 'string' && /\.(partial_image|completed)$/.test(e.type);
  if (known || typeof e.message !== 'string') return undefined;
  return new APIError(undefined, e, e.message, undefined);
}
