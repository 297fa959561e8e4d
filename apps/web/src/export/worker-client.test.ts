import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerReply, WorkerRequest } from './protocol.ts';
import type * as Client from './worker-client.ts';
import { WorkerKeeper } from './worker-keeper.ts';

/** A stand-in for the browser's Worker: records what it is sent, answers when the test says. */
class FakeWorker {
  static all: FakeWorker[] = [];
  onmessage: ((event: MessageEvent<WorkerReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  sent: WorkerRequest[] = [];
  stopped = false;
  constructor() {
    FakeWorker.all.push(this);
  }
  postMessage(request: WorkerRequest): void {
    this.sent.push(request);
  }
  terminate(): void {
    this.stopped = true;
  }
  answer(reply: WorkerReply): void {
    this.onmessage?.({ data: reply } as MessageEvent<WorkerReply>);
  }
}

const zip: WorkerRequest = { type: 'zip', files: [], zipName: 'a.zip' };
const file: WorkerReply = { type: 'file', bytes: new Uint8Array(1), fileName: 'a.zip', mime: 'application/zip' };
const noProgress = () => undefined;

let ExportWorker: typeof Client.ExportWorker;
const real = (globalThis as { Worker?: unknown }).Worker;
beforeAll(async () => {
  (globalThis as { Worker?: unknown }).Worker = FakeWorker;
  ({ ExportWorker } = await import('./worker-client.ts'));
});
afterAll(() => {
  (globalThis as { Worker?: unknown }).Worker = real;
});

function keeper() {
  return new WorkerKeeper(() => new Worker('psd.worker.js'), 60_000);
}
const last = () => FakeWorker.all.at(-1)!;

describe('ExportWorker with the kept worker', () => {
  it('gives two jobs in a row one worker, kept after them', async () => {
    const k = keeper();
    const before = FakeWorker.all.length;
    for (let i = 0; i < 2; i++) {
      const job = new ExportWorker(noProgress, undefined, k);
      const reply = job.request(zip, []);
      last().answer(file);
      expect(await reply).toBe(file);
      job.release();
    }
    expect(FakeWorker.all.length - before).toBe(1);
    expect(last().stopped).toBe(false);
    k.drop();
    expect(last().stopped).toBe(true);
  });

  it('ends a worker cancelled in the middle of a request, and the next job gets a new one that works', async () => {
    const k = keeper();
    const controller = new AbortController();
    const job = new ExportWorker(noProgress, controller.signal, k);
    const cancelled = last();
    const reply = job.request(zip, []);
    controller.abort(new DOMException('Export cancelled', 'AbortError'));
    await expect(reply).rejects.toThrow('Export cancelled');
    expect(cancelled.stopped).toBe(true);
    job.release();
    // A late answer of the ended worker reaches nobody.
    cancelled.answer(file);

    const next = new ExportWorker(noProgress, undefined, k);
    expect(last()).not.toBe(cancelled);
    const again = next.request(zip, []);
    last().answer(file);
    expect(await again).toBe(file);
    next.release();
    expect(last().stopped).toBe(false);
    k.drop();
  });

  it('keeps a worker cancelled between requests (it is idle), and the job asks it nothing more', async () => {
    const k = keeper();
    const controller = new AbortController();
    const job = new ExportWorker(noProgress, controller.signal, k);
    const worker = last();
    controller.abort(new DOMException('Export cancelled', 'AbortError'));
    await expect(async () => job.request(zip, [])).rejects.toThrow('Export cancelled');
    expect(worker.sent).toEqual([]);
    job.release();
    expect(worker.stopped).toBe(false);
    const next = new ExportWorker(noProgress, undefined, k);
    expect(last()).toBe(worker);
    next.release();
    k.drop();
  });

  it('ends a worker that failed, and keeps one that answered with an error', async () => {
    const k = keeper();
    const job = new ExportWorker(noProgress, undefined, k);
    const crashed = last();
    const reply = job.request(zip, []);
    crashed.onerror?.({ message: 'boom' } as ErrorEvent);
    await expect(reply).rejects.toThrow('boom');
    expect(crashed.stopped).toBe(true);
    job.release();

    const next = new ExportWorker(noProgress, undefined, k);
    const sound = last();
    expect(sound).not.toBe(crashed);
    const refused = next.request(zip, []);
    sound.answer({ type: 'error', message: 'Bad page' });
    await expect(refused).rejects.toThrow('Bad page');
    next.release();
    expect(sound.stopped).toBe(false);
    k.drop();
  });

  it('ends a worker given back while a request is still running', () => {
    const k = keeper();
    const job = new ExportWorker(noProgress, undefined, k);
    const busy = last();
    job.request(zip, []).catch(() => undefined);
    job.release();
    expect(busy.stopped).toBe(true);
    expect(k.holding).toBe(false);
  });
});
