import type { PromptField } from '../operations/define.ts';
import { promptFieldsOf, type NormalizedRequest, type RequestKind } from '../operations/registry.ts';
import { moderatePrompt, type ModerationVerdict } from './moderate.ts';

/** The positive prompts of a request that moderation reads, as its operation declares them (operations/). */
export function promptFields<K extends RequestKind>(kind: K, request: NormalizedRequest<K>): PromptField[] {
  return promptFieldsOf(kind, request);
}

/** The verdicts of every prompt of a request, and the request with each prompt replaced by its sanitised text. */
export interface RequestModeration<T> {
  readonly allowed: boolean;
  readonly verdicts: ReadonlyArray<{ readonly field: string; readonly verdict: ModerationVerdict }>;
  readonly request: T;
}

function setPath(target: Record<string, unknown>, path: string, value: string): void {
  const keys = path.split('.');
  let obj = target;
  for (const k of keys.slice(0, -1)) obj = obj[k] as Record<string, unknown>;
  obj[keys[keys.length - 1]!] = value;
}

/** Moderates every positive prompt of a normalised request; the server runs the sanitised request when allowed. */
export function moderateRequest<K extends RequestKind>(
  kind: K,
  request: NormalizedRequest<K>,
): RequestModeration<NormalizedRequest<K>> {
  const fields = promptFields(kind, request);
  const verdicts = fields.map((f) => ({ field: f.field, verdict: moderatePrompt(f.text) }));
  if (fields.length > 1 && verdicts.every((v) => v.verdict.allowed)) {
    // Prompts of one request make one picture: a child in one region and nudity in another is the same as both in
    // one prompt, so the prompts are also judged together.
    const together = moderatePrompt(fields.map((f) => f.text).join(', '));
    if (!together.allowed) verdicts.push({ field: fields.map((f) => f.field).join(' + '), verdict: together });
  }
  const changed = verdicts.filter((v, i) => i < fields.length && v.verdict.sanitizedPrompt !== fields[i]!.text);
  let sanitized = request;
  if (changed.length > 0) {
    const copy = structuredClone(request) as Record<string, unknown>;
    for (const v of changed) setPath(copy, v.field, v.verdict.sanitizedPrompt);
    sanitized = copy as NormalizedRequest<K>;
  }
  return { allowed: verdicts.every((v) => v.verdict.allowed), verdicts, request: sanitized };
}
