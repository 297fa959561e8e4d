import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { VisionAbortedError, VisionInputError, VisionModelError, type VisionInputErrorCode } from './errors.ts';
import type { FromWorker, SerializedError, ToWorker, VisionOp } from './protocol.ts';

const require = createRequire(import.meta.url);

/**
 * From source (tests, `npm run dev`) the server runs TypeScript through tsx, and a worker thread does not inherit tsx's
 * loader hooks (on Node 20 `--import tsx` in execArgv is not applied to the worker's entry), so the worker
 * registers tsx itself before importing its entry.
 */
function bootstrap(entry: URL): string {
  return `import(${JSON.stringify(tsxEsmApi())})
    .then((m) => m.register())
    .then(() => import(${JSON.stringify(entry.href)}))`;
}

/** tsx's ESM API file, read from its exports map (require.resolve would pick the CommonJS variant). */
function tsxEsmApi(): string {
  const pkgPath = require.resolve('tsx/package.json');
  const pkg = require(pkgPath) as { exports: Record<string, { import?: { default?: string } }> };
  const rel = pkg.exports['./esm/api']?.import?.default;
  if (!rel) throw new VisionModelError('tsx has no ./esm/api export: cannot start vision workers');
  return pathToFileURL(path.join(path.dirname(pkgPath), rel)).href;
}

function revive(e: SerializedError): Error {
  if (e.name === 'VisionInputError')
    return new VisionInputError((e.code ?? 'BAD_ARGUMENT') as VisionInputErrorCode, e.message);
  if (e.name === 'VisionAbortedError') return new VisionAbortedError();
  return new VisionModelError(e.message);
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  onProgress: ((done: number, total: number) => void) | undefined;
}

export interface RunOptions {
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * One worker thread, started on first use and kept (with its loaded models) until `close()`. Calls run one at a
 * time in arrival order: CPU-bound model runs gain nothing from overlapping on two cores, and it bounds memory.
 */
export class VisionWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly name: string) {}

  run<T>(op: VisionOp, image: Uint8Array, options: RunOptions = {}): Promise<T> {
    const task = this.queue.then(() => this.dispatch<T>(op, image, options));
    this.queue = task.catch(() => undefined);
    return task;
  }

  /** Calls sent to the thread and not yet answered. */
  get callsInFlight(): number {
    return this.pending.size;
  }

  /** Ends the thread and frees its models; pending calls fail. The next call starts a fresh thread. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    // Before terminating: the exit event would otherwise report these calls as a crash.
    this.failAll(new VisionModelError(`Vision worker ${this.name} was closed`));
    if (w) await w.terminate();
  }

  private dispatch<T>(op: VisionOp, image: Uint8Array, { onProgress, signal }: RunOptions): Promise<T> {
    if (signal?.aborted) return Promise.reject(new VisionAbortedError());
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => this.post({ type: 'abort', id });
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        if (this.pending.size === 0) worker.unref();
      };
      this.pending.set(id, {
        resolve: (v) => {
          this.pending.delete(id);
          done();
          resolve(v as T);
        },
        reject: (e) => {
          this.pending.delete(id);
          done();
          reject(e);
        },
        onProgress,
      });
      worker.ref();
      this.post({ type: 'run', id, op, image });
    });
  }

  private post(message: ToWorker): void {
    this.worker?.postMessage(message);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    // The built server (dist/, scripts/build.ts) ships the thread's entry as vision-worker.js beside this chunk.
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(bootstrap(new URL('./worker.ts', import.meta.url)), { eval: true, name: `vision-${this.name}` })
      : new Worker(new URL('./vision-worker.js', import.meta.url), { name: `vision-${this.name}` });
    worker.unref();
    worker.on('message', (msg: FromWorker) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      if (msg.type === 'progress') p.onProgress?.(msg.done, msg.total);
      else if (msg.type === 'result') p.resolve(msg.value instanceof Uint8Array ? Buffer.from(msg.value) : msg.value);
      else p.reject(revive(msg.error));
    });
    // A crash (out of memory, a native abort) fails what was in flight; the next call starts a new thread.
    // A thread already closed (replaced) is ignored: its calls were failed by close(), and the pending map now
    // belongs to its successor.
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new VisionModelError(`Vision worker ${this.name} stopped: ${err.message}`));
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private failAll(err: Error): void {
    for (const p of [...this.pending.values()]) p.reject(err);
    this.pending.clear();
  }
}
