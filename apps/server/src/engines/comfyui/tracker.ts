import type WebSocket from 'ws';
import type { EngineEvents } from '../types.ts';
import { EngineError, cancelledError } from '../errors.ts';
import type { EngineErrorCode } from '../errors.ts';
import type { ComfyClient } from './client.ts';
import {
  decodeBinaryFrame,
  safeJson,
  zExecutingData,
  zExecutionError,
  zProgressData,
  zPromptEvent,
  zWsMessage,
} from './protocol.ts';

export interface TrackerOptions {
  /** No WS message at all for this long: poll the queue and history instead of waiting for events. */
  idleTimeoutMs: number;
  /** Hard limit for the whole prompt, queue time included. */
  jobTimeoutMs: number;
  /** Minimum gap between preview events (engines.md suggests about 2 Hz). */
  previewIntervalMs: number;
  /** History polling interval once the socket is gone. */
  historyPollMs: number;
  /** Sampler steps without a preview after which the job logs that previews are off on the server. */
  previewsOffAfterSteps?: number;
  /** The server interrupts by prompt id (0.3.57+); else Koma checks that its prompt is the one running. */
  targetedInterrupt?: boolean;
}

/** What the tracker learned about the server while following the prompt. */
export interface TrackerObservations {
  previews: number;
  samplerSteps: number;
}

/**
 * Follows one prompt on the client's WebSocket (engines.md §1.2–1.3) and turns its events into EngineEvents.
 * `done` resolves when the prompt is finished: ComfyUI sends `execution_success` from inside the executor, then
 * writes the history entry (main.py `prompt_worker` → `PromptQueue.task_done`) and only then sends
 * `executing {node: null}` — the message its own websocket example waits for. So completion is that message,
 * not execution_success. It rejects with an EngineError on execution_error, interruption, a dropped socket,
 * silence or cancellation.
 *
 * The prompt id may be unknown until POST /prompt answers (servers before 0.3.45 assign their own): events that
 * name a prompt are held until `setPromptId`, since execution can start before the reply arrives.
 */
export class PromptTracker {
  readonly done: Promise<void>;
  started = false;
  private settled = false;
  private resolveDone!: () => void;
  private rejectDone!: (err: EngineError) => void;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly jobTimer: NodeJS.Timeout;
  private lastPreviewAt = 0;
  private queueRefresh: 'idle' | 'running' | 'dirty' = 'idle';
  private submitted = false;
  private polling = false;
  private lastEventAt = 0;
  /** With a sampler in the graph, only its steps count as `Progress: n/m`. */
  private readonly hasSampler: boolean;
  private promptId: string | undefined;
  /** Messages naming a prompt, received before the id was known. */
  private held: { type: string; payload: unknown }[] = [];
  private heldFrames: Buffer[] = [];
  private previewsOffLogged = false;
  readonly observed: TrackerObservations = { previews: 0, samplerSteps: 0 };

  constructor(
    private readonly ws: WebSocket,
    private readonly client: ComfyClient,
    promptId: string | undefined,
    private readonly nodeClasses: Record<string, string>,
    private readonly events: EngineEvents,
    private readonly signal: AbortSignal,
    private readonly opts: TrackerOptions,
  ) {
    this.promptId = promptId;
    this.hasSampler = Object.values(nodeClasses).includes('KSampler');
    this.done = new Promise<void>((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
    // The caller may attach its handler late; an unobserved rejection must not crash the process meanwhile.
    this.done.catch(() => undefined);
    ws.on('message', (data: Buffer, isBinary: boolean) => this.onMessage(data, isBinary));
    ws.on('close', () => this.onClose());
    ws.on('error', () => undefined);
    signal.addEventListener('abort', this.onAbort, { once: true });
    this.jobTimer = setTimeout(
      () => this.fail(new EngineError('timeout', `The ComfyUI job did not finish within ${opts.jobTimeoutMs} ms`)),
      opts.jobTimeoutMs,
    );
    this.touch();
    // The socket may have dropped while inputs were uploading, before anyone listened for 'close'.
    if (ws.readyState !== ws.OPEN) {
      this.fail(new EngineError('connection_lost', `Lost the connection to ${client.service} before the job was sent`));
    }
  }

  /** True once the outcome is known (`done` has settled). */
  get finished(): boolean {
    return this.settled;
  }

  /** The id the server runs the prompt under. */
  get id(): string | undefined {
    return this.promptId;
  }

  /**
   * Call once POST /prompt succeeded, with the id it returned: from now on a cancel must reach the server, and
   * held messages are replayed.
   */
  markSubmitted(promptId: string): void {
    this.promptId = promptId;
    this.submitted = true;
    const held = this.held;
    const frames = this.heldFrames;
    this.held = [];
    this.heldFrames = [];
    for (const m of held) this.onPromptMessage(m.type, m.payload);
    for (const f of frames) this.onBinary(f);
    if (!this.settled) this.refreshQueuePosition();
  }

  private touch(): void {
    this.lastEventAt = Date.now();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.onIdle(), this.opts.idleTimeoutMs);
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (this.settled) return;
    this.touch();
    if (isBinary) {
      this.onBinary(data);
      return;
    }
    const parsed = zWsMessage.safeParse(safeJson(data.toString('utf8')));
    if (!parsed.success) return; // Unknown frames are ignored: newer servers add message types.
    const { type, data: payload } = parsed.data;
    if (type === 'status') {
      if (!this.started && this.submitted) this.refreshQueuePosition();
      return;
    }
    if (this.promptId === undefined) {
      this.held.push({ type, payload });
      return;
    }
    this.onPromptMessage(type, payload);
  }

  private onPromptMessage(type: string, payload: unknown): void {
    if (this.settled) return;
    const mine = zPromptEvent.safeParse(payload);
    if (!mine.success || mine.data.prompt_id !== this.promptId) return;
    switch (type) {
      case 'execution_start':
        this.started = true;
        this.events.onProgress({ logs: [`Started on ${this.client.service}`], progress: 0, queuePosition: 0 });
        break;
      case 'executing': {
        const e = zExecutingData.safeParse(payload);
        if (!e.success) break;
        this.started = true;
        if (e.data.node === null) {
          // Also sent after an execution_error; that already failed the job, so this only ends a success.
          this.succeed();
        } else
          this.events.onProgress({
            logs: [`Running ${this.nodeClasses[e.data.node] ?? 'node'} (node ${e.data.node})`],
          });
        break;
      }
      case 'progress': {
        const p = zProgressData.safeParse(payload);
        if (!p.success || p.data.max <= 0) break;
        const node = p.data.node ?? undefined;
        if (this.hasSampler && node !== undefined && this.nodeClasses[node] !== 'KSampler') {
          // Tiles of a VAE or upscaler after sampling would send the bar back to 0; log them without a ratio.
          this.events.onProgress({ logs: [`${this.nodeClasses[node] ?? 'node'}: ${p.data.value} of ${p.data.max}`] });
          break;
        }
        this.events.onProgress({
          logs: [`Progress: ${p.data.value}/${p.data.max}`],
          progress: Math.min(1, p.data.value / p.data.max),
        });
        if (this.hasSampler) this.countSamplerStep();
        break;
      }
      case 'execution_success':
        // The history entry is written after this; executing {node: null} says it is there.
        this.events.onProgress({ logs: ['Finished; waiting for the server to record the outputs'] });
        break;
      case 'execution_error': {
        const e = zExecutionError.safeParse(payload);
        const d = e.success
          ? e.data
          : {
              prompt_id: '',
              node_type: undefined,
              node_id: undefined,
              exception_type: undefined,
              exception_message: undefined,
            };
        const where = d.node_type ? ` in ${d.node_type}${d.node_id ? ` (node ${d.node_id})` : ''}` : '';
        const what = [d.exception_type, d.exception_message?.trim()].filter(Boolean).join(': ') || 'unknown error';
        this.fail(
          new EngineError(
            executionErrorCode(d.exception_type, d.exception_message),
            `ComfyUI failed${where}: ${what}`,
            payload,
          ),
        );
        break;
      }
      case 'execution_interrupted':
        this.fail(new EngineError('cancelled', 'The job was interrupted on the ComfyUI server'));
        break;
      default:
        break;
    }
  }

  private onBinary(data: Buffer): void {
    if (this.promptId === undefined) {
      this.heldFrames.push(data);
      return;
    }
    const frame = decodeBinaryFrame(data);
    if (!frame || frame.kind !== 'preview') return;
    // Type-1 frames carry no prompt id: they belong to whatever runs for this socket, which is only ever us.
    if (frame.promptId ? frame.promptId !== this.promptId : !this.started) return;
    this.observed.previews++;
    const now = Date.now();
    if (now - this.lastPreviewAt < this.opts.previewIntervalMs) return;
    this.lastPreviewAt = now;
    this.events.onProgress({ preview: { bytes: Buffer.from(frame.bytes), mime: frame.mime } });
  }

  /** ComfyUI sends step previews only when it runs with --preview-method (default none): say so once. */
  private countSamplerStep(): void {
    this.observed.samplerSteps++;
    const after = this.opts.previewsOffAfterSteps ?? 2;
    if (this.previewsOffLogged || this.observed.previews > 0 || this.observed.samplerSteps < after) return;
    this.previewsOffLogged = true;
    this.events.onProgress({
      logs: [
        `Previews are off on ${this.client.service}: start ComfyUI with --preview-method auto to see the picture form`,
      ],
    });
  }

  private refreshQueuePosition(): void {
    const id = this.promptId;
    if (id === undefined) return;
    if (this.queueRefresh !== 'idle') {
      this.queueRefresh = 'dirty';
      return;
    }
    this.queueRefresh = 'running';
    void this.client
      .queue(this.signal)
      .then((q) => {
        const index = q.pending.indexOf(id);
        if (index >= 0 && !this.started && !this.settled) {
          this.events.onProgress({ queuePosition: index + q.running.length });
        }
      })
      .catch(() => undefined) // A failed position probe must not fail the job; the next status retries.
      .finally(() => {
        const again = this.queueRefresh === 'dirty';
        this.queueRefresh = 'idle';
        if (again && !this.started && !this.settled) this.refreshQueuePosition();
      });
  }

  /**
   * Without events (socket dropped, or silence) the prompt may still be queued, running or finished: poll the
   * server until history has it. The job fails when the server stops answering (`unreachable`), when the prompt
   * is neither queued nor in history (the server lost it), or at the job time limit.
   */
  private async pollHistory(unreachable: EngineError): Promise<void> {
    const id = this.promptId;
    if (this.polling) return;
    if (id === undefined || !this.submitted) {
      // Not submitted yet: nothing on the server to look for.
      return this.fail(unreachable);
    }
    this.polling = true;
    const since = this.lastEventAt;
    while (!this.settled) {
      try {
        const q = await this.client.queue(this.signal);
        const queued = q.running.includes(id) || q.pending.includes(id);
        // A failed prompt also counts as finished here: the engine reads the error from the history entry.
        if (await this.client.history(id, this.signal)) return this.succeed();
        if (!queued) {
          return this.fail(new EngineError('engine_failed', `${this.client.service} no longer knows the job`));
        }
      } catch {
        return this.fail(this.signal.aborted ? cancelledError() : unreachable);
      }
      await new Promise((resolve) => setTimeout(resolve, this.opts.historyPollMs));
      if (this.ws.readyState === this.ws.OPEN && this.lastEventAt > since) break; // Events flow again.
    }
    this.polling = false;
  }

  private onIdle(): void {
    if (this.settled) return;
    void this.pollHistory(new EngineError('connection_lost', `${this.client.service} stopped answering`));
  }

  private onClose(): void {
    if (this.settled) return;
    clearTimeout(this.idleTimer);
    void this.pollHistory(
      new EngineError('connection_lost', `Lost the connection to ${this.client.service} before the job finished`),
    );
  }

  private readonly onAbort = (): void => {
    if (this.settled) return;
    const id = this.promptId;
    if (this.submitted && id !== undefined) {
      // A pending prompt is deleted from the queue (and a running one is not in it, so that is harmless).
      // A running one is interrupted: by id from 0.3.57 on; before that /interrupt stops whatever runs, so
      // the queue is checked first and only our own running prompt is interrupted (a small race remains).
      const cleanup = this.started ? this.interrupt(id) : this.client.post('/queue', { delete: [id] });
      void cleanup.catch(() => undefined);
    }
    this.fail(cancelledError());
  };

  private async interrupt(id: string): Promise<void> {
    if (this.opts.targetedInterrupt) return this.client.post('/interrupt', { prompt_id: id });
    const q = await this.client.queue(new AbortController().signal);
    if (q.running.includes(id)) await this.client.post('/interrupt', {});
  }

  private succeed(): void {
    if (this.settled) return;
    this.settled = true;
    this.cleanup();
    this.resolveDone();
  }

  private fail(err: EngineError): void {
    if (this.settled) return;
    this.settled = true;
    this.cleanup();
    this.rejectDone(err);
  }

  private cleanup(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.jobTimer);
    this.signal.removeEventListener('abort', this.onAbort);
  }

  /** Stops listening and closes the socket; safe to call more than once. */
  close(): void {
    this.fail(cancelledError());
    this.ws.removeAllListeners('message');
    this.ws.removeAllListeners('close');
    this.ws.close();
  }
}

/** execution_error → reason: CUDA/torch out of memory, a model file that vanished, or the engine's own words. */
export function executionErrorCode(type: string | undefined, message: string | undefined): EngineErrorCode {
  const text = `${type ?? ''} ${message ?? ''}`;
  if (/OutOfMemory|out of memory|Allocation on device/i.test(text)) return 'out_of_memory';
  if (/FileNotFoundError|No such file/i.test(text)) return 'model_missing';
  return 'engine_failed';
}
