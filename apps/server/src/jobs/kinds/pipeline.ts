// The job pipeline's steps, declared once for every kind. At submit: parse → moderate → check model access →
// target → price → store inputs → admit; the caller then charges and inserts the row in one transaction. When a
// worker runs it: run the kind's handler → store outputs, learning how long it took.
// docs/how-it-works/generation-pipeline.md draws it.
import { operationOf, type NormalizedRequest, type OperationKind } from '@koma/domain';
import { EngineError } from '../../engines/errors.ts';
import type { EngineTask } from '../../engines/types.ts';
import { notFound } from '../../http/errors.ts';
import type { PublicUser } from '../../repositories/users.ts';
import type { JobDeps } from '../deps.ts';
import type { JobHandler, Report, RunContext, RunningJob, Target } from './handler.ts';
import { handlerOf } from './registry.ts';
import { timedEngineCall } from '../engine-timing.ts';
import {
  loadImage,
  moderate,
  parse,
  price,
  requireAccess,
  storeRef,
  storeResult,
  type StrippedTerms,
} from './steps.ts';

/** What the submit steps decide before anything is charged. */
export interface PreparedJob {
  /** JSON-safe inputs: the normalised, moderated request with images as stored image ids. */
  inputs: unknown;
  cost: number;
  lane: string;
  engine: string;
  /** Words moderation stripped from an allowed prompt (shown to the user with the job). */
  stripped: StrippedTerms[];
  /** Ids of the inline images this request stored, to delete when the charge refuses it. */
  stored: string[];
}

/** True when a job on this engine is free: the builtin engine draws previews, not diffusion pictures. */
export function isFree(deps: JobDeps, target: Target): boolean {
  return target.engine === 'builtin' && !deps.config.builtinCharges;
}

/** Checks, prices and stores the inputs of a request; throws HttpError (nothing charged, nothing queued). */
export async function prepareJob(deps: JobDeps, user: PublicUser, kind: string, body: unknown): Promise<PreparedJob> {
  const handler = handlerOf(kind);
  if (!handler) throw notFound('Job kind');
  return prepareWith(deps, user, handler, body);
}

async function prepareWith<K extends OperationKind>(
  deps: JobDeps,
  user: PublicUser,
  handler: JobHandler<K>,
  body: unknown,
): Promise<PreparedJob> {
  const op = operationOf(handler.kind);
  const { request, stripped } = moderate(handler.kind, parse(handler.kind, body));
  const model = op.model?.(request);
  if (model !== undefined) requireAccess(user, model);
  const target = handler.target(deps, request);
  const cost = isFree(deps, target) ? 0 : price(() => op.price(request));
  // Images written for this request are staged: a refusal after they were stored (a bad mask, too few credits, a
  // lost race for an Idempotency-Key) removes them again, so a refused request leaves nothing behind.
  const stored: string[] = [];
  try {
    const inputs = await op.storeImages(request, async (ref, field) => {
      const id = await storeRef(deps, user.id, ref, field);
      if (id !== ref) stored.push(id);
      return id;
    });
    await handler.admit?.(deps, user.id, inputs);
    return { inputs, cost, ...target, stripped, stored };
  } catch (err) {
    await discardImages(deps, user.id, stored);
    throw err;
  }
}

/** Deletes images a refused request stored (see prepareWith). */
export async function discardImages(deps: JobDeps, userId: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) await deps.images.deleteImage(userId, id);
}

/** Units of work of an engine task for the estimate: steps × images for diffusion, else one. */
function unitsOf(task: EngineTask): number {
  return 'steps' in task && 'numImages' in task ? Math.max(1, task.steps * task.numImages) : 1;
}

function imagesOf(task: EngineTask): number | undefined {
  return 'numImages' in task ? task.numImages : undefined;
}

/**
 * Runs a claimed job through its handler and stores what it produced; the output is what COMPLETED carries.
 * The job's time estimate goes out with its progress as soon as its amount of work is known, and how long it
 * took is learned for the next estimate of the same engine and kind.
 */
export async function runJob(
  deps: JobDeps,
  job: RunningJob,
  report: Report & ((p: { estimateMs: number }) => void),
  signal: AbortSignal,
): Promise<unknown> {
  const handler = handlerOf(job.kind);
  if (!handler) throw new EngineError('validation', `Unknown job kind ${job.kind}`);
  const started = Date.now();
  let units: number | undefined;
  const expect = (n: number, images?: number): void => {
    if (units !== undefined) return;
    units = Math.max(1, n);
    report({ estimateMs: deps.estimates.estimate(job.engine, job.kind, units, images) });
  };
  const ctx: RunContext = {
    deps,
    job,
    report,
    signal,
    load: (id) => loadImage(deps, job.userId, id),
    engine: (task) => {
      expect(unitsOf(task), imagesOf(task));
      return timedEngineCall(deps, job, task.kind, () =>
        deps.router.engineFor(task).run(task, { onProgress: report }, signal),
      );
    },
    expect: (n) => expect(n),
  };
  const produced = await handler.run(ctx, job.inputs as NormalizedRequest<OperationKind>);
  deps.estimates.record(job.engine, job.kind, units ?? 1, Date.now() - started);
  if ('output' in produced) return produced.output;
  return storeResult(deps, job, produced.images, produced.recipe);
}
