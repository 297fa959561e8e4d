import { createHash } from 'node:crypto';
import { HttpError } from '../http/errors.ts';
import { acquireRedis, type SharedRedis } from '../redis.ts';

/** Counts events per key in fixed windows. */
export interface AttemptStore {
  /** Adds one to the key's window; the count so far and the milliseconds until the window ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** The key's count in its current window, without adding. */
  peek(key: string): Promise<{ count: number; resetMs: number }>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

/** One process's counts (no REDIS_URL). */
export class MemoryAttemptStore implements AttemptStore {
  private readonly windows = new Map<string, { count: number; ends: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  private current(key: string): { count: number; ends: number } | undefined {
    const w = this.windows.get(key);
    if (w && w.ends <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  hit(key: string, windowMs: number) {
    const w = this.current(key) ?? { count: 0, ends: this.now() + windowMs };
    w.count++;
    this.windows.set(key, w);
    // Old windows would pile up from many IPs; drop ended ones now and then.
    if (this.windows.size > 10_000) for (const k of [...this.windows.keys()]) this.current(k);
    return Promise.resolve({ count: w.count, resetMs: w.ends - this.now() });
  }

  peek(key: string) {
    const w = this.current(key);
    return Promise.resolve({ count: w?.count ?? 0, resetMs: w ? w.ends - this.now() : 0 });
  }

  reset(key: string) {
    this.windows.delete(key);
    return Promise.resolve();
  }

  close() {
    return Promise.resolve();
  }
}

// INCR, and on the first hit of a window its expiry, in one atomic step; returns the count and the time left.
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

/** Counts shared by every server process through Redis (REDIS_URL). */
export class RedisAttemptStore implements AttemptStore {
  private readonly redis: SharedRedis;
  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    this.redis = acquireRedis(url);
  }

  async hit(key: string, windowMs: number) {
    const [count, ttl] = (await this.redis.client.eval(HIT_SCRIPT, 1, this.prefix + key, windowMs)) as [number, number];
    return { count, resetMs: Math.max(0, ttl) };
  }

  async peek(key: string) {
    const [count, ttl] = await Promise.all([
      this.redis.client.get(this.prefix + key),
      this.redis.client.pttl(this.prefix + key),
    ]);
    return { count: Number(count ?? 0), resetMs: Math.max(0, ttl) };
  }

  async reset(key: string) {
    await this.redis.client.del(this.prefix + key);
  }

  close() {
    return this.redis.release();
  }
}

export interface SigninLimits {
  /** Sign-in attempts per client IP per window (right or wrong). */
  ip: { max: number; windowMs: number };
  /** Failed sign-ins per account per window; a success clears the count. */
  account: { max: number; windowMs: number };
}

/** A store that cannot be reached (Redis down) makes sign-in unavailable, not an internal error. */
async function unavailableOnError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(503, 'unavailable', 'Sign-in is unavailable right now; try again in a minute.');
  }
}

function tooMany(what: string, resetMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(resetMs / 1000));
  return new HttpError(429, 'rate_limited', `Too many sign-in attempts ${what}; try again in ${seconds} s.`, {
    retryAfter: seconds,
  });
}

/**
 * Sign-in limits per client IP and per account, so that neither one address trying many accounts nor many
 * addresses trying one account gets far. Accounts are keyed by a hash of the normalised email (no addresses in
 * Redis).
 */
export class SigninLimiter {
  constructor(
    private readonly store: AttemptStore,
    private readonly limits: SigninLimits,
  ) {}

  private accountKey(email: string): string {
    return `signin:account:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
  }

  /** Counts an attempt from this IP and refuses (429) when the IP or the account is over its limit. */
  async admit(ip: string, email: string): Promise<void> {
    return unavailableOnError(() => this.check(ip, email));
  }

  private async check(ip: string, email: string): Promise<void> {
    const byIp = await this.store.hit(`signin:ip:${ip}`, this.limits.ip.windowMs);
    if (byIp.count > this.limits.ip.max) throw tooMany('from this address', byIp.resetMs);
    const byAccount = await this.store.peek(this.accountKey(email));
    if (byAccount.count >= this.limits.account.max) throw tooMany('for this account', byAccount.resetMs);
  }

  async failed(email: string): Promise<void> {
    await unavailableOnError(() => this.store.hit(this.accountKey(email), this.limits.account.windowMs));
  }

  async succeeded(email: string): Promise<void> {
    await unavailableOnError(() => this.store.reset(this.accountKey(email)));
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
