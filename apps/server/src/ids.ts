import { randomBytes } from 'node:crypto';

/** A fresh random id (128 bits, base64url); every id the server hands out is one of these. */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** True for strings shaped like our ids; anything path-like or oversized is refused before it reaches SQL or storage. */
export function isId(value: string): boolean {
  return idPattern.test(value);
}
