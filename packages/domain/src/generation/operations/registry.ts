import type { z } from 'zod';
import { toFieldErrors, type FieldError } from '../requests/field-errors.ts';
import { parseWith, type NormalizeContext, type RequestResult } from '../requests/normalize.ts';
import type { EngineKey, PromptField, StoreImage } from './define.ts';
import { edit } from './edit.ts';
import { faceEdit } from './face-edit.ts';
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

/** Every generation operation by kind. A new operation is one file in this folder and one line here. */
export const OPERATIONS = {
  txt2img,
  img2img,
  inpaint,
  outpaint,
  smd,
  regional,
  refine,
  face_edit: faceEdit,
  edit,
  prompt_expansion: promptExpansion,
  video,
  upscale,
  background,
  pose,
  face_detection: faceDetection,
} as const;

export type OperationKind = keyof typeof OPERATIONS;
/** Request kinds are operation kinds (the server's job kinds); the older name stays for existing callers. */
export type RequestKind = OperationKind;
export const OPERATION_KINDS = Object.keys(OPERATIONS) as OperationKind[];
export const REQUEST_KINDS = OPERATION_KINDS;

/** True for a string naming an operation. */
export function isOperationKind(value: unknown): value is OperationKind {
  return typeof value === 'string' && Object.hasOwn(OPERATIONS, value);
}

/** The parsed (defaults applied) shape of a request kind, before normalisation. */
export type ParsedRequest<K extends OperationKind> = z.output<(typeof OPERATIONS)[K]['schema']>;
/** The normalised shape of a request kind: what the server runs and charges for. */
export type NormalizedRequest<K extends OperationKind> = ReturnType<(typeof OPERATIONS)[K]['normalize']>;

/** An operation seen through its kind only, for generic steps (the registry guarantees the pairing). */
interface AnyOperation<K extends OperationKind> {
  readonly kind: K;
  readonly endpoint: string;
  readonly schema: z.ZodType;
  normalize(parsed: unknown, ctx: NormalizeContext): NormalizedRequest<K>;
  price(request: NormalizedRequest<K>): number;
  prompts(request: NormalizedRequest<K>): PromptField[];
  storeImages(request: NormalizedRequest<K>, store: StoreImage): Promise<NormalizedRequest<K>>;
  model?(request: NormalizedRequest<K>): string;
  engineKey?(request: NormalizedRequest<K>): EngineKey | null;
}

/** The definition of an operation, typed by its kind. */
export function operationOf<K extends OperationKind>(kind: K): AnyOperation<K> {
  return OPERATIONS[kind] as unknown as AnyOperation<K>;
}

/** The zod schema of a request kind (for route schemas). */
export function requestSchema<K extends OperationKind>(kind: K): (typeof OPERATIONS)[K]['schema'] {
  return OPERATIONS[kind].schema;
}

/** Validates a payload of the given kind and applies its rules; errors name each field and its limit. */
export function parseRequest<K extends OperationKind>(
  kind: K,
  input: unknown,
  ctx: NormalizeContext,
): RequestResult<NormalizedRequest<K>> {
  const op = operationOf(kind);
  return parseWith(op.schema, (v, c) => op.normalize(v, c), input, ctx, toFieldErrors);
}

/** Credits a normalised request costs; the same number the editor shows and the server charges. */
export function costOfRequest<K extends OperationKind>(kind: K, request: NormalizedRequest<K>): number {
  const op = operationOf(kind) as AnyOperation<K> | undefined;
  if (!op) throw new Error(`unknown request kind ${String(kind)}`);
  return op.price(request);
}

/** The texts of a request that moderation reads, by field. */
export function promptFieldsOf<K extends OperationKind>(kind: K, request: NormalizedRequest<K>): PromptField[] {
  return operationOf(kind).prompts(request);
}

// Seeds never change a price, so quoting needs no real randomness.
const NO_RANDOM = (): number => 0;

/** The credits a payload would cost, or its field errors; what the editor shows before sending a job. */
export function quoteRequest(
  kind: OperationKind,
  input: unknown,
  globalPrompt?: string,
): { ok: true; credits: number } | { ok: false; errors: FieldError[] } {
  const parsed = parseRequest(kind, input, {
    random: NO_RANDOM,
    ...(globalPrompt === undefined ? {} : { globalPrompt }),
  });
  return parsed.ok ? { ok: true, credits: costOfRequest(kind, parsed.value) } : parsed;
}
