import { ExportError } from '@koma/editor';
import { exportText, stageText } from './i18n.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';

export interface ExportProgress {
  /** What is happening, in the user's language. */
  stage: string;
  done: number;
  total: number;
}
export type ProgressFn = (progress: ExportProgress) => void;

/**
 * The export worker (psd.worker.ts) kept for several requests, answered one at a time: a PDF sends its pages one by
 * one to the same worker, which writes each as it comes. Aborting the signal stops the worker at once (whatever it
 * was doing) and rejects the pending request with the signal's reason.
 */
export class ExportWorker {
  private readonly worker = new Worker(new URL('./psd.worker.ts', import.meta.url), { type: 'module' });
  private pending: { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void } | null = null;
  private failure: Error | null = null;

  constructor(
    private readonly onProgress: ProgressFn,
    private readonly signal?: AbortSignal,
  ) {
    signal?.addEventListener('abort', () => this.fail(signal.reason as Error), { once: true });
    this.worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const reply = event.data;
      if (reply.type === 'progress') {
        this.onProgress({ stage: stageText(reply.stage), done: reply.done, total: reply.total });
        return;
      }
      const pending = this.pending;
      this.pending = null;
      if (reply.type === 'error') {
        pending?.reject(new ExportError(reply.text ? exportText(reply.text.key, reply.text.values) : reply.message));
      } else pending?.resolve(reply);
    };
    this.worker.onerror = (event) => {
      this.fail(new ExportError(exportText('error.workerStopped', { message: event.message })));
    };
  }

  /** Sends one request (its buffers handed over, not copied) and resolves with the worker's final reply to it. */
  request(request: WorkerRequest, transfer: Transferable[]): Promise<WorkerReply> {
    if (this.failure) return Promise.reject(this.failure);
    this.signal?.throwIfAborted();
    if (this.pending) return Promise.reject(new ExportError('The export worker is still busy with a request'));
    return new Promise<WorkerReply>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(request, transfer);
    });
  }

  terminate(): void {
    this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure = error;
    this.worker.terminate();
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }
}

/** Runs one request in a fresh worker and resolves with its final reply; the worker ends with it. */
export async function runWorker(
  request: WorkerRequest,
  transfer: Transferable[],
  onProgress: ProgressFn,
  signal?: AbortSignal,
): Promise<WorkerReply> {
  signal?.throwIfAborted();
  const worker = new ExportWorker(onProgress, signal);
  try {
    return await worker.request(request, transfer);
  } finally {
    worker.terminate();
  }
}
