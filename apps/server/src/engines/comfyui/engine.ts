import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type {
  DiffusionParams,
  Engine,
  EngineEvents,
  EngineImage,
  EngineProbe,
  EngineResult,
  EngineTask,
  LoraRef,
  ModelRef,
} from '../types.ts';
import { EngineError, sleep, throwIfAborted, toEngineError } from '../errors.ts';
import { toPng } from '../masks.ts';
import { ComfyClient } from './client.ts';
import type { ComfyAuth } from './client.ts';
import { COMFY_FLUX_TYPES, COMFY_SDXL_TYPES, DEFAULT_COMFY_FILES } from './files.ts';
import type { ComfyModelFiles } from './files.ts';
import type { ComfyHistoryEntry } from './protocol.ts';
import { comboOptions } from './capabilities.ts';
import { proposeMapping } from './propose.ts';
import { probeOf, probeTarget } from '../reachability.ts';
import { resolveGraph } from './resolve.ts';
import { ServerStates, wantedFiles } from './server-state.ts';
import type { ComfyServerReport, ServerState } from './server-state.ts';
import { versionProblem } from './version.ts';
import { planTask } from './plan.ts';
import type { Plan } from './plan.ts';
import { executionErrorCode, PromptTracker } from './tracker.ts';
import type { TrackerOptions } from './tracker.ts';
import type { UploadedInputs, WorkflowOptions } from './workflows.ts';

export interface ComfyServerOption {
  url: string;
  auth?: ComfyAuth;
}

export interface ComfyUiEngineOptions {
  /** The ComfyUI servers (all with the same models and custom nodes): URLs, or URLs with credentials. */
  servers: (string | ComfyServerOption)[];
  files?: Partial<ComfyModelFiles>;
  requestTimeoutMs?: number;
  /** Time limit of the GET /prompt busy probe used to pick a server. */
  probeTimeoutMs?: number;
  idleTimeoutMs?: number;
  jobTimeoutMs?: number;
  previewIntervalMs?: number;
  historyPollMs?: number;
  /**
   * `temp` (default): inputs go to ComfyUI's temp folder and results come from PreviewImage, so nothing is left in
   * input/ or output/ and ComfyUI empties temp/ when it restarts. `keep`: inputs in input/, results saved in
   * output/koma/ (ComfyUI has no endpoint that deletes files, so they stay until someone removes them).
   */
  cleanup?: 'temp' | 'keep';
  /** How long a server's node and file lists are trusted before they are read again. */
  objectInfoTtlMs?: number;
  /** Reads of /history after the prompt finished, 100 ms apart, before giving up on the outputs. */
  historyRetries?: number;
}

export type { ComfyServerReport } from './server-state.ts';

/** Self-hosted GPUs through the ComfyUI API: one prompt per job, sent to the least busy server. */
export class ComfyUiEngine implements Engine {
  readonly id = 'comfyui' as const;
  private readonly clients: ComfyClient[];
  private readonly files: ComfyModelFiles;
  private readonly tracking: TrackerOptions;
  private readonly probeTimeoutMs: number;
  private readonly cleanup: 'temp' | 'keep';
  private readonly historyRetries: number;
  readonly states: ServerStates;
  /** Jobs this process has sent to each server and not yet finished (a server's queue lags our submissions). */
  private readonly inFlight = new Map<ComfyClient, number>();
  private turn = 0;

  constructor(options: ComfyUiEngineOptions) {
    if (options.servers.length === 0) throw new Error('ComfyUI engine needs at least one server URL');
    const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.clients = options.servers.map((s) =>
      typeof s === 'string' ? new ComfyClient(s, requestTimeoutMs) : new ComfyClient(s.url, requestTimeoutMs, s.auth),
    );
    this.files = { ...DEFAULT_COMFY_FILES, ...options.files };
    this.probeTimeoutMs = options.probeTimeoutMs ?? 3_000;
    this.cleanup = options.cleanup ?? 'temp';
    this.historyRetries = options.historyRetries ?? 20;
    this.states = new ServerStates(options.objectInfoTtlMs ?? 60_000);
    this.tracking = {
      idleTimeoutMs: options.idleTimeoutMs ?? 120_000,
      jobTimeoutMs: options.jobTimeoutMs ?? 600_000,
      previewIntervalMs: options.previewIntervalMs ?? 500,
      historyPollMs: options.historyPollMs ?? 1_000,
    };
  }

  /**
   * The capability check: probes every server for reachability, version, preview method, the full node list
   * and the files the given catalogue models and LoRAs (those routed here) need. Run at start-up and on demand;
   * the reports stay available as `reports()`.
   */
  async checkServers(
    models: readonly ModelRef[] = [],
    loras: readonly LoraRef[] = [],
    signal = AbortSignal.timeout(this.probeTimeoutMs * 4),
  ): Promise<ComfyServerReport[]> {
    const wanted = wantedFiles(this.files, models, loras);
    return Promise.all(this.clients.map((c) => this.states.check(c, wanted, this.files, signal, this.probeTimeoutMs)));
  }

  /**
   * A model/LoRA → file proposal from the first server that answers (all servers should hold the same files).
   */
  async proposeFiles(
    models: readonly (ModelRef & { name?: string })[],
    loras: readonly LoraRef[],
    signal = AbortSignal.timeout(this.probeTimeoutMs * 4),
  ): Promise<{ url: string; proposal: ReturnType<typeof proposeMapping> }> {
    let last: unknown;
    for (const client of this.clients) {
      try {
        const { info } = await this.states.get(client, signal, true);
        const lists = {
          checkpoints: comboOptions(info, 'CheckpointLoaderSimple', 'ckpt_name'),
          diffusionModels: comboOptions(info, 'UNETLoader', 'unet_name'),
          loras: comboOptions(info, 'LoraLoader', 'lora_name'),
        };
        return { url: client.url, proposal: proposeMapping(this.files, lists, models, loras) };
      } catch (err) {
        last = err;
      }
    }
    throw toEngineError(last, 'engine_unreachable', 'No ComfyUI server answered');
  }

  /** Reachability for readiness checks: every server's cheap `GET /prompt`, with its credentials. */
  async probe(signal: AbortSignal): Promise<EngineProbe> {
    const targets = await Promise.all(
      this.clients.map(async (client) => {
        try {
          await client.queueRemaining(signal, this.probeTimeoutMs);
          return probeTarget(client.url, undefined, signal);
        } catch (err) {
          return probeTarget(client.url, err, signal);
        }
      }),
    );
    return probeOf(targets);
  }

  /** The last report of every server (empty before the first check). */
  reports(): ComfyServerReport[] {
    return this.clients.flatMap((c) => this.states.reports.get(c.url) ?? []);
  }

  /** True when the last check found every usable server started without --preview-method (no step previews). */
  previewsOff(): boolean {
    const reports = this.reports().filter((r) => r.reachable && !r.error);
    return reports.length > 0 && reports.every((r) => r.previewsOff);
  }

  /**
   * Whether a model or LoRA can run here, from the last check: available when some usable server has its file.
   * Unknown (no check yet) counts as available, so a slow start-up check never hides models.
   */
  fileAvailable(kind: 'model', ref: ModelRef): { available: boolean; reason?: string };
  fileAvailable(kind: 'lora', ref: LoraRef): { available: boolean; reason?: string };
  fileAvailable(kind: 'model' | 'lora', ref: ModelRef | LoraRef): { available: boolean; reason?: string } {
    const reports = this.reports().filter((r) => r.reachable && !r.error);
    if (reports.length === 0) return { available: true };
    const usedBy = kind === 'model' ? `model ${(ref as ModelRef).id}` : `LoRA ${(ref as LoraRef).name}`;
    if (reports.some((r) => (r.resolved ?? []).some((x) => x.usedBy === usedBy))) return { available: true };
    const missing = reports.flatMap((r) => r.missingFiles).find((f) => f.usedBy === usedBy);
    return {
      available: false,
      reason: missing ? `No ComfyUI server has models/${missing.folder}/${missing.file}` : 'Not checked on ComfyUI',
    };
  }

  supports(task: EngineTask): boolean {
    switch (task.kind) {
      case 'txt2img':
      case 'img2img':
      case 'inpaint':
      case 'outpaint':
      case 'face_enhance':
      case 'regional':
      case 'smd':
        return this.supportsDiffusion(task);
      case 'upscale':
        return true;
      case 'edit':
        return task.model === 'kontext-dev' && !!this.files.kontextUnet && !task.mask;
      case 'video':
        return false;
    }
  }

  private supportsDiffusion(p: DiffusionParams): boolean {
    if (COMFY_SDXL_TYPES.has(p.model.modelType)) return true;
    return COMFY_FLUX_TYPES.has(p.model.modelType) && !p.ipAdapter && (p.controlnets ?? []).length === 0;
  }

  async run(task: EngineTask, events: EngineEvents, signal: AbortSignal): Promise<EngineResult> {
    throwIfAborted(signal);
    if (!this.supports(task)) {
      throw new EngineError('validation', `ComfyUI is not set up to run this ${task.kind} task`);
    }
    const plan = await planTask(task, this.files);
    const client = await this.pickServer(signal);
    this.inFlight.set(client, (this.inFlight.get(client) ?? 0) + 1);
    try {
      const images = await this.execute(client, plan, events, signal);
      const note =
        images.length > 1 ? 'One ComfyUI batch: every image shares the seed (batch index differs).' : undefined;
      return { images, metadata: { engine: 'comfyui', model: plan.model, ...(note ? { note } : {}) } };
    } finally {
      this.inFlight.set(client, (this.inFlight.get(client) ?? 1) - 1);
    }
  }

  /**
   * Least busy server by GET /prompt queue_remaining plus our own unfinished submissions; ties go round-robin.
   * Unreachable servers are skipped; if none answers the job fails with `engine_unreachable` (or `engine_auth`
   * when every server refused the credentials).
   */
  private async pickServer(signal: AbortSignal): Promise<ComfyClient> {
    const probes = await Promise.all(
      this.clients.map(async (client) => {
        try {
          const remaining = await client.queueRemaining(signal, this.probeTimeoutMs);
          return { client, load: Math.max(remaining, this.inFlight.get(client) ?? 0), error: undefined };
        } catch (err) {
          throwIfAborted(signal);
          return { client, load: undefined, error: toEngineError(err, 'engine_unreachable', client.service) };
        }
      }),
    );
    const up = probes.flatMap((p) => (p.load !== undefined ? [{ client: p.client, load: p.load }] : []));
    if (up.length === 0) {
      const reasons = probes.map((p) => p.error?.message ?? '').join('; ');
      const auth = probes.every((p) => p.error?.code === 'engine_auth');
      throw new EngineError(
        auth ? 'engine_auth' : 'engine_unreachable',
        `No ComfyUI server ${auth ? 'accepts Koma' : 'is reachable'} (${reasons})`,
      );
    }
    const least = Math.min(...up.map((p) => p.load));
    const candidates = up.filter((p) => p.load === least);
    const chosen = candidates[this.turn++ % candidates.length];
    if (!chosen) throw new Error('unreachable: no candidate server');
    return chosen.client;
  }

  /** The server's facts and lists, refusing servers that are too old. */
  private async serverState(client: ComfyClient, signal: AbortSignal, fresh = false): Promise<ServerState> {
    const state = await this.states.get(client, signal, fresh);
    const problem = versionProblem(state.facts, client.service);
    if (problem) throw new EngineError('engine_rejected', problem);
    return state;
  }

  /** Node and file check before anything is uploaded; a miss re-reads the lists once (files may have been added). */
  private async checkGraph(client: ComfyClient, plan: Plan, signal: AbortSignal): Promise<ServerState> {
    const names: UploadedInputs = {
      image: 'x.png',
      mask: 'x.png',
      ipAdapter: 'x.png',
      controlnets: plan.uploads.map(() => 'x.png'),
      brushes: plan.uploads.map(() => 'x.png'),
    };
    const graph = plan.build(names, this.workflowOptions('check'));
    let state = await this.serverState(client, signal);
    try {
      resolveGraph(graph, state.info, client.service);
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      state = await this.serverState(client, signal, true);
      resolveGraph(graph, state.info, client.service);
    }
    return state;
  }

  private workflowOptions(jobId: string): WorkflowOptions {
    return {
      files: this.files,
      filenamePrefix: `koma/${jobId}`,
      output: this.cleanup === 'temp' ? 'preview' : 'save',
    };
  }

  private async execute(
    client: ComfyClient,
    plan: Plan,
    events: EngineEvents,
    signal: AbortSignal,
  ): Promise<EngineImage[]> {
    const state = await this.checkGraph(client, plan, signal);
    const { facts } = state;
    const clientId = `koma-${randomUUID()}`;
    const jobId = randomUUID();
    // Servers before 0.3.45 ignore a client-chosen id: the tracker then learns it from POST /prompt's reply.
    const requestedId = facts.clientPromptIds ? jobId : undefined;
    const ws = await client.connect(clientId, signal);
    let tracker: PromptTracker | undefined;
    try {
      const uploaded: UploadedInputs = { controlnets: [], brushes: [] };
      const uploadType = this.cleanup === 'temp' ? 'temp' : 'input';
      for (const { role, bytes } of plan.uploads) {
        const name = await client.upload(
          await toPng(bytes, `${role} image`),
          `koma-${jobId}-${role}.png`,
          signal,
          uploadType,
        );
        if (role.startsWith('control')) uploaded.controlnets?.push(name);
        else if (role.startsWith('brush')) uploaded.brushes?.push(name);
        else uploaded[role as 'image' | 'mask' | 'ipAdapter'] = name;
      }
      const graph = resolveGraph(plan.build(uploaded, this.workflowOptions(jobId)), state.info, client.service);
      const classes = Object.fromEntries(Object.entries(graph).map(([id, node]) => [id, node.class_type]));
      tracker = new PromptTracker(ws, client, requestedId, classes, events, signal, {
        ...this.tracking,
        targetedInterrupt: facts.targetedInterrupt,
        previewsOffAfterSteps: facts.previewMethod === 'none' ? 1 : 2,
      });
      if (tracker.finished) await tracker.done; // Rejects: the socket is already gone, so do not submit.
      events.onProgress({ logs: [`Queued on ${client.service}`] });
      let promptId: string;
      try {
        promptId = await client.submit(graph, clientId, requestedId, signal);
      } catch (err) {
        // Cancelled while POST /prompt was in flight: the server may have queued it anyway.
        if (signal.aborted && requestedId) void client.post('/queue', { delete: [requestedId] }).catch(() => undefined);
        throw err;
      }
      tracker.markSubmitted(promptId);
      await tracker.done;
      const entry = await this.finishedEntry(client, promptId, signal);
      const images = await this.collect(client, entry, plan.seed, signal);
      void client.post('/history', { delete: [promptId] }).catch(() => undefined);
      return images;
    } finally {
      if (tracker) tracker.close();
      else ws.close();
    }
  }

  /**
   * The history entry of a finished prompt. It is written just before `executing {node: null}`, so it is
   * normally there at once; a proxy or a slow disk can still delay it, hence a short retry.
   */
  private async finishedEntry(client: ComfyClient, promptId: string, signal: AbortSignal): Promise<ComfyHistoryEntry> {
    for (let attempt = 0; ; attempt++) {
      const entry = await client.history(promptId, signal);
      if (entry) return entry;
      if (attempt >= this.historyRetries) {
        throw new EngineError('engine_failed', `${client.service} finished the job but has no history for it`);
      }
      await sleep(100, signal);
    }
  }

  /** Reads every saved output image of a finished prompt; a failed prompt becomes an EngineError. */
  private async collect(
    client: ComfyClient,
    entry: ComfyHistoryEntry,
    seed: number,
    signal: AbortSignal,
  ): Promise<EngineImage[]> {
    if (entry.status?.status_str === 'error') {
      const error = entry.status.messages.find(([type]) => type === 'execution_error');
      const detail = error?.[1] as
        { exception_message?: string; exception_type?: string; node_type?: string } | undefined;
      throw new EngineError(
        executionErrorCode(detail?.exception_type, detail?.exception_message),
        `ComfyUI failed${detail?.node_type ? ` in ${detail.node_type}` : ''}: ${detail?.exception_message?.trim() ?? 'see the server log'}`,
        entry.status,
      );
    }
    const wanted = this.cleanup === 'temp' ? 'temp' : 'output';
    const refs = Object.values(entry.outputs).flatMap((o) => (o.images ?? []).filter((ref) => ref.type === wanted));
    if (refs.length === 0)
      throw new EngineError('engine_failed', `${client.service} finished the job without saving an image`);
    const images: EngineImage[] = [];
    for (const ref of refs) {
      const bytes = await client.view(ref, signal);
      let meta: sharp.Metadata;
      try {
        meta = await sharp(bytes).metadata();
      } catch (err) {
        throw new EngineError(
          'engine_failed',
          `${client.service} returned ${ref.filename}, which is not an image`,
          err,
        );
      }
      images.push({
        bytes,
        mime: `image/${meta.format === 'jpeg' ? 'jpeg' : (meta.format ?? 'png')}`,
        width: meta.width ?? 0,
        height: meta.height ?? 0,
        seed,
      });
    }
    return images;
  }
}
