// JSON Patch (RFC 6902), the subset a save needs: add, remove, replace. The editor diffs the document it last had
// acknowledged against the one it holds now and sends the operations; the server applies them to the same
// revision and validates the result exactly as it validates a full save. See docs/how-it-works/document-sync.md.

export type JsonPatchOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string };

export type JsonPatch = JsonPatchOperation[];

export type PatchResult = { ok: true; value: unknown } | { ok: false; error: string };

/** Most operations one save may carry; past this a full save is smaller anyway. */
export const MAX_PATCH_OPERATIONS = 10_000;

function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An element's identity inside an array: layers and pages carry ids, so a moved or removed one is not rewritten. */
function keyOf(value: unknown): unknown {
  if (isObject(value)) {
    if (typeof value.id === 'string') return `id:${value.id}`;
    if (typeof value.uuid === 'string') return `uuid:${value.uuid}`;
  }
  return undefined;
}

function sameElement(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ka = keyOf(a);
  return ka !== undefined && ka === keyOf(b);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao).filter((k) => ao[k] !== undefined);
  if (keys.length !== Object.keys(bo).filter((k) => bo[k] !== undefined).length) return false;
  return keys.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]));
}

function diffInto(a: unknown, b: unknown, path: string, out: JsonPatch): void {
  if (a === b) return;
  if (Array.isArray(a) && Array.isArray(b)) return diffArrays(a, b, path, out);
  if (isObject(a) && isObject(b)) {
    for (const key of Object.keys(a)) {
      if (a[key] === undefined) continue;
      const child = `${path}/${escapeToken(key)}`;
      if (!Object.hasOwn(b, key) || b[key] === undefined) out.push({ op: 'remove', path: child });
      else diffInto(a[key], b[key], child, out);
    }
    for (const key of Object.keys(b)) {
      if (b[key] === undefined || (Object.hasOwn(a, key) && a[key] !== undefined)) continue;
      out.push({ op: 'add', path: `${path}/${escapeToken(key)}`, value: b[key] });
    }
    return;
  }
  if (!deepEqual(a, b)) out.push({ op: 'replace', path, value: b });
}

function diffArrays(a: readonly unknown[], b: readonly unknown[], path: string, out: JsonPatch): void {
  let start = 0;
  while (start < a.length && start < b.length && sameElement(a[start], b[start])) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && sameElement(a[endA - 1], b[endB - 1])) {
    endA--;
    endB--;
  }
  // Matched elements before and after the changed middle are diffed in place (their index is the same in both
  // arrays at the time each operation runs: the prefix is diffed first, the suffix after the middle is rewritten).
  for (let i = 0; i < start; i++) diffInto(a[i], b[i], `${path}/${i}`, out);
  const middleA = endA - start;
  const middleB = endB - start;
  const common = Math.min(middleA, middleB);
  // An element that moved: its id matches somewhere else in the middle, so it cannot be diffed in place.
  const keyed = a.slice(start, endA).some((v) => keyOf(v) !== undefined);
  if (!keyed) {
    for (let i = 0; i < common; i++) diffInto(a[start + i], b[start + i], `${path}/${start + i}`, out);
    for (let i = middleA - 1; i >= common; i--) out.push({ op: 'remove', path: `${path}/${start + i}` });
    for (let i = common; i < middleB; i++) out.push({ op: 'add', path: `${path}/${start + i}`, value: b[start + i] });
  } else {
    for (let i = middleA - 1; i >= 0; i--) out.push({ op: 'remove', path: `${path}/${start + i}` });
    for (let i = 0; i < middleB; i++) out.push({ op: 'add', path: `${path}/${start + i}`, value: b[start + i] });
  }
  const shift = middleB - middleA;
  for (let i = endA; i < a.length; i++) diffInto(a[i], b[i + shift], `${path}/${i + shift}`, out);
}

/** The operations that turn `before` into `after` (both plain JSON values). */
export function diffJson(before: unknown, after: unknown): JsonPatch {
  const out: JsonPatch = [];
  diffInto(before, after, '', out);
  return out;
}

function parsePointer(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  return pointer.slice(1).split('/').map(unescapeToken);
}

function arrayIndex(token: string, length: number, forAdd: boolean): number | null {
  if (forAdd && token === '-') return length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) return null;
  const index = Number(token);
  return index < length || (forAdd && index === length) ? index : null;
}

/** A shallow copy of a container, so applying never changes the document it was given. */
function copyOf(value: unknown): unknown {
  return Array.isArray(value) ? [...(value as unknown[])] : { ...(value as Record<string, unknown>) };
}

/** `value` itself when this application already copied it (or it is not a container), else a copy it now owns. */
function own(value: unknown, copied: WeakSet<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (copied.has(value)) return value;
  const copy = copyOf(value) as object;
  copied.add(copy);
  return copy;
}

/** The error for a missing container at `tokens[0..i]`, written out only when needed. */
function missing(tokens: readonly string[], i: number): PatchResult {
  return {
    ok: false,
    error: `path "/${tokens
      .slice(0, i + 1)
      .map(escapeToken)
      .join('/')}" does not exist`,
  };
}

function applyOne(root: unknown, operation: JsonPatchOperation, copied: WeakSet<object>): PatchResult {
  const tokens = parsePointer(operation.path);
  if (tokens === null) return { ok: false, error: `path "${operation.path}" is not a JSON pointer` };
  if (tokens.length === 0) {
    if (operation.op === 'remove') return { ok: false, error: 'the whole document cannot be removed' };
    return { ok: true, value: operation.value };
  }
  // No closures in this loop: a save walks every operation's path, and each closure made here is an allocation.
  const nextRoot = own(root, copied);
  let parent = nextRoot;
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i]!;
    if (Array.isArray(parent)) {
      const index = arrayIndex(token, parent.length, false);
      if (index === null) return missing(tokens, i);
      parent[index] = own(parent[index], copied);
      parent = parent[index];
    } else if (isObject(parent) && Object.hasOwn(parent, token)) {
      parent[token] = own(parent[token], copied);
      parent = parent[token];
    } else return missing(tokens, i);
  }
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) {
    const index = arrayIndex(last, parent.length, operation.op === 'add');
    if (index === null) return { ok: false, error: `path "${operation.path}" does not exist` };
    if (operation.op === 'add') parent.splice(index, 0, operation.value);
    else if (operation.op === 'remove') parent.splice(index, 1);
    else parent[index] = operation.value;
  } else if (isObject(parent)) {
    // __proto__ as an own key would reach the prototype through plain assignment.
    if (last === '__proto__') return { ok: false, error: `path "${operation.path}" is not allowed` };
    const exists = Object.hasOwn(parent, last);
    if (operation.op !== 'add' && !exists) return { ok: false, error: `path "${operation.path}" does not exist` };
    if (operation.op === 'remove') delete parent[last];
    else parent[last] = operation.value;
  } else return { ok: false, error: `path "${operation.path}" does not exist` };
  return { ok: true, value: nextRoot };
}

/** Shape check of a patch that came over the wire; null when fine, else the reason naming the operation. */
export function checkPatchShape(raw: unknown): string | null {
  if (!Array.isArray(raw)) return 'must be a list of operations';
  if (raw.length > MAX_PATCH_OPERATIONS) return `must hold at most ${MAX_PATCH_OPERATIONS} operations`;
  for (const [i, op] of raw.entries()) {
    if (!isObject(op)) return `[${i}] must be an object`;
    if (op.op !== 'add' && op.op !== 'remove' && op.op !== 'replace') return `[${i}].op must be add, remove or replace`;
    if (typeof op.path !== 'string') return `[${i}].path must be a string`;
    if (op.op !== 'remove' && !Object.hasOwn(op, 'value')) return `[${i}].value is required`;
  }
  return null;
}

/**
 * Applies the operations in order to a copy of `doc` (the given value is never changed; untouched branches are
 * shared). Never throws: a path that does not exist is an error naming the operation.
 */
export function applyJsonPatch(doc: unknown, patch: readonly JsonPatchOperation[]): PatchResult {
  const copied = new WeakSet<object>();
  let current = doc;
  for (const [i, operation] of patch.entries()) {
    const result = applyOne(current, operation, copied);
    if (!result.ok) return { ok: false, error: `operation ${i} (${operation.op}): ${result.error}` };
    current = result.value;
  }
  return { ok: true, value: current };
}
