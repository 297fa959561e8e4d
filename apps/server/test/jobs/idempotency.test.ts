import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBackend, type BackendName, type TestBackend } from '../support/backends.ts';
import { LiveServer, User } from './helpers.ts';

// Issue 20, item 4: a paid request retried with the same Idempotency-Key is charged once and answers with its first
// job; a different request under that key is refused with 422; two simultaneous requests with one key make one job.
// On both databases, since the guarantee rests on the key's primary key inside the charging transaction.

const body = (prompt: string) => ({ model: 'aamxl', prompt, width: 512, height: 512, steps: 2, num_images: 1 });
const DAY = 24 * 60 * 60 * 1000;

describe.each<BackendName>(['sqlite', 'postgres'])('Idempotency-Key on %s', (name) => {
  let backend: TestBackend;
  let server: LiveServer;
  let offset = 0;

  beforeAll(async () => {
    backend = await createBackend(name);
    server = new LiveServer(undefined, { DATABASE_URL: backend.config.databaseUrl ?? '' });
    await server.start({ now: () => new Date(Date.now() + offset) });
  }, 60_000);

  afterAll(async () => {
    await server.close();
    server.destroy();
    await backend.destroy();
  });

  /** Posts a txt2img with a key and reads the whole stream; the job id comes from the x-job-id header. */
  async function post(user: User, key: string | undefined, request: unknown) {
    const res = await user.fetch('/api/diffusion/txt2img', {
      method: 'POST',
      body: JSON.stringify(request),
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
    const text = await res.text();
    return {
      status: res.status,
      jobId: res.headers.get('x-job-id'),
      replayed: res.headers.get('idempotent-replayed') === 'true',
      text,
    };
  }

  async function charges(userId: string): Promise<number> {
    const rows = await server.koma.database.db
      .selectFrom('credit_ledger')
      .select('kind')
      .where('user_id', '=', userId)
      .where('kind', '=', 'charge')
      .execute();
    return rows.length;
  }

  test('a retry with the same key and body gets the first job back and is not charged again', async () => {
    const user = await User.signUp(server);
    const first = await post(user, 'retry-1', body('a lighthouse'));
    expect(first.status).toBe(200);
    expect(first.replayed).toBe(false);
    const balance = await user.balance();
    // The same request written with its keys in another order is the same request.
    const { prompt, ...rest } = body('a lighthouse');
    const again = await post(user, 'retry-1', { ...rest, prompt });
    expect(again.status).toBe(200);
    expect(again.replayed).toBe(true);
    expect(again.jobId).toBe(first.jobId);
    // The stream of a finished job ends with its result, as re-attaching does.
    expect(again.text.trim().split('\n').at(-1)).toContain('"COMPLETED"');
    expect(await user.balance()).toBe(balance);
    expect(await charges(user.id)).toBe(1);
    // Without a key, the same body is a new request.
    const fresh = await post(user, undefined, body('a lighthouse'));
    expect(fresh.jobId).not.toBe(first.jobId);
    expect(await charges(user.id)).toBe(2);
  });

  test('the same key with a different body is refused with 422 and charges nothing', async () => {
    const user = await User.signUp(server);
    await post(user, 'key-2', body('a harbour'));
    const balance = await user.balance();
    const other = await post(user, 'key-2', body('a harbour at night'));
    expect(other.status).toBe(422);
    expect(JSON.parse(other.text)).toEqual({
      error: 'idempotency_key_reused',
      message: 'Idempotency-Key "key-2" was already used for a different request; send a new key for a new request.',
    });
    expect(await user.balance()).toBe(balance);
  });

  test('two simultaneous requests with one key make one job and one charge', async () => {
    const user = await User.signUp(server);
    const both = await Promise.all([post(user, 'race', body('twins')), post(user, 'race', body('twins'))]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both[0].jobId).toBe(both[1].jobId);
    expect(both.filter((r) => r.replayed)).toHaveLength(1);
    expect(await charges(user.id)).toBe(1);
  });

  test('keys belong to their user, and a key older than 24 h stands for a new request', async () => {
    const alice = await User.signUp(server);
    const bob = await User.signUp(server);
    const a = await post(alice, 'shared', body('a cat'));
    const b = await post(bob, 'shared', body('a dog'));
    expect(b.status).toBe(200);
    expect(b.jobId).not.toBe(a.jobId);
    offset = DAY + 1000;
    try {
      const later = await post(alice, 'shared', body('a cat in the rain'));
      expect(later.status).toBe(200);
      expect(later.replayed).toBe(false);
      expect(later.jobId).not.toBe(a.jobId);
    } finally {
      offset = 0;
    }
  });

  test('a malformed key is refused with a 400 naming the header, before anything is charged', async () => {
    const user = await User.signUp(server);
    const balance = await user.balance();
    for (const key of ['x'.repeat(256), 'has space']) {
      const res = await post(user, key, body('a tree'));
      expect(res.status).toBe(400);
      expect((JSON.parse(res.text) as { message: string }).message).toMatch(/^Idempotency-Key: /);
    }
    expect(await user.balance()).toBe(balance);
  });
});
