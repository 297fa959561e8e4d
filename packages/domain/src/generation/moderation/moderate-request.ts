import type { NormalizedRequest, RequestKind } from '../requests/registry.ts';
import { moderatePrompt, type ModerationVerdict } from './moderate.ts';

/** A prompt field of a request, by dotted path, with its text. */
export interface PromptField {
  readonly field: string;
  readonly text: string;
}

/** The positive prompts of a request that moderation reads; negative prompts are not moderated (they steer away). */
export function promptFields<K extends RequestKind>(kind: K, request: NormalizedRequest<K>): PromptField[] {
  const r = request as Record<string, unknown>;
  const out: PromptField[] = [];
  if (typeof r.prompt === 'string') out.push({ field: 'prompt', text: r.prompt });
  if (kind === 'smd') {
    const smd = request as NormalizedRequest<'smd'>;
    out.push({ field: 'backgroundPrompt', text: smd.backgroundPrompt });
    smd.brushes.forEach((b, i) => out.push({ field: `brushes.${i}.prompt`, text: b.prompt }));
  }
  if (kind === 'regional') {
    (request as NormalizedRequest<'regional'>).regions.forEach((g, i) =>
      out.push({ field: `regions.${i}.prompt`, text: g.prompt }),
    );
  }
  return out;
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
  const changed = verdicts.filter((v, i) => v.verdict.sanitizedPrompt !== fields[i]!.text);
  let sanitized = request;
  if (changed.length > 0) {
    const copy = structuredClone(request) as Record<string, unknown>;
    for (const v of changed) setPath(copy, v.field, v.verdict.sanitizedPrompt);
    sanitized = copy as NormalizedRequest<K>;
  }
  return { allowed: verdicts.every((v) => v.verdict.allowed), verdicts, request: sanitized };
}
