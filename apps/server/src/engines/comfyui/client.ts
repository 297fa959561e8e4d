import WebSocket from 'ws';
import type { z } from 'zod';
import { EngineError, cancelledError } from '../errors.ts';
import { fetchOrFail, malformed, readJson } from '../http.ts';
import { zObjectInfo } from './capabilities.ts';
import type { ObjectInfo } from './capabilities.ts';
import type { ComfyGraph } from './graph.ts';
import { zHistory, zPromptInfo, zQueue, zSubmitReply, zUploadReply } from './protocol.ts';
import type { ComfyFileRef, ComfyHistoryEntry } from './protocol.ts';
import { submitError } from './submit-error.ts';
import { zSystemStats } from './version.ts';
import type { SystemStats } from './version.ts';

/**
 * Credentials for a ComfyUI behind a reverse proxy (ComfyUI itself has no authentication): sent on every HTTP
 * request and on the WebSocket upgrade.
 */
export type ComfyAuth = { bearer: string } | { basic: string };

function authHeader(auth: ComfyAuth | undefined): Record<string, string> {
  if (!auth) return {};
  if ('bearer' in auth) return { authorization: `Bearer ${auth.bearer}` };
  return { authorization: `Basic ${Buffer.from(auth.basic).toString('base64')}` };
}

/** HTTP and WebSocket access to one ComfyUI server (engines.md §1.1). Stateless apart from its address. */
export class ComfyClient {
  readonly service: string;
  /** Base URL without a trailing slash. */
  readonly url: string;
  private readonly base: string;
  private readonly auth: Record<string, string>;

  constructor(
    url: string,
    private readonly requestTimeoutMs: number,
    auth?: ComfyAuth,
  ) {
    this.base = url.replace(/\/+$/, '');
    this.url = this.base;
    this.service = `ComfyUI at ${this.base}`;
    this.auth = authHeader(auth);
  }

  private async request(path: string, init: RequestInit, signal: AbortSignal, timeoutMs = this.requestTimeoutMs) {
    const headers = { ...this.auth, ...(init.headers as Record<string, string> | undefined) };
    const res = await fetchOrFail(this.service, `${this.base}${path}`, { ...init, headers }, signal, timeoutMs);
    if (res.status === 401 || res.status === 403) {
      await res.arrayBuffer().catch(() => undefined);
      throw new EngineError(
        'engine_auth',
        `${this.service} refused Koma's credentials (HTTP ${res.status}); set the token or user:password of this server in the engine config`,
      );
    }
    return res;
  }

  private async json<S extends z.ZodType>(path: string, schema: S, signal: AbortSignal, timeoutMs?: number) {
    const res = await this.request(path, { headers: { accept: 'application/json' } }, signal, timeoutMs);
    if (res.status === 404 && path === '/system_stats') {
      throw new EngineError(
        'engine_failed',
        `${this.service} has no /system_stats: it is not ComfyUI, or a very old one`,
      );
    }
    if (!res.ok) throw new EngineError('engine_failed', `${this.service} answered GET ${path} with HTTP ${res.status}`);
    const parsed = schema.safeParse(await readJson(this.service, res, `GET ${path}`));
    if (!parsed.success) throw malformed(this.service, `GET ${path}`, parsed.error.issues);
    return parsed.data;
  }

  /** Pending + running prompts (GET /prompt), the cheap busy probe used for balancing. */
  async queueRemaining(signal: AbortSignal, timeoutMs?: number): Promise<number> {
    return (await this.json('/prompt', zPromptInfo, signal, timeoutMs)).exec_info.queue_remaining;
  }

  /** GET /system_stats: version, OS and command line of the server. */
  async systemStats(signal: AbortSignal): Promise<SystemStats> {
    return this.json('/system_stats', zSystemStats, signal);
  }

  /** GET /object_info: every node class with its inputs (COMBO inputs list the installed files). */
  async objectInfo(signal: AbortSignal): Promise<ObjectInfo> {
    return this.json('/object_info', zObjectInfo, signal);
  }

  /** Running and pending prompt ids; pending sorted by queue number, since the server sends its heap unsorted. */
  async queue(signal: AbortSignal): Promise<{ running: string[]; pending: string[] }> {
    const q = await this.json('/queue', zQueue, signal);
    return {
      running: q.queue_running.map((item) => item[1]),
      pending: [...q.queue_pending].sort((a, b) => a[0] - b[0]).map((item) => item[1]),
    };
  }

  /**
   * POST /upload/image into ComfyUI's `input` or `temp` folder; returns the name LoadImage takes
   * (`subfolder/name`, annotated ` [temp]` for the temp folder: folder_paths.py `annotated_filepath`).
   */
  async upload(
    bytes: Buffer,
    filename: string,
    signal: AbortSignal,
    type: 'input' | 'temp' = 'input',
  ): Promise<string> {
    const form = new FormData();
    form.append('image', new Blob([bytes], { type: 'image/png' }), filename);
    form.append('type', type);
    form.append('overwrite', 'true');
    const res = await this.request('/upload/image', { method: 'POST', body: form }, signal);
    const body = await readJson(this.service, res, 'POST /upload/image');
    if (!res.ok) {
      throw new EngineError(
        'engine_failed',
        `${this.service} refused the upload of ${filename} (HTTP ${res.status})`,
        body,
      );
    }
    const parsed = zUploadReply.safeParse(body);
    if (!parsed.success) throw malformed(this.service, 'POST /upload/image', parsed.error.issues);
    const name = parsed.data.subfolder ? `${parsed.data.subfolder}/${parsed.data.name}` : parsed.data.name;
    return type === 'temp' ? `${name} [temp]` : name;
  }

  /**
   * POST /prompt; returns the id the server runs it under (older servers ignore `promptId`). A 400 becomes
   * `node_missing`, `model_missing` or `engine_rejected` with each node's complaint.
   */
  async submit(
    graph: ComfyGraph,
    clientId: string,
    promptId: string | undefined,
    signal: AbortSignal,
  ): Promise<string> {
    const res = await this.request(
      '/prompt',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: graph, client_id: clientId, ...(promptId ? { prompt_id: promptId } : {}) }),
      },
      signal,
    );
    const body = await readJson(this.service, res, 'POST /prompt');
    if (res.status === 400) throw submitError(this.service, body);
    if (!res.ok)
      throw new EngineError('engine_failed', `${this.service} answered POST /prompt with HTTP ${res.status}`, body);
    const parsed = zSubmitReply.safeParse(body);
    if (!parsed.success) throw malformed(this.service, 'POST /prompt', parsed.error.issues);
    return parsed.data.prompt_id;
  }

  /** The finished prompt's history entry, or undefined while it is still queued or running. */
  async history(promptId: string, signal: AbortSignal): Promise<ComfyHistoryEntry | undefined> {
    const all = await this.json(`/history/${encodeURIComponent(promptId)}`, zHistory, signal);
    return all[promptId];
  }

  async view(ref: ComfyFileRef, signal: AbortSignal): Promise<Buffer> {
    const q = new URLSearchParams({ filename: ref.filename, subfolder: ref.subfolder, type: ref.type });
    const res = await this.request(`/view?${q.toString()}`, {}, signal);
    if (!res.ok)
      throw new EngineError('engine_failed', `${this.service} could not serve ${ref.filename} (HTTP ${res.status})`);
    return Buffer.from(await res.arrayBuffer());
  }

  /** Best-effort housekeeping and cancellation calls; they use their own short-lived signal. */
  async post(path: string, body: unknown): Promise<void> {
    const res = await this.request(
      path,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      new AbortController().signal,
    );
    await res.arrayBuffer();
  }

  /** Opens `/ws?clientId=` and asks for previews that carry their prompt id (feature flags). */
  connect(clientId: string, signal: AbortSignal): Promise<WebSocket> {
    const wsUrl = `${this.base.replace(/^http/, 'ws')}/ws?clientId=${encodeURIComponent(clientId)}`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl, { handshakeTimeout: this.requestTimeoutMs, headers: this.auth });
      const onAbort = (): void => {
        ws.terminate();
        reject(cancelledError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      ws.once('open', () => {
        signal.removeEventListener('abort', onAbort);
        // Later socket errors are followed by 'close', which the tracker handles; without a listener they would throw.
        ws.on('error', () => undefined);
        ws.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } }));
        resolve(ws);
      });
      ws.once('unexpected-response', (_req, res) => {
        signal.removeEventListener('abort', onAbort);
        ws.terminate();
        const status = res.statusCode ?? 0;
        reject(
          status === 401 || status === 403
            ? new EngineError(
                'engine_auth',
                `${this.service} refused Koma's credentials on the WebSocket (HTTP ${status})`,
              )
            : new EngineError('engine_unreachable', `${this.service} refused the WebSocket (HTTP ${status})`),
        );
      });
      ws.once('error', (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(new EngineError('engine_unreachable', `${this.service} refused the WebSocket: ${err.message}`, err));
      });
    });
  }
}
