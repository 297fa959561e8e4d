// What the generation controller keeps between visits: the jobs it follows and what to do with their output.
import type { GenerationParams } from '@koma/domain';
import { isApiError } from '../api/ApiError.ts';
import type { FetchLike } from '../api/http.ts';
import { JobFailedError, StreamEndedError } from './stream.ts';

/** What to do with a job's output; kept in storage so a reload can finish the job. */
export type JobOp =
  | { op: 'generate'; layerId: string; created: boolean; keepLast?: number; params: GenerationParams }
  | { op: 'variations'; layerId: string; params?: GenerationParams; placeholder?: boolean }
  | { op: 'upscale'; layerId: string }
  | { op: 'background'; layerId: string }
  | { op: 'faces'; layerId: string; variationId: string }
  | { op: 'pose'; layerId: string };

export interface StoredJob {
  jobId: string;
  workspaceId: string;
  job: JobOp;
  estimate: number;
}

export const JOBS_KEY = 'koma.generation.jobs';

export interface OutputImage {
  id: string;
  width?: number;
  height?: number;
  seed?: number;
}

export function imagesOf(output: unknown): OutputImage[] {
  const images = (output as { images?: unknown } | null)?.images;
  if (!Array.isArray(images)) return [];
  return images.filter((i): i is OutputImage => typeof (i as { id?: unknown })?.id === 'string');
}

/** The stream broke (network, unload, early end) without the job itself failing. */
export function connectionLost(error: unknown): boolean {
  if (error instanceof StreamEndedError) return true;
  if (isApiError(error)) return error.status === 0;
  if (error instanceof JobFailedError) return false;
  return error instanceof TypeError || (error instanceof DOMException && error.name === 'AbortError');
}

/** The jobs remembered in this browser. */
export function storedJobs(): StoredJob[] {
  try {
    const raw = localStorage.getItem(JOBS_KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? (list as StoredJob[]) : [];
  } catch {
    return [];
  }
}

function writeJobs(list: StoredJob[]): void {
  try {
    localStorage.setItem(JOBS_KEY, JSON.stringify(list));
  } catch {
    // no storage: jobs simply do not survive a reload
  }
}

export function rememberJob(entry: StoredJob): void {
  writeJobs([...storedJobs().filter((j) => j.jobId !== entry.jobId), entry]);
}

export function forgetJob(jobId: string): void {
  writeJobs(storedJobs().filter((j) => j.jobId !== jobId));
}

/** POST /api/jobs/{id}/cancel: the server refunds the job and its stream ends with FAILED, code cancelled. */
export async function cancelJob(
  jobId: string,
  doFetch: FetchLike = (input, init) => fetch(input, init),
): Promise<void> {
  try {
    await doFetch(`/api/jobs/${encodeURIComponent(jobId)}/cancel`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
  } catch (error) {
    console.error('Cancel failed', error);
  }
}
