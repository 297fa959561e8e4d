/**
 * A ComfyUI server for tests that speaks the real protocol (engines.md §1.1–1.2, §1.7) and behaves like the
 * version it claims to be. Built from ComfyUI's sources (comfyanonymous/ComfyUI; v0.3.64 = commit 63722199
 * unless noted):
 * - /object_info from the recorded node definitions (../fixtures/object-info.ts), model combos filled with
 *   the files this server "has", written with `\` when it runs on Windows (`os: 'nt'`: folder_paths.py
 *   `recursive_search` uses os.path.relpath);
 * - POST /prompt validated as execution.py `validate_prompt` does (./comfy-validate.ts), answering 400
 *   `{error, node_errors}`;
 * - one prompt at a time; events routed to the submitting client; `execution_success` is sent from inside the
 *   executor, the history entry is written `historyDelayMs` later (main.py `prompt_worker` → `task_done`) and
 *   only then `executing {node: null}` is sent;
 * - step previews only when started with a preview method (comfy/cli_args.py `--preview-method`, default
 *   none), as type 4 frames with the prompt id when the client asked through feature flags (0.3.45+), else
 *   type 1;
 * - before 0.3.45 a client-chosen prompt_id is ignored and the server assigns uuid4 (#8189); before 0.3.57
 *   POST /interrupt stops whatever runs, whatever prompt_id it names (#9607);
 * - /system_stats with comfyui_version, os, embedded_python and argv; uploads to input or temp; /view,
 *   /history (GET and POST delete), /queue, /prompt, /interrupt. There is no route to delete files, as in
 *   ComfyUI.
 * - Optional auth as a reverse proxy in front of ComfyUI would do it (401 without the right header).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse, Server } from 'node:http';
import sharp from 'sharp';
import { WebSocketServer } from 'ws';
import type WebSocket from 'ws';
import { RECORDED_OBJECT_INFO } from '../fixtures/object-info.ts';
import type { FolderName, RecordedInput } from '../fixtures/object-info.ts';
import { validatePrompt } from './comfy-validate.ts';
import type { CustomValidators, Schema } from './comfy-validate.ts';
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

export type ModelFolders = Partial<Record<Exclude<FolderName, 'input'>, string[]>>;

export const DEFAULT_FOLDERS: ModelFolders = {
  checkpoints: ['animagine-xl-4.0.safetensors', 'sd_xl_base_1.0.safetensors'],
  loras: ['manga_style_xl.safetensors'],
  controlnet: ['OpenPoseXL2.safetensors'],
  upscale_models: ['4x-UltraSharp.pth'],
  text_encoders: ['clip_l.safetensors', 't5xxl_fp16.safetensors'],
  vae: ['ae.safetensors'],
  diffusion_models: ['flux1-dev.safetensors'],
  clip_vision: [],
  ipadapter: [],
};

export interface FakeComfyOptions {
  /** comfyui_version in /system_stats; also decides prompt-id and interrupt behaviour. Default 0.3.64. */
  version?: string;
  /** `nt` lists model files with backslashes, as ComfyUI on Windows does. */
  os?: 'posix' | 'nt';
  /** The `--preview-method` the server was started with; `none` (ComfyUI's default) sends no previews. */
  previewMethod?: 'none' | 'auto' | 'latent2rgb' | 'taesd';
  /** Files in each models folder, with `/` for subfolders. Unlisted folders take DEFAULT_FOLDERS. */
  folders?: ModelFolders;
  /** Shorthands for folders.checkpoints / folders.loras. */
  checkpoints?: string[];
  loras?: string[];
  /** Delay between emitted events. */
  tickMs?: number;
  /** Time between execution_success and the history entry + executing {node: null}. */
  historyDelayMs?: number;
  /** Node classes this server lacks (a custom node pack not installed, an old ComfyUI). */
  withoutNodes?: string[];
  /** Credentials a proxy in front of this server demands. */
  auth?: { bearer: string } | { basic: string };
}

export type Failure =
  | { kind: 'execution_error' }
  /** Closes the client's socket mid-job but finishes the prompt (history has it). */
  | { kind: 'drop_socket_then_finish' }
  /** Goes silent after execution_start and never finishes. */
  | { kind: 'stall' };

const versionOf = (text: string): number[] => (/(\d+)\.(\d+)\.(\d+)/.exec(text) ?? []).slice(1).map(Number);
const atLeast = (v: number[], min: number[]): boolean => {
  for (let i = 0; i < 3; i++) if ((v[i] ?? 0) !== min[i]) return (v[i] ?? 0) > min[i]!;
  return true;
};

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
  /** Uploaded files by `type/subfolder/name` (type input or temp). */
  private readonly uploads = new Map<string, Buffer>();
  private readonly files = new Map<string, Buffer>();
  private readonly history = new Map<string, HistoryEntry>();
  private pending: Item[] = [];
  private running: Item | undefined;
  private counter = 0;
  private fileCounter = 0;
  readonly version: string;
  private readonly v: number[];
  readonly os: 'posix' | 'nt';
  readonly previewMethod: string;
  /** Model folders as on disk (`/` separators); tests may add files while the server runs. */
  readonly folders: Required<ModelFolders>;
  private readonly tickMs: number;
  private readonly historyDelayMs: number;
  private readonly withoutNodes: string[];
  private readonly auth: string | undefined;

  constructor(options: FakeComfyOptions = {}) {
    this.version = options.version ?? '0.3.64';
    this.v = versionOf(this.version);
    this.os = options.os ?? 'posix';
    this.previewMethod = options.previewMethod ?? 'auto';
    this.folders = { ...DEFAULT_FOLDERS, ...options.folders } as Required<ModelFolders>;
    if (options.checkpoints) this.folders.checkpoints = options.checkpoints;
    if (options.loras) this.folders.loras = options.loras;
    this.tickMs = options.tickMs ?? 1;
    this.historyDelayMs = options.historyDelayMs ?? 20;
    this.withoutNodes = options.withoutNodes ?? [];
    const auth = options.auth;
    this.auth = auth
      ? 'bearer' in auth
        ? `Bearer ${auth.bearer}`
        : `Basic ${Buffer.from(auth.basic).toString('base64')}`
      : undefined;
  }

  /** A client-chosen prompt_id is kept (0.3.45+). */
  get keepsClientIds(): boolean {
    return atLeast(this.v, [0, 3, 45]);
  }

  /** POST /interrupt honours prompt_id (0.3.57+). */
  get targetedInterrupt(): boolean {
    return atLeast(this.v, [0, 3, 57]);
  }

  /** A folder's file list as ComfyUI serves it (sorted, OS separators). */
  private listed(folder: Exclude<FolderName, 'input'>): string[] {
    const names = [...this.folders[folder]].sort();
    const list = this.os === 'nt' ? names.map((n) => n.replace(/\//g, '\\')) : names;
    return folder === 'vae' ? [...list, 'pixel_space'] : list;
  }

  /** The served /object_info: the recorded definitions with this server's files in the model combos. */
  objectInfo(): Schema & Record<string, unknown> {
    const fill = (spec: RecordedInput): unknown[] => {
      const [type, options] = spec;
      if (typeof type === 'object' && !Array.isArray(type)) {
        const files =
          type.folder === 'input'
            ? [...this.uploads.keys()]
                .filter((k) => /^input\/[^/]+$/.test(k))
                .map((k) => k.slice(6))
                .sort()
            : this.listed(type.folder);
        return options ? [files, options] : [files];
      }
      return options ? [type, options] : [type];
    };
    const out: Record<string, unknown> = {};
    for (const [name, node] of Object.entries(RECORDED_OBJECT_INFO)) {
      if (this.withoutNodes.includes(name)) continue;
      const section = (inputs: Record<string, RecordedInput> | undefined) =>
        inputs ? Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, fill(v)])) : undefined;
      const required = section(node.input.required)!;
      const optional = section(node.input.optional);
      out[name] = {
        input: { required, ...(optional ? { optional } : {}) },
        input_order: { required: Object.keys(required), ...(optional ? { optional: Object.keys(optional) } : {}) },
        output: node.output,
        output_is_list: node.output.map(() => false),
        output_name: node.output_name ?? node.output,
        name,
        display_name: node.display_name ?? name,
        description: '',
        python_module: node.python_module ?? 'nodes',
        category: node.category,
        output_node: node.output_node === true,
      };
    }
    return out as Schema & Record<string, unknown>;
  }

  /** VALIDATE_INPUTS of LoadImage/LoadImageMask: the (annotated) file must exist (nodes.py, folder_paths.py). */
  private readonly custom: CustomValidators = {
    LoadImage: { image: (v) => this.imageExists(String(v)) },
    LoadImageMask: { image: (v) => this.imageExists(String(v)) },
  };

  private imageExists(name: string): true | string {
    const m = /^(.*) \[(input|temp|output)\]$/.exec(name);
    const [type, file] = m ? [m[2]!, m[1]!] : ['input', name];
    const found = type === 'output' ? this.files.has(`output/${file}`) : this.uploads.has(`${type}/${file}`);
    return found ? true : `Invalid image file: ${name}`;
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
      if (this.auth && req.headers.authorization !== this.auth) {
        socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
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

  /** Bytes of an uploaded file, by the name LoadImage uses (`name` for input/, `name [temp]` for temp/). */
  uploaded(name: string): Buffer | undefined {
    const m = /^(.*) \[(input|temp)\]$/.exec(name);
    return m ? this.uploads.get(`${m[2]}/${m[1]}`) : this.uploads.get(`input/${name}`);
  }

  /** Every stored file: uploads and outputs, as `type/subfolder/name`. */
  storedFiles(): string[] {
    return [...this.uploads.keys(), ...[...this.files.keys()].map((k) => k.replace(/\/\//, '/'))];
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
      if (msg.type === 'feature_flags' && this.keepsClientIds) {
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
    if (this.auth && req.headers.authorization !== this.auth) {
      this.requests.push({ method: req.method ?? '', path });
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
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
      // Before 0.3.57 the body is ignored and whatever runs is interrupted.
      const targeted = this.targetedInterrupt && body.prompt_id;
      if (this.running && (!targeted || body.prompt_id === this.running.id)) this.running.interrupted = true;
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
      const file = this.files.get(key) ?? this.uploads.get(key.replace(/\/\//, '/'));
      if (!file) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'image/png' }).end(file);
      return;
    }
    if (req.method === 'POST' && path === '/upload/image') return this.upload(req, res, raw);
    if (req.method === 'GET' && path === '/object_info') return sendJson(res, 200, this.objectInfo());
    if (req.method === 'GET' && path === '/system_stats') {
      const argv = ['main.py', '--listen', '0.0.0.0'];
      if (this.previewMethod !== 'none') argv.push('--preview-method', this.previewMethod);
      return sendJson(res, 200, {
        system: {
          os: this.os,
          ram_total: 34359738368,
          ram_free: 17179869184,
          comfyui_version: this.version,
          required_frontend_version: '1.27.10',
          python_version: '3.12.10',
          pytorch_version: '2.8.0+cu128',
          embedded_python: this.os === 'nt',
          argv,
        },
        devices: [{ name: 'cuda:0 NVIDIA GeForce RTX 4090', type: 'cuda', index: 0, vram_total: 25757220864 }],
      });
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
    const type = formText(form, 'type') || 'input';
    if (!['input', 'temp', 'output'].includes(type)) {
      res.writeHead(400).end();
      return;
    }
    const overwrite = ['true', '1'].includes(formText(form, 'overwrite'));
    let name = file.name;
    const hash = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    const key = (n: string) => `${type}/${this.key(subfolder, n)}`;
    for (let n = 1; !overwrite && this.uploads.has(key(name)); n++) {
      if (hash(this.uploads.get(key(name))!) === hash(bytes)) break;
      name = file.name.replace(/(\.[^.]*)?$/, ` (${n})$1`);
    }
    this.uploads.set(key(name), bytes);
    if (this.dropSocketsOnUpload) {
      for (const { ws } of this.sockets.values()) ws.terminate();
      await delay(50);
    }
    sendJson(res, 200, { name, subfolder, type });
  }

  private key(subfolder: string, name: string): string {
    return subfolder ? `${subfolder}/${name}` : name;
  }

  private outputNodes(graph: Graph): string[] {
    return Object.entries(graph).flatMap(([id, n]) => (RECORDED_OBJECT_INFO[n.class_type]?.output_node ? [id] : []));
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
    const result = validatePrompt(graph, this.objectInfo(), this.custom);
    if (!result.ok) return sendJson(res, 400, { error: result.error, node_errors: result.nodeErrors });
    const item: Item = {
      number: this.counter++,
      // server.py: str(json_data.get("prompt_id", uuid.uuid4())) since 0.3.45; always uuid4 before.
      id: this.keepsClientIds && body.prompt_id !== undefined ? String(body.prompt_id) : randomUUID(),
      graph,
      clientId: body.client_id ?? '',
      interrupted: false,
    };
    this.pending.push(item);
    sendJson(res, 200, { prompt_id: item.id, number: item.number, node_errors: result.nodeErrors });
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
      if (RECORDED_OBJECT_INFO[node.class_type]?.output_node) {
        const images = await this.saveOutputs(item.graph, node, node.class_type === 'SaveImage' ? 'output' : 'temp');
        outputs[id] = { images };
        await event('executed', { node: id, display_node: id, output: { images } });
      }
    }
    await event('execution_success', {}, true);
    // execute_async returns, then task_done writes the history, then executing {node: null} (main.py).
    await delay(this.historyDelayMs);
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
    if (!socket || this.previewMethod === 'none') return;
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    const head = Buffer.alloc(8);
    if (socket.metadataPreviews && this.keepsClientIds) {
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
        const meta = await sharp(this.uploaded(String(i.image))).metadata();
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
    const prefix =
      type === 'temp'
        ? `ComfyUI_temp_${randomUUID().slice(0, 5)}`
        : typeof node.inputs.filename_prefix === 'string'
          ? node.inputs.filename_prefix
          : 'ComfyUI';
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
