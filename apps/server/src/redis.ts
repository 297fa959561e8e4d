import { Redis } from 'ioredis';

/**
 * One Redis connection per URL for the whole process, shared by whoever needs plain commands (sign-in limits, rate
 * limits). Each user acquires it and releases it when it closes; the connection ends with the last release. The job
 * bus and BullMQ keep their own connections: subscribers and blocking commands cannot share one.
 */
export interface SharedRedis {
  readonly client: Redis;
  release(): Promise<void>;
}

const pool = new Map<string, { client: Redis; refs: number }>();

export function acquireRedis(url: string): SharedRedis {
  let entry = pool.get(url);
  if (!entry) {
    // A command waits for a reconnect instead of failing at once, but not forever: a limit check must not hang a
    // sign-in when Redis is gone (the caller turns the error into a 503).
    const client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
    // Connection errors reach each caller as a failed command (and /api/ready reports them); without a listener
    // ioredis would print every reconnect attempt.
    client.on('error', () => undefined);
    entry = { client, refs: 0 };
    pool.set(url, entry);
  }
  entry.refs++;
  const held = entry;
  let released = false;
  return {
    client: held.client,
    async release() {
      if (released) return;
      released = true;
      held.refs--;
      if (held.refs > 0) return;
      pool.delete(url);
      await held.client.quit().catch(() => held.client.disconnect());
    },
  };
}
