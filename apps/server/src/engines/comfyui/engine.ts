import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { DiffusionParams, Engine, EngineEvents, EngineImage, EngineResult, EngineTask } from '../types.ts';
import { EngineError, throwIfAborted, toEngineError } from '../errors.ts';
import { featheredMask, imageSize, outpaintCanvas, toPng } from '../masks.ts';
import { checkCapabilities } from './capabilities.ts';
import { ComfyClient } from './client.ts';
import { COMFY_FLUX_TYPES, COMFY_SDXL_TYPES, DEFAULT_COMFY_FILES } from './files.ts';
import type { ComfyModelFiles } from './files.ts';
import type { ComfyGraph } from './graph.ts';
import type { ComfyHistoryEntry } from './protocol.ts';
import { PromptTracker } from './tracker.ts';
import type { TrackerOptions } from './tracker.ts';
import {
  brushWorkflow,
  img2imgWorkflow,
  inpaintWorkflow,
  kontextEditWorkflow,
  regionalWorkflow,
  txt2imgWorkflow,
  upscaleWorkflow,
} from './workflows.ts';
import type { UploadedInputs, WorkflowOptions } from './workflows.ts';

export interface ComfyUiEngineOptions {
  /** Base URLs of the ComfyUI servers (all with the same models and custom nodes). */
  servers: string[];
  files?: Partial<ComfyModelFiles>;
  requestTimeoutMs?: number;
  /** Time limit of the GET /prompt busy probe used to pick a server. */
  probeTimeoutMs?: number;
  idleTimeoutMs?: number;
  jobTimeoutMs?: number;
  previewIntervalMs?: number;
  historyPollMs?: number;
}

export interface ComfyServerReport {
  url: string;
  reachable: boolean;
  error?: string;
  queueRemaining?: number;
  missingNodes: string[];
  missingFiles: string[];
}

/** A task reduced to the images to upload and a graph builder that takes their stored names. */
interface Plan {
  uploads: { role: 'image' | 'mask' | 'ipAdapter' | `control${number}` | `brush${number}`; bytes: Buffer }[];
  build(uploaded: UploadedInputs, opts: WorkflowOptions): ComfyGraph;
  model: string;
  /** Seed reported with every output (a ComfyUI batch shares one seed). */
  seed: number;
}

/** Self-hosted GPUs through the ComfyUI API: one prompt per job, sent to the least busy server. */
export class ComfyUiEngine implements Engine {
  readonly id = 'comfyui' as const;
  private readonly clients: ComfyClient[];
  private readonly files: ComfyModelFiles;
  private readonly tracking: TrackerOptions;
  private readonly probeTimeoutMs: number;
  /** Jobs this process has sent to each server and not yet finished (a server's queue lags our submissions). */
  private readonly inFlight = new Map<ComfyClient, number>();
  private turn = 0;

  constructor(options: ComfyUiEngineOptions) {
    if (options.servers.length === 0) throw new Error('ComfyUI engine needs at least one server URL');
    const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.clients = options.servers.map((url) => new ComfyClient(url, requestTimeoutMs));
    this.files = { ...DEFAULT_COMFY_FILES, ...options.files };
    this.probeTimeoutMs = options.probeTimeoutMs ?? 3_000;
    this.tracking = {
      idleTimeoutMs: options.idleTimeoutMs ?? 120_000,
      jobTimeoutMs: options.jobTimeoutMs ?? 600_000,
      previewIntervalMs: options.previewIntervalMs ?? 500,
      historyPollMs: options.historyPollMs ?? 1_000,
    };
  }

  /**
   * Probes every server: reachable, queue depth, node classes and model files that are missing (configured files
   * plus `checkpointPaths`, e.g. the catalogue paths routed here). For start-up logs and an admin page.
   */
  async checkServers(
    checkpointPaths: string[] = [],
    signal = AbortSignal.timeout(this.probeTimeoutMs * 4),
  ): Promise<ComfyServerReport[]> {
    return Promise.all(
      this.clients.map(async (client): Promise<ComfyServerReport> => {
        try {
          const queueRemaining = await client.queueRemaining(signal, this.probeTimeoutMs);
          const info = await client.objectInfo(signal);
          return {
            url: client.url,
            reachable: true,
            queueRemaining,
            ...checkCapabilities(info, this.files, checkpointPaths),
          };
        } catch (err) {
          return {
            url: client.url,
            reachable: false,
            error: toEngineError(err, 'connection_lost', client.service).message,
            missingNodes: [],
            missingFiles: [],
          };
        }
      }),
    );
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
    const plan = await this.plan(task);
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

  private async plan(task: EngineTask): Promise<Plan> {
    const extras = (p: DiffusionParams): Plan['uploads'] => [
      ...(p.ipAdapter ? [{ role: 'ipAdapter' as const, bytes: p.ipAdapter.image }] : []),
      ...(p.controlnets ?? []).map((cn, i) => ({ role: `control${i}` as const, bytes: cn.image })),
    ];
    switch (task.kind) {
      case 'txt2img':
        return {
          uploads: extras(task),
          build: (u, o) => txt2imgWorkflow(task, u, o),
          model: task.model.id,
          seed: task.seed,
        };
      case 'img2img':
        return {
          uploads: [{ role: 'image', bytes: task.image }, ...extras(task)],
          build: (u, o) => img2imgWorkflow(task, u, o),
          model: task.model.id,
          seed: task.seed,
        };
      case 'inpaint':
      case 'face_enhance': {
        const { width, height } = await imageSize(task.image, 'input image');
        const mask = await featheredMask(task.mask, width, height, task.maskBlur);
        return {
          uploads: [{ role: 'image', bytes: task.image }, { role: 'mask', bytes: mask }, ...extras(task)],
          build: (u, o) => inpaintWorkflow(task, u, o),
          model: task.model.id,
          seed: task.seed,
        };
      }
      case 'outpaint': {
        const canvas = await outpaintCanvas(task.image, task.padding, task.blur);
        return {
          uploads: [{ role: 'image', bytes: canvas.image }, { role: 'mask', bytes: canvas.mask }, ...extras(task)],
          build: (u, o) => inpaintWorkflow({ ...task, strength: 1 }, u, o),
          model: task.model.id,
          seed: task.seed,
        };
      }
      case 'regional':
        return {
          uploads: extras(task),
          build: (u, o) => regionalWorkflow(task, u, o),
          model: task.model.id,
          seed: task.seed,
        };
      case 'smd': {
        const masks = await Promise.all(
          task.brushes.map((brush) => featheredMask(brush.mask, task.width, task.height, 0)),
        );
        return {
          uploads: [...masks.map((bytes, i) => ({ role: `brush${i}` as const, bytes })), ...extras(task)],
          build: (u, o) => brushWorkflow(task, u, o),
          model: task.model.id,
          seed: task.seed,
        };
      }
      case 'upscale':
        return {
          uploads: [{ role: 'image', bytes: task.image }],
          build: (u, o) => upscaleWorkflow(task.scale, u, o),
          model: this.files.upscaleModel,
          seed: 0,
        };
      case 'edit':
        return {
          uploads: [{ role: 'image', bytes: task.image }],
          build: (u, o) => kontextEditWorkflow(task, u, o),
          model: task.model,
          seed: task.seed,
        };
      case 'video':
        throw new EngineError('validation', 'ComfyUI video workflows are not configured');
    }
  }

  /**
   * Least busy server by GET /prompt queue_remaining plus our own unfinished submissions; ties go round-robin.
   * Unreachable servers are skipped; if none answers the job fails with `connection_lost`.
   */
  private async pickServer(signal: AbortSignal): Promise<ComfyClient> {
    const probes = await Promise.all(
      this.clients.map(async (client) => {
        try {
          const remaining = await client.queueRemaining(signal, this.probeTimeoutMs);
          return { client, load: Math.max(remaining, this.inFlight.get(client) ?? 0), error: undefined };
        } catch (err) {
          throwIfAborted(signal);
          return { client, load: undefined, error: toEngineError(err, 'connection_lost', client.service).message };
        }
      }),
    );
    const up = probes.flatMap((p) => (p.load !== undefined ? [{ client: p.client, load: p.load }] : []));
    if (up.length === 0) {
      const reasons = probes.map((p) => p.error ?? '').join('; ');
      throw new EngineError('connection_lost', `No ComfyUI server is reachable (${reasons})`);
    }
    const least = Math.min(...up.map((p) => p.load));
    const candidates = up.filter((p) => p.load === least);
    const chosen = candidates[this.turn++ % candidates.length];
    if (!chosen) throw new Error('unreachable: no candidate server');
    return chosen.client;
  }

  private async execute(
    client: ComfyClient,
    plan: Plan,
    events: EngineEvents,
    signal: AbortSignal,
  ): Promise<EngineImage[]> {
    const clientId = `koma-${randomUUID()}`;
    const promptId = randomUUID();
    const ws = await client.connect(clientId, signal);
    let tracker: PromptTracker | undefined;
    try {
      const uploaded: UploadedInputs = { controlnets: [], brushes: [] };
      for (const { role, bytes } of plan.uploads) {
        const name = await client.upload(await toPng(bytes, `${role} image`), `koma-${promptId}-${role}.png`, signal);
        if (role.startsWith('control')) uploaded.controlnets?.push(name);
        else if (role.startsWith('brush')) uploaded.brushes?.push(name);
        else uploaded[role as 'image' | 'mask' | 'ipAdapter'] = name;
      }
      const graph = plan.build(uploaded, { files: this.files, filenamePrefix: `koma/${promptId}` });
      const classes = Object.fromEntries(Object.entries(graph).map(([id, node]) => [id, node.class_type]));
      tracker = new PromptTracker(ws, client, promptId, classes, events, signal, this.tracking);
      if (tracker.finished) await tracker.done; // Rejects: the socket is already gone, so do not submit.
      events.onProgress({ logs: [`Queued on ${client.service}`] });
      try {
        await client.submit(graph, clientId, promptId, signal);
      } catch (err) {
        // Cancelled while POST /prompt was in flight: the server may have queued it anyway.
        if (signal.aborted) void client.post('/queue', { delete: [promptId] }).catch(() => undefined);
        throw err;
      }
      tracker.markSubmitted();
      await tracker.done;
      const entry = await client.history(promptId, signal);
      if (!entry)
        throw new EngineError('engine_failed', `${client.service} finished the job but has no history for it`);
      const images = await this.collect(client, entry, plan.seed, signal);
      void client.post('/history', { delete: [promptId] }).catch(() => undefined);
      return images;
    } finally {
      if (tracker) tracker.close();
      else ws.close();
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
      const detail = error?.[1] as { exception_message?: string; node_type?: string } | undefined;
      throw new EngineError(
        'engine_failed',
        `ComfyUI failed${detail?.node_type ? ` in ${detail.node_type}` : ''}: ${detail?.exception_message?.trim() ?? 'see the server log'}`,
        entry.status,
      );
    }
    const refs = Object.values(entry.outputs).flatMap((o) => (o.images ?? []).filter((ref) => ref.type === 'output'));
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
