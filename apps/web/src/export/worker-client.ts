import { EXPORT_WORKER_IDLE_MS } from '@koma/domain';
import { ExportError } from '@koma/editor';
import { exportText, stageText } from './i18n.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';
import { WorkerKeeper } from './worker-keeper.ts';

export interface ExportProgress {
  /** What is happening, in the user's language. */
  stage: string;
  done: number;
  total: number;
}
export type ProgressFn = (progress: ExportProgress) => void;

function startWorker(): Worker {
  return new Worker(new URL('./psd.worker.ts', import.meta.url), { type: 'module' });
}

/**
 * The tab's export worker for PSD and PNG exports, kept between them with the pixel buffers of the last page it
 * wrote, which the next export builds on instead of fresh memory; ended when idle for EXPORT_WORKER_IDLE_MS or when
 * the page is hidden.
 */
export const keptExportWorker = new WorkerKeeper(startWorker, EXPORT_WORKER_IDLE_MS);

if (typeof document !== 'undefined') {
  // A hidden tab (another tab, the app in the background, the page being left) holds no idle worker.
  window.addEventListener('pagehide', () => keptExportWorker.drop());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') keptExportWorker.drop();
  });
}

/**
 * An export worker (psd.worker.ts) for one job, which may send it several requests, answered one at a time: a PDF
 * sends its pages one by one to the same worker, which writes each as it comes. Given `keeper`, the job borrows the
 * tab's kept worker and gives it back with `release`; otherwise it starts a worker that `release` ends. Aborting the
 * signal during a request stops the worker at once (whatever it was doing; a kept one is replaced for the next job)
 * and rejects the request with the signal's reason; aborted between requests, the worker is left as it is and the
 * job's next request rejects.
 */
export class ExportWorker {
  private readonly worker: Worker;
  private pending: { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void } | null = null;
  private failure: Error | null = null;
  private released = false;
  private readonly onAbort = () => {
    if (this.pending) this.fail(this.signal!.reason as Error);
  };

  constructor(
    private readonly onProgress: ProgressFn,
    private readonly signal?: AbortSignal,
    private readonly keeper?: WorkerKeeper<Worker>,
  ) {
    this.worker = keeper ? keeper.take() : startWorker();
    signal?.addEventListener('abort', this.onAbort, { once: true });
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
    if (this.released) return Promise.reject(new ExportError('The export worker was already given back'));
    this.signal?.throwIfAborted();
    if (this.pending) return Promise.reject(new ExportError('The export worker is still busy with a request'));
    return new Promise<WorkerReply>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(request, transfer);
    });
  }

  /** The job is done with the worker: a kept one goes back for the next job (unless it was stopped), any other ends. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.worker.onmessage = null;
    this.worker.onerror = null;
    if (this.failure) return;
    if (this.pending) {
      // Given back in the middle of a request: nobody waits for its answer, and the worker may still be busy.
      this.fail(new ExportError('The export worker was given back during a request'));
      return;
    }
    if (!this.keeper) {
      this.worker.terminate();
      return;
    }
    const { worker, keeper } = this;
    // A worker that fails while kept (its script never loaded, say) is not handed to the next job.
    worker.onerror = () => keeper.discard(worker);
    keeper.give(worker);
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    if (this.keeper) this.keeper.discard(this.worker);
    else this.worker.terminate();
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }
}

/**
 * Runs one request and resolves with its final reply: in the tab's kept worker when `keeper` is given, else in a
 * fresh worker that ends with it.
 */
export async function runWorker(
  request: WorkerRequest,
  transfer: Transferable[],
  onProgress: ProgressFn,
  signal?: AbortSignal,
  keeper?: WorkerKeeper<Worker>,
): Promise<WorkerReply> {
  signal?.throwIfAborted();
  const worker = new ExportWorker(onProgress, signal, keeper);
  try {
    return await worker.request(request, transfer);
  } finally {
    worker.release();
  }
}
