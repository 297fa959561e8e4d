// The documents a save stores: decoded and checked as a full save is, or as a patch on the held decoded head
// (validating only what it changed, see packages/domain/src/document/incremental.ts).
import {
  applyJsonPatch,
  decodeWorkspaceData,
  DOCUMENT_VERSION,
  jsonLengthAfter,
  patchBetween,
  validatePatched,
  type DocumentText,
  type JsonPatch,
  type KnownObjects,
  type WorkspaceData,
} from '@koma/domain';
import { HttpError } from '../http/errors.ts';
import { lazyText, type DecodedHead } from './head-cache.ts';

/** Decodes a document from a request, or answers 400 naming the field. */
export function decodeOrThrow(raw: unknown): WorkspaceData {
  const result = decodeWorkspaceData(raw);
  if (result.ok) return result.value;
  const { path, message } = result.error;
  // The codec's messages already start with the path; prefix "data." so the client sees the request field.
  const text =
    path && message.startsWith(`${path}: `) ? `data.${message}` : `data${path ? `.${path}` : ''}: ${message}`;
  throw new HttpError(400, 'invalid_request', text);
}

/**
 * The saved JSON of a freshly decoded document. Same text as `JSON.stringify(encodeWorkspaceData(data))`
 * (a test holds the two equal) without the codec's deep copy, which only protects callers that keep using
 * the object; this one is thrown away, and the copy cost ~2–10 ms per 300 KB save.
 */
export function serialiseDocument(data: WorkspaceData): string {
  return JSON.stringify({ ...data, version: DOCUMENT_VERSION });
}

/** A patched document, ready to store: its text (written out only if needed) and the patch stored for it. */
export interface PatchedDocument {
  data: WorkspaceData;
  json: string | DocumentText;
  stored: string;
  known?: KnownObjects;
}

/** The patched document decoded whole, as a full save is. */
export function decodePatched(baseDoc: unknown, applied: unknown, patch: JsonPatch): PatchedDocument {
  const data = decodeOrThrow(applied);
  const json = serialiseDocument(data);
  // Stored as the client's own patch when the codec changed nothing in what it made; else as the diff from
  // the base to what is stored, so the version rebuilds to exactly the stored document.
  const stored = JSON.stringify(applied) === json ? JSON.stringify(patch) : patchBetween(baseDoc, JSON.parse(json));
  return { data, json, stored };
}

/** Applies a patch to a stored document's JSON value (no decoded head held): then decodes the result whole. */
export function patchStored(baseDoc: unknown, patch: JsonPatch): PatchedDocument {
  const applied = applyJsonPatch(baseDoc, patch);
  if (!applied.ok) throw new HttpError(400, 'invalid_request', `patch: ${applied.error}`);
  return decodePatched(baseDoc, applied.value, patch);
}

/**
 * Applies a patch to the held decoded head: only the objects the patch made are validated; when that cannot
 * decide, the whole document is decoded, so the answer is always the full save's.
 */
export function patchHeldHead(head: DecodedHead, patch: JsonPatch): PatchedDocument {
  const applied = applyJsonPatch(head.doc, patch);
  if (!applied.ok) throw new HttpError(400, 'invalid_request', `patch: ${applied.error}`);
  const quick = validatePatched(head.known, head.doc, applied.value, patch);
  if (!quick.ok) return decodePatched(head.doc, applied.value, patch);
  return {
    data: quick.value,
    json: lazyText(quick.value, jsonLengthAfter(head.known, head.doc, head.length, quick.value)),
    stored: quick.inSavedForm ? JSON.stringify(patch) : patchBetween(head.doc, quick.value),
    known: head.known,
  };
}
