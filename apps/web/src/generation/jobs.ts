// Which layer a job belongs to, and how a page finds its jobs again. The association travels with the job: it is
// submitted with a `client` tag the server keeps and lists (docs/api-generation.md), so any browser of the user
// can re-attach. This browser only remembers the ids of jobs it has not landed yet, to look up those that
// finished while the page was away (the server lists only active ones).
import type { GenerationParams } from '@koma/domain';
import type { DocState } from '@koma/editor';
import { isApiError } from '../api/ApiError.ts';
import type { FetchLike, HttpClient } from '../api/http.ts';
import { JobFailedError, StreamEndedError } from './stream.ts';

/** What to do with a job's output. */
export type JobOp =
  | {
      op: 'generate';
      layerId: string;
      created: boolean;
      keepLast?: number;
      params?: GenerationParams;
      /** The layer's box for the new pictures (a panel's image, fitted to the new shape). */
      fit?: { x: number; y: number; size: { width: number; height: number } };
    }
  | { op: 'variations'; layerId: string; params?: GenerationParams; placeholder?: boolean }
  | { op: 'upscale'; layerId: string }
  | { op: 'background'; layerId: string }
  | { op: 'faces'; layerId: string; variationId: string }
  | { op: 'pose'; layerId: string }
  | { op: 'video'; layerId: string; model: string; duration: number; imageId: string };

const OPS = new Set<string>(['generate', 'variations', 'upscale', 'background', 'faces', 'pose', 'video']);

/** The `client` tag a job is submitted with: the document it belongs to and what to do with its output. */
export interface JobTag {
  v: 1;
  workspaceId: string;
  job: JobOp;
  /** The time estimate the progress bar counts down from. */
  estimate: number;
}

/** The server takes tags up to 64 KB; params past this size are left out (the layer keeps its own). */
export const MAX_TAG_CHARS = 60_000;

export function jobTag(workspaceId: string, job: JobOp, estimate: number): JobTag {
  const tag: JobTag = { v: 1, workspaceId, job, estimate };
  if (JSON.stringify(tag).length <= MAX_TAG_CHARS || !('params' in job)) return tag;
  const { params: _dropped, ...rest } = job;
  return { ...tag, job: rest };
}

/** A tag read back from the server (or an older local record), or null when it is not one of ours. */
export function parseJobTag(value: unknown): JobTag | null {
  if (typeof value !== 'object' || value === null) return null;
  const tag = value as Partial<JobTag>;
  const job = tag.job as Partial<JobOp> | undefined;
  if (typeof tag.workspaceId !== 'string' || typeof job !== 'object' || job === null) return null;
  if (typeof job.op !== 'string' || !OPS.has(job.op) || typeof job.layerId !== 'string') return null;
  const estimate = typeof tag.estimate === 'number' && Number.isFinite(tag.estimate) ? tag.estimate : 0;
  return { v: 1, workspaceId: tag.workspaceId, job: job as JobOp, estimate };
}

/** A job as `GET /api/jobs?status=active` and `GET /api/jobs/{id}` answer it. */
export interface ServerJob {
  job_id: string;
  status: 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  client?: unknown;
  output?: unknown;
  error?: string;
  code?: string;
  refunded?: number;
  kind?: string;
  cost?: number;
  queue_position?: number;
}

/** A job this browser submitted (or followed) and has not landed yet. Jobs kept by older versions also carry their op. */
export interface LocalJob {
  jobId: string;
  workspaceId: string;
  job?: JobOp;
  estimate?: number;
}

export interface ReattachPlan {
  /** Active jobs of this document: follow their streams. */
  follow: { jobId: string; tag: JobTag }[];
  /** Jobs remembered here that are no longer active: ask how they ended and land them. */
  lookUp: string[];
}

/**
 * After a (re)load: every active job tagged for this document is followed, whichever browser sent it; the jobs
 * this browser remembers for the document that the server no longer lists as active finished meanwhile.
 */
export function planReattach(
  workspaceId: string,
  active: readonly ServerJob[],
  local: readonly LocalJob[],
): ReattachPlan {
  const mine = local.filter((j) => j.workspaceId === workspaceId);
  const follow: ReattachPlan['follow'] = [];
  const seen = new Set<string>();
  for (const job of active) {
    const legacy = mine.find((j) => j.jobId === job.job_id);
    const tag = parseJobTag(job.client) ?? parseJobTag(legacy ? { ...legacy, v: 1 } : null);
    if (!tag || tag.workspaceId !== workspaceId || seen.has(job.job_id)) continue;
    seen.add(job.job_id);
    follow.push({ jobId: job.job_id, tag });
  }
  const activeIds = new Set(active.map((j) => j.job_id));
  const lookUp = [...new Set(mine.map((j) => j.jobId))].filter((id) => !activeIds.has(id));
  return { follow, lookUp };
}

/**
 * Recently ended jobs (`GET /api/jobs?status=recent`) that this page should still land: tagged for this document,
 * for a layer that is still an empty placeholder (it never got its picture, e.g. the browser that sent the job
 * was closed), and not planned already. A layer that has pictures is left alone, so a job that landed elsewhere
 * never comes back over later edits.
 */
export function unlandedJobs(
  workspaceId: string,
  recent: readonly ServerJob[],
  doc: Pick<DocState, 'layers'>,
  plan: ReattachPlan,
): string[] {
  const planned = new Set([...plan.follow.map((f) => f.jobId), ...plan.lookUp]);
  const out: string[] = [];
  for (const job of recent) {
    const tag = parseJobTag(job.client);
    if (!tag || tag.workspaceId !== workspaceId || planned.has(job.job_id) || out.includes(job.job_id)) continue;
    const layer = doc.layers[tag.job.layerId];
    if (layer?.type === 'IMAGE' && layer.data.variations.length === 0) out.push(job.job_id);
  }
  return out;
}

/** The server's lists a (re)loaded page plans from: jobs still running, and tagged jobs that ended lately. */
export async function listJobs(http: HttpClient): Promise<{ active: ServerJob[]; recent: ServerJob[] }> {
  const list = async (status: 'active' | 'recent') =>
    (await http.request<{ jobs: ServerJob[] }>('GET', `/api/jobs?status=${status}`)).jobs;
  const [active, recent] = await Promise.all([list('active'), list('recent')]);
  return { active, recent };
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

/** The stored picture of a single-image output `{ id }` (upscale, background), or null. */
export function imageIdOf(output: unknown): string | null {
  const id = (output as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : null;
}

/** The clip of an image-to-video output `{ video: { id, mime }, engine, note? }`, or null. */
export function videoOf(output: unknown): { id: string; mime: string; engine: string; note: string | null } | null {
  const record = output as { video?: { id?: unknown; mime?: unknown }; engine?: unknown; note?: unknown } | null;
  const video = record?.video;
  if (typeof video?.id !== 'string' || video.id === '' || typeof video.mime !== 'string') return null;
  return {
    id: video.id,
    mime: video.mime,
    engine: typeof record?.engine === 'string' ? record.engine : '',
    note: typeof record?.note === 'string' && record.note !== '' ? record.note : null,
  };
}

/** The stream broke (network, unload, early end) without the job itself failing. */
export function connectionLost(error: unknown): boolean {
  if (error instanceof StreamEndedError) return true;
  if (isApiError(error)) return error.status === 0;
  if (error instanceof JobFailedError) return false;
  return error instanceof TypeError || (error instanceof DOMException && error.name === 'AbortError');
}

/** The jobs remembered in this browser. */
export function storedJobs(): LocalJob[] {
  try {
    const raw = localStorage.getItem(JOBS_KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    if (!Array.isArray(list)) return [];
    return list.filter(
      (j): j is LocalJob =>
        typeof (j as Partial<LocalJob>)?.jobId === 'string' && typeof (j as Partial<LocalJob>).workspaceId === 'string',
    );
  } catch {
    return [];
  }
}

function writeJobs(list: LocalJob[]): void {
  try {
    localStorage.setItem(JOBS_KEY, JSON.stringify(list));
  } catch {
    // no storage: only jobs still running are found again after a reload
  }
}

export function rememberJob(entry: { jobId: string; workspaceId: string }): void {
  const list = storedJobs();
  if (list.some((j) => j.jobId === entry.jobId)) return;
  writeJobs([...list, { jobId: entry.jobId, workspaceId: entry.workspaceId }]);
}

export function forgetJob(jobId: string): void {
  const list = storedJobs();
  if (list.some((j) => j.jobId === jobId)) writeJobs(list.filter((j) => j.jobId !== jobId));
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
