/**
 * A ComfyUI server for tests that speaks the real protocol (engines.md §1.1–1.2, §1.7): validation with
 * node_errors, one prompt at a time, WS events routed to the submitting client, binary previews, history,
 * /view, uploads, interrupt and queue delete. Failure modes are switched on per test.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse, Server } from 'node:http';
import sharp from 'sharp';
import { WebSocketServer } from 'ws';
import type WebSocket from 'ws';
import { closeServer, delay, listen, parseMultipart, readBody, sendJson } from './http-util.ts';

type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

interface Item {
  number: number;
  id: string;
  graph: Graph;
  clientId: string;
  interrupted: boolean;
}

interface HistoryEntry {
  prompt: unknown[];
  outputs: Record<string, { images: { filename: string; subfolder: string; type: string }[] }>;
  status: { status_str: 'success' | 'error'; completed: boolean; messages: [string, unknown][] };
  meta: Record<string, unknown>;
}

const OUTPUT_NODES = new Set(['SaveImage', 'PreviewImage']);
const NODES = new Set([
  'CheckpointLoaderSimple',
  'LoraLoader',
  'LoraLoaderModelOnly',
  'CLIPTextEncode',
  'EmptyLatentImage',
  'EmptySD3LatentImage',
  'KSampler',
  'VAEDecode',
  'VAEEncode',
  'SaveImage',
  'PreviewImage',
  'LoadImage',
  'LoadImageMask',
  'SetLatentNoiseMask',
  'ImageCompositeMasked',
  'RepeatLatentBatch',
  'RepeatImageBatch',
  'ImageScale',
  'ImageScaleBy',
  'UpscaleModelLoader',
  'ImageUpscaleWithModel',
  'ControlNetLoader',
  'ControlNetApplyAdvanced',
  'IPAdapterUnifiedLoader',
  'IPAdapterAdvanced',
  'UNETLoader',
  'DualCLIPLoader',
  'VAELoader',
  'FluxGuidance',
  'FluxKontextImageScale',
  'ReferenceLatent',
  'ConditioningSetArea',
  'ConditioningCombine',
  'ConditioningSetMask',
]);

export interface FakeComfyOptions {
  checkpoints?: string[];
  loras?: string[];
  /** Delay between emitted events. */
  tickMs?: number;
  /** Node classes this server lacks (a custom node pack not installed). */
  withoutNodes?: string[];
}

export type Failure =
  | { kind: 'execution_error' }
  /** Closes the client's socket mid-job but finishes the prompt (history has it). */
  | { kind: 'drop_socket_then_finish' }
  /** Goes silent after execution_start and never finishes. */
  | { kind: 'stall' };

function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

export class FakeComfyUI {
  url = '';
  readonly requests: { method: string; path: string; body?: unknown }[] = [];
  /** Set by a test: what goes wrong with the next prompt. */
  nextFailure: Failure | undefined;
  /** Replies with JSON of the wrong shape on this route (malformed-reply tests). */
  corrupt: 'submit' | 'history' | undefined;
  /** Closes every WebSocket when an input is uploaded (answering the upload a little later). */
  dropSocketsOnUpload = false;
  /** While true, prompts stay pending (to observe IN_QUEUE and cancel before start). */
  holdQueue = false;
  private server!: Server;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Map<string, { ws: WebSocket; metadataPreviews: boolean }>();
  private readonly uploads = new Map<string, Buffer>();
  private readonly files = new Map<string, Buffer>();
  private readonly history = new Map<string, HistoryEntry>();
  private pending: Item[] = [];
  private running: Item | undefined;
  private counter = 0;
  private fileCounter = 0;
  private readonly checkpoints: string[];
  private readonly loras: string[];
  private readonly tickMs: number;
  private readonly withoutNodes: string[];
  /** COMBO inputs as /object_info lists them (one in the newer V3 form), i.e. the installed model files. */
  private get comboInputs(): Record<string, Record<string, unknown>> {
    return {
      CheckpointLoaderSimple: { ckpt_name: [this.checkpoints, {}] },
      LoraLoader: { lora_name: [this.loras, {}] },
      ControlNetLoader: { control_net_name: [['OpenPoseXL2.safetensors'], {}] },
      UpscaleModelLoader: { model_name: ['COMBO', { options: ['4x-UltraSharp.pth'] }] },
      DualCLIPLoader: {
        clip_name1: [['clip_l.safetensors', 't5xxl_fp16.safetensors'], {}],
        clip_name2: [['clip_l.safetensors', 't5xxl_fp16.safetensors'], {}],
      },
      VAELoader: { vae_name: [['ae.safetensors'], {}] },
      UNETLoader: { unet_name: [['flux1-dev.safetensors'], {}] },
    };
  }

  constructor(options: FakeComfyOptions = {}) {
    this.checkpoints = options.checkpoints ?? ['animagine-xl-4.0.safetensors', 'sd_xl_base_1.0.safetensors'];
    this.loras = options.loras ?? ['manga_style_xl.safetensors'];
    this.tickMs = options.tickMs ?? 1;
    this.withoutNodes = options.withoutNodes ?? [];
  }

  async start(): Promise<this> {
    const { server, url } = await listen((req, res, u) => this.handle(req, res, u));
    this.server = server;
    this.url = url;
    server.on('upgrade', (req, socket, head) => {
      const u = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (u.pathname !== '/ws' && u.pathname !== '/api/ws') {
        socket.destroy();
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) =>
        this.onSocket(ws, u.searchParams.get('clientId') || randomUUID()),
      );
    });
    return this;
  }

  async close(): Promise<void> {
    for (const { ws } of this.sockets.values()) ws.terminate();
    this.wss.close();
    await closeServer(this.server);
  }

  /** Number of pending + running prompts, as GET /prompt reports it. */
  get queueRemaining(): number {
    return this.pending.length + (this.running ? 1 : 0);
  }

  /** Bytes of an uploaded input file, by the name LoadImage uses. */
  uploaded(name: string): Buffer | undefined {
    return this.uploads.get(name);
  }

  releaseQueue(): void {
    this.holdQueue = false;
    this.pump();
  }

  private onSocket(ws: WebSocket, clientId: string): void {
    this.sockets.get(clientId)?.ws.terminate(); // Same clientId replaces the old socket.
    const entry = { ws, metadataPreviews: false };
    this.sockets.set(clientId, entry);
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString()) as { type?: string; data?: { supports_preview_metadata?: boolean } };
      if (msg.type === 'feature_flags') {
        entry.metadataPreviews = msg.data?.supports_preview_metadata === true;
        ws.send(
          JSON.stringify({
            type: 'feature_flags',
            data: { supports_preview_metadata: true, max_upload_size: 104857600 },
          }),
        );
      }
    });
    ws.on('close', () => {
      if (this.sockets.get(clientId)?.ws === ws) this.sockets.delete(clientId);
    });
    ws.send(
      JSON.stringify({
        type: 'status',
        data: { status: { exec_info: { queue_remaining: this.queueRemaining } }, sid: clientId },
      }),
    );
  }

  private broadcastStatus(): void {
    const msg = JSON.stringify({
      type: 'status',
      data: { status: { exec_info: { queue_remaining: this.queueRemaining } } },
    });
    for (const { ws } of this.sockets.values()) ws.send(msg);
  }

  private send(clientId: string, type: string, data: Record<string, unknown>): void {
    this.sockets.get(clientId)?.ws.send(JSON.stringify({ type, data }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.replace(/^\/api(?=\/)/, '');
    const raw = req.method === 'POST' ? await readBody(req) : Buffer.alloc(0);
    const isJson = (req.headers['content-type'] ?? '').includes('application/json');
    this.requests.push({
      method: req.method ?? '',
      path,
      ...(isJson && raw.length ? { body: JSON.parse(raw.toString()) as unknown } : {}),
    });
    if (this.corrupt === 'submit' && req.method === 'POST' && path === '/prompt')
      return sendJson(res, 200, { ok: true });
    if (this.corrupt === 'history' && path.startsWith('/history/'))
      return sendJson(res, 200, { x: { outputs: 'none' } });
    if (req.method === 'POST' && path === '/prompt') return this.postPrompt(res, raw);
    if (req.method === 'GET' && path === '/prompt')
      return sendJson(res, 200, { exec_info: { queue_remaining: this.queueRemaining } });
    if (req.method === 'GET' && path === '/queue') {
      const item = (i: Item) => [i.number, i.id, i.graph, { client_id: i.clientId }, this.outputNodes(i.graph)];
      // Real servers send a heap copy, not sorted: reverse ours so clients must sort.
      return sendJson(res, 200, {
        queue_running: this.running ? [item(this.running)] : [],
        queue_pending: [...this.pending].reverse().map(item),
      });
    }
    if (req.method === 'POST' && path === '/queue') {
      const body = JSON.parse(raw.toString() || '{}') as { delete?: string[]; clear?: boolean };
      if (body.clear) this.pending = [];
      if (body.delete) this.pending = this.pending.filter((i) => !body.delete?.includes(i.id));
      this.broadcastStatus();
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'POST' && path === '/interrupt') {
      const body = JSON.parse(raw.toString() || '{}') as { prompt_id?: string };
      if (this.running && (!body.prompt_id || body.prompt_id === this.running.id)) this.running.interrupted = true;
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'GET' && path.startsWith('/history/')) {
      const id = decodeURIComponent(path.slice('/history/'.length));
      const entry = this.history.get(id);
      return sendJson(res, 200, entry ? { [id]: entry } : {});
    }
    if (req.method === 'POST' && path === '/history') {
      const body = JSON.parse(raw.toString() || '{}') as { delete?: string[] };
      for (const id of body.delete ?? []) this.history.delete(id);
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'GET' && path === '/view') {
      const key = `${url.searchParams.get('type') ?? 'output'}/${url.searchParams.get('subfolder') ?? ''}/${url.searchParams.get('filename') ?? ''}`;
      if (key.includes('..')) return sendJson(res, 400, {});
      const file = this.files.get(key);
      if (!file) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'image/png' }).end(file);
      return;
    }
    if (req.method === 'POST' && path === '/upload/image') return this.upload(req, res, raw);
    if (req.method === 'GET' && path === '/object_info') {
      return sendJson(
        res,
        200,
        Object.fromEntries(
          [...NODES]
            .filter((n) => !this.withoutNodes.includes(n))
            .map((n) => [
              n,
              { name: n, output_node: OUTPUT_NODES.has(n), input: { required: this.comboInputs[n] ?? {} } },
            ]),
        ),
      );
    }
    res.writeHead(404).end();
  }

  private async upload(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
    const form = await parseMultipart(req, raw);
    const file = form.get('image');
    if (!(file instanceof File)) {
      res.writeHead(400).end();
      return;
    }
    const bytes = Buffer.from(await file.arrayBuffer());
    const subfolder = formText(form, 'subfolder');
    const overwrite = ['true', '1'].includes(formText(form, 'overwrite'));
    let name = file.name;
    const hash = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    for (let n = 1; !overwrite && this.uploads.has(this.key(subfolder, name)); n++) {
      if (hash(this.uploads.get(this.key(subfolder, name))!) === hash(bytes)) break;
      name = file.name.replace(/(\.[^.]*)?$/, ` (${n})$1`);
    }
    this.uploads.set(this.key(subfolder, name), bytes);
    if (this.dropSocketsOnUpload) {
      for (const { ws } of this.sockets.values()) ws.terminate();
      await delay(50);
    }
    sendJson(res, 200, { name, subfolder, type: 'input' });
  }

  private key(subfolder: string, name: string): string {
    return subfolder ? `${subfolder}/${name}` : name;
  }

  private outputNodes(graph: Graph): string[] {
    return Object.entries(graph).flatMap(([id, n]) => (OUTPUT_NODES.has(n.class_type) ? [id] : []));
  }

  /** ComfyUI's validate_prompt, reduced to the checks adapters trip over. */
  private validate(graph: Graph): { error: Record<string, unknown>; node_errors: Record<string, unknown> } | undefined {
    const fail = (type: string, message: string, details = '') => ({
      error: { type, message, details, extra_info: {} },
      node_errors: {},
    });
    for (const node of Object.values(graph)) {
      if (!NODES.has(node.class_type)) {
        return fail('missing_node_type', `Node '${node.class_type}' not found. The custom node may not be installed.`);
      }
    }
    const outputs = this.outputNodes(graph);
    if (outputs.length === 0) return fail('prompt_no_outputs', 'Prompt has no outputs');
    const nodeErrors: Record<string, unknown> = {};
    for (const [id, node] of Object.entries(graph)) {
      const errors: { type: string; message: string; details: string; extra_info: Record<string, unknown> }[] = [];
      for (const [name, value] of Object.entries(node.inputs)) {
        if (Array.isArray(value)) {
          const [src, slot] = value as unknown[];
          if (value.length !== 2 || typeof src !== 'string' || typeof slot !== 'number' || !(src in graph)) {
            errors.push({
              type: 'bad_linked_input',
              message: 'Bad linked input, must be a length-2 list of [node_id, slot_index]',
              details: name,
              extra_info: {},
            });
          }
        }
      }
      const combo = (input: string, options: string[]) => {
        const v = node.inputs[input];
        if (typeof v === 'string' && !options.includes(v)) {
          errors.push({
            type: 'value_not_in_list',
            message: 'Value not in list',
            details: `${input}: '${v}' not in ${JSON.stringify(options)}`,
            extra_info: {},
          });
        }
      };
      if (node.class_type === 'CheckpointLoaderSimple') combo('ckpt_name', this.checkpoints);
      if (node.class_type === 'LoraLoader' || node.class_type === 'LoraLoaderModelOnly') combo('lora_name', this.loras);
      if (
        (node.class_type === 'LoadImage' || node.class_type === 'LoadImageMask') &&
        !this.uploads.has(String(node.inputs.image))
      ) {
        errors.push({
          type: 'custom_validation_failed',
          message: 'Custom validation failed for node',
          details: `image - Invalid image file: ${String(node.inputs.image)}`,
          extra_info: {},
        });
      }
      if (errors.length) nodeErrors[id] = { errors, dependent_outputs: outputs, class_type: node.class_type };
    }
    if (Object.keys(nodeErrors).length) {
      return {
        error: {
          type: 'prompt_outputs_failed_validation',
          message: 'Prompt outputs failed validation',
          details: '',
          extra_info: {},
        },
        node_errors: nodeErrors,
      };
    }
    return undefined;
  }

  private postPrompt(res: ServerResponse, raw: Buffer): void {
    const body = JSON.parse(raw.toString() || '{}') as { prompt?: unknown; client_id?: string; prompt_id?: string };
    if (body.prompt === undefined) {
      return sendJson(res, 400, {
        error: { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} },
        node_errors: {},
      });
    }
    if (typeof body.prompt !== 'object' || body.prompt === null || Array.isArray(body.prompt)) {
      return sendJson(res, 400, {
        error: {
          type: 'invalid_prompt',
          message: 'Invalid prompt',
          details: 'prompt must be an object',
          extra_info: {},
        },
        node_errors: {},
      });
    }
    const graph = body.prompt as Graph;
    const invalid = this.validate(graph);
    if (invalid) return sendJson(res, 400, invalid);
    const item: Item = {
      number: this.counter++,
      id: body.prompt_id ?? randomUUID(),
      graph,
      clientId: body.client_id ?? '',
      interrupted: false,
    };
    this.pending.push(item);
    sendJson(res, 200, { prompt_id: item.id, number: item.number, node_errors: {} });
    this.broadcastStatus();
    this.pump();
  }

  private pump(): void {
    if (this.running || this.holdQueue) return;
    const next = this.pending.sort((a, b) => a.number - b.number).shift();
    if (!next) return;
    this.running = next;
    void this.execute(next).finally(() => {
      this.running = undefined;
      this.broadcastStatus();
      this.pump();
    });
  }

  private async execute(item: Item): Promise<void> {
    const failure = this.nextFailure;
    this.nextFailure = undefined;
    const c = item.clientId;
    const stamp = () => Date.now();
    const messages: [string, unknown][] = [];
    const event = async (type: string, data: Record<string, unknown>, record = false) => {
      await delay(this.tickMs);
      const payload = { ...data, prompt_id: item.id };
      if (record) messages.push([type, { ...payload, timestamp: stamp() }]);
      this.send(c, type, record ? { ...payload, timestamp: stamp() } : payload);
    };
    await event('execution_start', {}, true);
    await event('execution_cached', { nodes: [] }, true);
    if (failure?.kind === 'stall') return new Promise(() => undefined);
    const outputs: HistoryEntry['outputs'] = {};
    for (const [id, node] of Object.entries(item.graph)) {
      if (item.interrupted) return this.finishInterrupted(item, id, node.class_type, messages);
      await event('executing', { node: id, display_node: id });
      if (node.class_type === 'KSampler') {
        const steps = Number(node.inputs.steps);
        for (let v = 1; v <= steps; v++) {
          if (item.interrupted) return this.finishInterrupted(item, id, node.class_type, messages);
          await event('progress', { value: v, max: steps, node: id });
          await this.sendPreview(c, item.id, id);
          if (failure?.kind === 'execution_error' && v === 2) {
            const error = {
              prompt_id: item.id,
              node_id: id,
              node_type: 'KSampler',
              executed: [],
              exception_message: 'Allocation on device \nThis error means you ran out of memory on your GPU.',
              exception_type: 'torch.OutOfMemoryError',
              traceback: ['...'],
              current_inputs: {},
              current_outputs: [],
              timestamp: stamp(),
            };
            messages.push(['execution_error', error]);
            this.send(c, 'execution_error', error);
            this.history.set(item.id, this.entry(item, {}, 'error', messages));
            this.send(c, 'executing', { node: null, prompt_id: item.id });
            return;
          }
          if (failure?.kind === 'drop_socket_then_finish' && v === 1) this.sockets.get(c)?.ws.terminate();
        }
      }
      if (node.class_type === 'ImageUpscaleWithModel' || node.class_type === 'VAEDecode') {
        // Tiled nodes report their own progress through comfy.utils.ProgressBar.
        for (let v = 1; v <= 2; v++) await event('progress', { value: v, max: 2, node: id });
      }
      if (OUTPUT_NODES.has(node.class_type)) {
        const images = await this.saveOutputs(item.graph, node, node.class_type === 'SaveImage' ? 'output' : 'temp');
        outputs[id] = { images };
        await event('executed', { node: id, display_node: id, output: { images } });
      }
    }
    await event('execution_success', {}, true);
    this.history.set(item.id, this.entry(item, outputs, 'success', messages));
    this.send(c, 'executing', { node: null, prompt_id: item.id });
  }

  private finishInterrupted(item: Item, nodeId: string, nodeType: string, messages: [string, unknown][]): void {
    const data = { prompt_id: item.id, node_id: nodeId, node_type: nodeType, executed: [], timestamp: Date.now() };
    messages.push(['execution_interrupted', data]);
    this.send(item.clientId, 'execution_interrupted', data);
    this.history.set(item.id, this.entry(item, {}, 'error', messages));
    this.send(item.clientId, 'executing', { node: null, prompt_id: item.id });
  }

  private entry(
    item: Item,
    outputs: HistoryEntry['outputs'],
    status: 'success' | 'error',
    messages: [string, unknown][],
  ): HistoryEntry {
    return {
      prompt: [item.number, item.id, item.graph, { client_id: item.clientId }, this.outputNodes(item.graph)],
      outputs,
      status: { status_str: status, completed: status === 'success', messages },
      meta: Object.fromEntries(
        Object.keys(outputs).map((id) => [id, { node_id: id, display_node: id, parent_node: null, real_node_id: id }]),
      ),
    };
  }

  private async sendPreview(clientId: string, promptId: string, nodeId: string): Promise<void> {
    const socket = this.sockets.get(clientId);
    if (!socket) return;
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    const head = Buffer.alloc(8);
    if (socket.metadataPreviews) {
      const meta = Buffer.from(
        JSON.stringify({
          node_id: nodeId,
          prompt_id: promptId,
          display_node_id: nodeId,
          parent_node_id: null,
          real_node_id: nodeId,
          image_type: 'image/jpeg',
        }),
      );
      head.writeUInt32BE(4, 0);
      head.writeUInt32BE(meta.length, 4);
      socket.ws.send(Buffer.concat([head, meta, jpeg]));
    } else {
      head.writeUInt32BE(1, 0);
      head.writeUInt32BE(1, 4);
      socket.ws.send(Buffer.concat([head, jpeg]));
    }
  }

  /** Size and batch of the IMAGE/LATENT a link carries, following the graph the way execution would. */
  private async shape(graph: Graph, link: unknown): Promise<{ w: number; h: number; batch: number }> {
    const [src] = link as [string, number];
    const node = graph[src];
    if (!node) return { w: 64, h: 64, batch: 1 };
    const i = node.inputs;
    switch (node.class_type) {
      case 'EmptyLatentImage':
      case 'EmptySD3LatentImage':
        return { w: Number(i.width), h: Number(i.height), batch: Number(i.batch_size) };
      case 'LoadImage': {
        const meta = await sharp(this.uploads.get(String(i.image))).metadata();
        return { w: meta.width ?? 64, h: meta.height ?? 64, batch: 1 };
      }
      case 'ImageScale':
        return { ...(await this.shape(graph, i.image)), w: Number(i.width), h: Number(i.height) };
      case 'ImageScaleBy':
      case 'ImageUpscaleWithModel': {
        const s = await this.shape(graph, i.image);
        const f = node.class_type === 'ImageScaleBy' ? Number(i.scale_by) : 4;
        return { w: Math.round(s.w * f), h: Math.round(s.h * f), batch: s.batch };
      }
      case 'RepeatLatentBatch':
      case 'RepeatImageBatch': {
        const s = await this.shape(graph, i.samples ?? i.image);
        return { ...s, batch: s.batch * Number(i.amount) };
      }
      case 'KSampler':
        return this.shape(graph, i.latent_image);
      case 'VAEDecode':
      case 'SetLatentNoiseMask':
        return this.shape(graph, i.samples);
      case 'VAEEncode':
        return this.shape(graph, i.pixels);
      case 'ImageCompositeMasked':
        return this.shape(graph, i.destination);
      case 'FluxKontextImageScale':
        return this.shape(graph, i.image);
      default:
        return { w: 64, h: 64, batch: 1 };
    }
  }

  private async saveOutputs(graph: Graph, node: Graph[string], type: 'output' | 'temp') {
    const { w, h, batch } = await this.shape(graph, node.inputs.images);
    const prefix = typeof node.inputs.filename_prefix === 'string' ? node.inputs.filename_prefix : 'ComfyUI';
    const slash = prefix.lastIndexOf('/');
    const subfolder = slash >= 0 ? prefix.slice(0, slash) : '';
    const base = slash >= 0 ? prefix.slice(slash + 1) : prefix;
    const images = [];
    for (let b = 0; b < batch; b++) {
      const filename = `${base}_${String(++this.fileCounter).padStart(5, '0')}_.png`;
      const png = await sharp({
        create: { width: w, height: h, channels: 3, background: { r: (b * 60) % 256, g: 120, b: 200 } },
      })
        .png()
        .toBuffer();
      this.files.set(`${type}/${subfolder}/${filename}`, png);
      images.push({ filename, subfolder, type });
    }
    return images;
  }
}
