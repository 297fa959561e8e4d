/**
 * What Koma knows about each ComfyUI server: its facts (version, OS, preview method) and its node/file lists,
 * fetched at connect and refreshed after `ttlMs` or on demand, plus the last capability report for the status
 * view and the model tab.
 */
import type { LoraRef, ModelRef } from '../types.ts';
import { toEngineError } from '../errors.ts';
import { checkCapabilities } from './capabilities.ts';
import type { CapabilityReport, ObjectInfo, WantedFile } from './capabilities.ts';
import type { ComfyClient } from './client.ts';
import type { ComfyModelFiles } from './files.ts';
import { COMFY_FLUX_TYPES, loraFile, modelFile } from './files.ts';
import { formatVersion, serverFacts, TARGETED_INTERRUPT_SINCE, versionProblem } from './version.ts';
import type { ServerFacts } from './version.ts';

export interface ServerState {
  facts: ServerFacts;
  info: ObjectInfo;
  fetchedAt: number;
}

export interface ComfyServerReport extends Partial<CapabilityReport> {
  url: string;
  reachable: boolean;
  checkedAt: string;
  /** Why jobs cannot run here at all (unreachable, refused credentials, too old). */
  error?: string;
  version?: string;
  os?: string;
  portable?: boolean;
  queueRemaining?: number;
  /** `--preview-method` of the server; `none` means no step previews. */
  previewMethod?: string;
  previewsOff: boolean;
  /** Notes for the admin: old-version adaptations, previews off. */
  warnings: string[];
  missingNodes: CapabilityReport['missingNodes'];
  missingFiles: CapabilityReport['missingFiles'];
}

export class ServerStates {
  private readonly states = new Map<ComfyClient, ServerState>();
  readonly reports = new Map<string, ComfyServerReport>();

  constructor(private readonly ttlMs: number) {}

  /** Facts and lists of a server, fetched when missing or older than the TTL (or when `fresh`). */
  async get(client: ComfyClient, signal: AbortSignal, fresh = false): Promise<ServerState> {
    const known = this.states.get(client);
    if (known && !fresh && Date.now() - known.fetchedAt < this.ttlMs) return known;
    const [stats, info] = await Promise.all([client.systemStats(signal), client.objectInfo(signal)]);
    const state = { facts: serverFacts(stats), info, fetchedAt: Date.now() };
    this.states.set(client, state);
    return state;
  }

  /** Probes one server and records the report. */
  async check(client: ComfyClient, wanted: WantedFile[], files: ComfyModelFiles, signal: AbortSignal, probeMs: number) {
    const checkedAt = new Date().toISOString();
    let report: ComfyServerReport;
    try {
      const queueRemaining = await client.queueRemaining(signal, probeMs);
      const { facts, info } = await this.get(client, signal, true);
      const capability = checkCapabilities(info, wanted, files.ipAdapterPreset);
      const problem = versionProblem(facts, client.service);
      const warnings: string[] = [];
      if (!facts.targetedInterrupt) {
        warnings.push(
          `ComfyUI ${facts.versionText ?? 'of unknown version'} cannot stop one prompt by id (added in ${formatVersion(TARGETED_INTERRUPT_SINCE)}); Koma checks the queue first, but a cancel may still stop another user's prompt that starts at that moment`,
        );
      }
      const previewsOff = facts.previewMethod === 'none';
      if (previewsOff) warnings.push('Previews are off on this server: start ComfyUI with --preview-method auto');
      report = {
        url: client.url,
        reachable: true,
        checkedAt,
        queueRemaining,
        ...(facts.versionText ? { version: facts.versionText } : {}),
        ...(facts.os ? { os: facts.os } : {}),
        portable: facts.portable,
        ...(facts.previewMethod ? { previewMethod: facts.previewMethod } : {}),
        previewsOff,
        warnings,
        ...capability,
        ...(problem ? { error: problem } : {}),
      };
    } catch (err) {
      report = {
        url: client.url,
        reachable: false,
        checkedAt,
        error: toEngineError(err, 'engine_unreachable', client.service).message,
        previewsOff: false,
        warnings: [],
        missingNodes: [],
        missingFiles: [],
      };
    }
    this.reports.set(client.url, report);
    return report;
  }
}

/** The model files the catalogue entries and LoRAs routed to ComfyUI need, plus the configured shared files. */
export function wantedFiles(
  files: ComfyModelFiles,
  models: readonly ModelRef[],
  loras: readonly LoraRef[],
): WantedFile[] {
  const wanted: WantedFile[] = [];
  const add = (folder: string, node: string, input: string, file: string, usedBy: string) =>
    wanted.push({ folder, node, input, file, usedBy });
  for (const m of models) {
    const flux = COMFY_FLUX_TYPES.has(m.modelType);
    if (flux) add('diffusion_models', 'UNETLoader', 'unet_name', modelFile(m, files), `model ${m.id}`);
    else add('checkpoints', 'CheckpointLoaderSimple', 'ckpt_name', modelFile(m, files), `model ${m.id}`);
  }
  for (const l of loras) {
    const file = loraFile(l, files);
    if (file) add('loras', 'LoraLoader', 'lora_name', file, `LoRA ${l.name}`);
  }
  if (models.some((m) => COMFY_FLUX_TYPES.has(m.modelType)) || files.kontextUnet) {
    add('text_encoders', 'DualCLIPLoader', 'clip_name1', files.flux.clipL, 'FLUX text encoder');
    add('text_encoders', 'DualCLIPLoader', 'clip_name2', files.flux.t5, 'FLUX text encoder');
    add('vae', 'VAELoader', 'vae_name', files.flux.vae, 'FLUX VAE');
  }
  for (const [id, file] of Object.entries(files.controlnets))
    add('controlnet', 'ControlNetLoader', 'control_net_name', file, id);
  add('upscale_models', 'UpscaleModelLoader', 'model_name', files.upscaleModel, 'upscaler');
  if (files.kontextUnet) add('diffusion_models', 'UNETLoader', 'unet_name', files.kontextUnet, 'Kontext edits');
  return wanted;
}
