// The job registry: exactly one handler per domain operation, checked when this module loads (the start of the
// HTTP server and of every worker), so a new operation without a handler, or two handlers for one, never starts.
import { OPERATION_KINDS, type OperationKind } from '@koma/domain';
import { edit } from './edit.ts';
import { faceEdit } from './face-edit.ts';
import type { AnyJobHandler, JobHandler } from './handler.ts';
import { img2img } from './img2img.ts';
import { inpaint } from './inpaint.ts';
import { outpaint } from './outpaint.ts';
import { promptExpansion } from './prompt-expansion.ts';
import { refine } from './refine.ts';
import { regional } from './regional.ts';
import { smd } from './smd.ts';
import { txt2img } from './txt2img.ts';
import { video } from './video.ts';
import { background, faceDetection, pose, upscale } from './vision.ts';

/** Every handler. A new operation adds its file here once its domain definition exists. */
export const JOB_HANDLERS: readonly AnyJobHandler[] = [
  txt2img,
  img2img,
  inpaint,
  outpaint,
  smd,
  regional,
  refine,
  faceEdit,
  edit,
  video,
  promptExpansion,
  upscale,
  background,
  pose,
  faceDetection,
];

/** Thrown when the handlers do not match the operations one to one. */
export class JobRegistryError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`The job registry does not match the operations: ${problems.join('; ')}`);
    this.name = 'JobRegistryError';
  }
}

/** Indexes handlers by kind; throws JobRegistryError naming each missing, duplicated or unknown kind. */
export function buildJobRegistry(
  handlers: readonly { readonly kind: string }[],
  operations: readonly string[] = OPERATION_KINDS,
): ReadonlyMap<string, (typeof handlers)[number]> {
  const byKind = new Map<string, (typeof handlers)[number]>();
  const problems: string[] = [];
  for (const h of handlers) {
    if (byKind.has(h.kind)) problems.push(`${h.kind} has more than one handler`);
    else if (!operations.includes(h.kind)) problems.push(`${h.kind} is not an operation`);
    byKind.set(h.kind, h);
  }
  for (const kind of operations) if (!byKind.has(kind)) problems.push(`${kind} has no handler`);
  if (problems.length > 0) throw new JobRegistryError(problems);
  return byKind;
}

// Seen through any kind: the registry guarantees each handler receives the requests of its own kind.
const REGISTRY = buildJobRegistry(JOB_HANDLERS) as ReadonlyMap<string, JobHandler<OperationKind>>;

/** The handler of a job kind, or undefined for a name that is no operation. */
export function handlerOf(kind: string): JobHandler<OperationKind> | undefined {
  return REGISTRY.get(kind);
}

/** The kinds the registry serves (every operation). */
export function jobKinds(): OperationKind[] {
  return [...REGISTRY.keys()] as OperationKind[];
}
