import { zWorkspaceData, DOCUMENT_VERSION, type WorkspaceData } from './workspace.ts';
import { originalPath, upgrade, type ChildOrigins } from './migrations.ts';
import { checkIntegrity } from './integrity.ts';
import { formatPath, type DocumentError } from './errors.ts';
import { repairDocument, type DocumentRepair } from './repair.ts';
import { inspectJson, MAX_JSON_DEPTH } from '../json/inspect.ts';

export type DecodeResult =
  { ok: true; value: WorkspaceData; repairs: DocumentRepair[] } | { ok: false; error: DocumentError };

/**
 * Loads a saved workspace document: migrates it to the current version, drops legacy layer types, repairs what
 * earlier apps wrote (see repair.ts), fills defaults, and validates it whole. Never throws and never returns a
 * half-loaded document.
 */
export function decodeWorkspaceData(raw: unknown): DecodeResult {
  try {
    return decode(raw);
  } catch (cause) {
    // Only input that is not JSON gets here (getters that throw, proxies); the fuzz test holds JSON input off it.
    const message = cause instanceof Error ? cause.message : String(cause);
    return { ok: false, error: { code: 'UNREADABLE', message: `Not a saved document: ${message}`, path: '' } };
  }
}

function decode(raw: unknown): DecodeResult {
  // First, before anything recurses: a document nested deeper than any real one is refused with its path.
  // The same walk notes whether any string needs repair, so the common document is walked once.
  const problems = inspectJson(raw, { maxDepth: MAX_JSON_DEPTH, text: true });
  // The walk stops at the first bad string; then walk again for depth alone (rare).
  const deep = problems[0]?.kind === 'bad_text' ? inspectJson(raw, { maxDepth: MAX_JSON_DEPTH })[0] : problems[0];
  if (deep) {
    const path = formatPath(deep.path);
    const message = `${path || 'document'}: nested deeper than ${MAX_JSON_DEPTH} levels`;
    return { ok: false, error: { code: 'TOO_DEEP', message, path } };
  }
  const origins: ChildOrigins = new WeakMap();
  const upgraded = upgrade(raw, origins);
  if (!upgraded.ok) return upgraded;
  // Paths name the place in the document as given, before legacy layers were dropped.
  const given = (path: readonly PropertyKey[]) => formatPath(originalPath(upgraded.value, path, origins));
  const repairs = repairDocument(upgraded.value, given, problems.length > 0);
  const parsed = zWorkspaceData.safeParse(upgraded.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue ? given(issue.path) : '';
    const message = issue ? `${path || 'document'}: ${issue.message}` : 'Invalid document';
    return { ok: false, error: { code: 'INVALID_FIELD', message, path } };
  }
  const broken = checkIntegrity(parsed.data, given);
  if (broken) return { ok: false, error: broken };
  return { ok: true, value: parsed.data, repairs };
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
