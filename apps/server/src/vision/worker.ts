import { parentPort } from 'node:worker_threads';
import { VisionAbortedError, VisionInputError } from './errors.ts';
import type { FromWorker, RunRequest, SerializedError, ToWorker, VisionOp } from './protocol.ts';

/**
 * Entry of a vision worker thread. Models are imported and loaded on the first request for them and stay
 * in this thread's memory; requests run one after another (the client also sends one at a time).
 */
type Progress = (done: number, total: number) => void;
type Handler = (image: Buffer, progress: Progress, signal: AbortSignal) => Promise<unknown>;

const handlers: Record<VisionOp, Handler> = {
  faces: async (image) => (await import('./faces.ts')).detectFacesFaceApi(image),
  pose: async (image) => (await import('./pose.ts')).estimatePoseMovenet(image),
  upscale: async (image, progress, signal) => (await import('./upscale.ts')).upscaleEsrgan(image, progress, signal),
  background: async (image, progress) => (await import('./background.ts')).removeBackgroundImgly(image, progress),
};

const port = parentPort;
if (!port) throw new Error('vision/worker.ts must run in a worker thread');

const controllers = new Map<number, AbortController>();
let queue: Promise<void> = Promise.resolve();

function serialize(err: unknown): SerializedError {
  if (err instanceof VisionInputError) return { name: err.name, message: err.message, code: err.code };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

function send(message: FromWorker): void {
  port?.postMessage(message);
}

async function run(req: RunRequest): Promise<void> {
  const controller = controllers.get(req.id);
  try {
    if (!controller || controller.signal.aborted) throw new VisionAbortedError();
    const image = Buffer.from(req.image.buffer, req.image.byteOffset, req.image.byteLength);
    const value = await handlers[req.op](
      image,
      (done, total) => send({ type: 'progress', id: req.id, done, total }),
      controller.signal,
    );
    send({ type: 'result', id: req.id, value: Buffer.isBuffer(value) ? new Uint8Array(value) : value });
  } catch (err) {
    send({ type: 'error', id: req.id, error: serialize(err) });
  } finally {
    controllers.delete(req.id);
  }
}

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'abort') {
    controllers.get(msg.id)?.abort();
    return;
  }
  controllers.set(msg.id, new AbortController());
  queue = queue.then(() => run(msg));
});
