import { zWorkspaceData, DOCUMENT_VERSION, type WorkspaceData } from './workspace.ts';
import { originalPath, upgrade, type ChildOrigins } from './migrations.ts';
import { checkIntegrity } from './integrity.ts';
import { formatPath, type DocumentError } from './errors.ts';

export type DecodeResult = { ok: true; value: WorkspaceData } | { ok: false; error: DocumentError };

/**
 * Loads a saved workspace document: migrates it to the current version, drops legacy layer types, fills defaults,
 * and validates it whole. Never throws and never returns a half-loaded document.
 */
export function decodeWorkspaceData(raw: unknown): DecodeResult {
  let upgraded;
  const origins: ChildOrigins = new WeakMap();
  try {
    upgraded = upgrade(raw, origins);
  } catch (cause) {
    // structuredClone refuses functions and symbols: such input is not a saved document.
    const message = cause instanceof Error ? cause.message : String(cause);
    return { ok: false, error: { code: 'INVALID_FIELD', message: `Not a saved document: ${message}`, path: '' } };
  }
  if (!upgraded.ok) return upgraded;
  const parsed = zWorkspaceData.safeParse(upgraded.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // Paths name the place in the document as given, before legacy layers were dropped.
    const path = issue ? formatPath(originalPath(upgraded.value, issue.path, origins)) : '';
    const message = issue ? `${path || 'document'}: ${issue.message}` : 'Invalid document';
    return { ok: false, error: { code: 'INVALID_FIELD', message, path } };
  }
  const broken = checkIntegrity(parsed.data, (path) => formatPath(originalPath(upgraded.value, path, origins)));
  if (broken) return { ok: false, error: broken };
  return { ok: true, value: parsed.data };
}

/** Decodes or throws an Error carrying the path; for callers that treat a bad document as a bug. */
export function decodeWorkspaceDataOrThrow(raw: unknown): WorkspaceData {
  const result = decodeWorkspaceData(raw);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** The saved form of a document: plain JSON-safe data stamped with the current version. */
export function encodeWorkspaceData(data: WorkspaceData): WorkspaceData {
  return { ...structuredClone(data), version: DOCUMENT_VERSION };
}
