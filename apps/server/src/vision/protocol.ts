/** Messages between the vision client (main thread) and a vision worker thread. */
export type VisionOp = 'faces' | 'pose' | 'upscale' | 'background';

export interface RunRequest {
  type: 'run';
  id: number;
  op: VisionOp;
  image: Uint8Array;
}

export interface AbortRequest {
  type: 'abort';
  id: number;
}

export type ToWorker = RunRequest | AbortRequest;

export interface SerializedError {
  name: string;
  message: string;
  code?: string;
}

export type FromWorker =
  | { type: 'progress'; id: number; done: number; total: number }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: SerializedError };
