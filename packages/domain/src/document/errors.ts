export type DocumentErrorCode =
  | 'NOT_AN_OBJECT'
  | 'UNSUPPORTED_VERSION'
  | 'UNKNOWN_LAYER_TYPE'
  | 'INVALID_FIELD'
  | 'BROKEN_REFERENCE'
  | 'TOO_DEEP'
  | 'UNREADABLE';

/** Why a saved document could not be loaded; `path` names the bad field, e.g. `pages[0].rootLayer.children[2].type`. */
export interface DocumentError {
  code: DocumentErrorCode;
  message: string;
  path: string;
}

/** Formats a property path the way a reader writes it: `a.b[2].c`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}
