import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt cost as log2 N: 17 (N = 131072) is current guidance (OWASP password storage cheat sheet). */
export const DEFAULT_SCRYPT_LOG2N = 17;
const r = 8;
const p = 1;
const keyLength = 64;

/** Memory scrypt needs: 128 × N × r bytes, plus headroom; Node refuses above `maxmem` (32 MB by default). */
function maxmemFor(n: number, rr: number): number {
  return 128 * n * rr * 2;
}

function derive(password: string, salt: Buffer, n: number, rr: number, pp: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, { N: n, r: rr, p: pp, maxmem: maxmemFor(n, rr) }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** Hashes a password with scrypt at N = 2^log2n; the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string, log2n = DEFAULT_SCRYPT_LOG2N): Promise<string> {
  const n = 2 ** log2n;
  const salt = randomBytes(16);
  const key = await derive(password, salt, n, r, p);
  return `scrypt$${n}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Highest N a stored hash may ask for: a corrupted or hostile row must not make the server allocate gigabytes. */
const MAX_N = 2 ** 20;

/** True when the password matches the stored hash (constant-time comparison). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !rr || !pp || !salt || !hash) return false;
  if (Number(n) > MAX_N || Number(rr) > 16 || Number(pp) > 4) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(rr), Number(pp));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** True when a stored hash was made with weaker parameters than the current ones (it is re-hashed at sign-in). */
export function needsRehash(stored: string, log2n = DEFAULT_SCRYPT_LOG2N): boolean {
  const [scheme, n, rr, pp] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) < 2 ** log2n || Number(rr) < r || Number(pp) < p;
}
