// Sessions and passwords (issue #20 item 8): idle and absolute expiry on an injected clock, a new session id at
// every sign-in, Secure cookies over HTTPS behind a trusted proxy, the password policy, scrypt at 2^17 with a
// transparent re-hash, and sign-in limits per account shared by two server instances through Redis.
import { randomBytes } from 'node:crypto';
import { createWorkspaceData } from '@koma/domain';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { ServerConfig } from '../../src/config.ts';
import { hashPassword } from '../../src/services/passwords.ts';
import { createBackend, type BackendName, type TestBackend } from '../support/backends.ts';
import { TestClient } from '../support/client.ts';

const DAY = 24 * 3600 * 1000;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const backends: BackendName[] = ['sqlite', 'postgres'];

/** A clock the test moves by hand. */
function clock(start = Date.parse('2026-03-01T09:00:00Z')) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
const haveRedis = await redisReachable();

describe.each(backends)('sessions and passwords on %s', (backendName) => {
  let backend: TestBackend;
  const apps: FastifyInstance[] = [];
  const start = async (overrides: Partial<ServerConfig> = {}, now?: () => Date) => {
    const app = await buildApp({ ...backend.config, ...overrides }, { logger: false, ...(now ? { now } : {}) });
    apps.push(app);
    return app;
  };

  beforeAll(async () => {
    backend = await createBackend(backendName);
  }, 60_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    await backend?.destroy();
  });

  it('ends a session after 7 idle days and at its absolute lifetime, however busy', async () => {
    const time = clock();
    const app = await start({}, time.now);
    const c = new TestClient(app);
    await c.signUp('idle@example.com');
    const me = async () => (await c.get('/api/auth/me')).statusCode;
    // Used every 6 days: alive, and each use moves the idle deadline.
    for (let i = 0; i < 4; i++) {
      time.advance(6 * DAY);
      expect(await me(), `day ${6 * (i + 1)}`).toBe(200);
    }
    // Day 24, then 8 days without use: over the idle limit.
    time.advance(8 * DAY);
    expect(await me()).toBe(401);

    // A fresh sign-in, used every 5 days: alive until the 30-day lifetime, then gone although in use.
    const d = new TestClient(app);
    await d.post('/api/auth/signin', { email: 'idle@example.com', password: 'correct horse' });
    for (let day = 5; day < 30; day += 5) {
      time.advance(5 * DAY);
      expect((await d.get('/api/auth/me')).statusCode, `day ${day}`).toBe(200);
    }
    time.advance(5 * DAY);
    expect((await d.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('also refuses an idle session on the workspace read, which checks the session itself', async () => {
    const time = clock();
    const app = await start({}, time.now);
    const c = new TestClient(app);
    await c.signUp('idle-doc@example.com');
    const data = createWorkspaceData('COMIC', () => randomBytes(8).toString('hex'));
    const { id } = (await c.post('/api/workspace', { name: 'w', data })).json() as { id: string };
    expect((await c.get(`/api/workspace/${id}`)).statusCode).toBe(200);
    time.advance(8 * DAY);
    expect((await c.get(`/api/workspace/${id}`)).statusCode).toBe(401);
  });

  it('gives a new session id at sign-in and ends the one the request came with', async () => {
    const app = await start();
    const c = new TestClient(app);
    await c.signUp('fixation@example.com');
    const before = c.cookie!;
    const signin = await c.post('/api/auth/signin', { email: 'fixation@example.com', password: 'correct horse' });
    expect(signin.statusCode).toBe(200);
    expect(c.cookie).not.toBe(before);
    const old = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: before } });
    expect(old.statusCode).toBe(401);
    expect((await c.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('sets Secure on the cookie when the request came over HTTPS through a trusted proxy, and only then', async () => {
    const signup = async (app: FastifyInstance, email: string, headers: Record<string, string>) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        headers: { 'content-type': 'application/json', ...headers },
        payload: JSON.stringify({ email, password: 'correct horse' }),
      });
      expect(res.statusCode).toBe(201);
      return res.cookies.find((k) => k.name === 'koma_session')!;
    };
    const direct = await start();
    expect((await signup(direct, 'plain@example.com', {})).secure).toBeFalsy();
    // Not behind a trusted proxy: a forwarded protocol is not believed.
    expect((await signup(direct, 'forged@example.com', { 'x-forwarded-proto': 'https' })).secure).toBeFalsy();
    const proxied = await start({ trustProxy: true });
    expect((await signup(proxied, 'tls@example.com', { 'x-forwarded-proto': 'https' })).secure).toBe(true);
    expect((await signup(proxied, 'clear@example.com', { 'x-forwarded-proto': 'http' })).secure).toBeFalsy();
  });

  it.each([
    ['elevenchars', 'must be at least 12 characters'],
    ['password1234', 'most common passwords'],
    ['passwordpassword', 'most common passwords'],
    ['iloveyou!!!!', 'most common passwords'],
    ['aaaaaaaaaaaa', 'choose another'],
    ['abababababab', 'too easy to guess'],
    ['123456789012', 'too easy to guess'],
    ['qwertyuiopas', 'too easy to guess'],
    ['weak-pw@example.com', 'must not be your email address'],
  ])('refuses the password %j: %s', async (password, why) => {
    const app = apps[0] ?? (await start());
    const res = await new TestClient(app).post('/api/auth/signup', { email: 'weak-pw@example.com', password });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'weak_password',
      field: 'password',
      message: expect.stringContaining(why),
    });
  });

  it('hashes new passwords with scrypt N = 2^17 and re-hashes older, cheaper hashes at sign-in', async () => {
    const app = await start({ scryptLog2N: 17 });
    const c = new TestClient(app);
    await c.signUp('strong@example.com', 'a-long-passphrase');
    const hashOf = async (email: string) =>
      (
        await app.koma.database.db
          .selectFrom('users')
          .select('password_hash')
          .where('email', '=', email)
          .executeTakeFirstOrThrow()
      ).password_hash;
    expect((await hashOf('strong@example.com')).split('$').slice(0, 4)).toEqual(['scrypt', '131072', '8', '1']);

    // An account from before: its hash at 2^14.
    await c.signUp('legacy@example.com', 'a-long-passphrase');
    const legacy = await hashPassword('a-long-passphrase', 14);
    await app.koma.database.db
      .updateTable('users')
      .set({ password_hash: legacy })
      .where('email', '=', 'legacy@example.com')
      .execute();
    const signin = await new TestClient(app).post('/api/auth/signin', {
      email: 'legacy@example.com',
      password: 'a-long-passphrase',
    });
    expect(signin.statusCode).toBe(200);
    const upgraded = await hashOf('legacy@example.com');
    expect(upgraded).not.toBe(legacy);
    expect(upgraded.split('$')[1]).toBe('131072');
    // The new hash works, the wrong password still does not.
    const again = await new TestClient(app).post('/api/auth/signin', {
      email: 'legacy@example.com',
      password: 'a-long-passphrase',
    });
    expect(again.statusCode).toBe(200);
    const wrong = await new TestClient(app).post('/api/auth/signin', {
      email: 'legacy@example.com',
      password: 'not-the-passphrase',
    });
    expect(wrong.statusCode).toBe(401);
  }, 60_000);

  it('limits failed sign-ins per account, whatever address they come from', async () => {
    const app = await start({ signinAccountLimit: { max: 3, windowMs: 60_000 }, trustProxy: true });
    await new TestClient(app).signUp('target@example.com');
    const attempt = (ip: string, password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        remoteAddress: ip,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'target@example.com', password }),
      });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await attempt(`10.0.0.${i + 1}`, 'wrong-guess-here')).statusCode);
    expect(statuses).toEqual([401, 401, 401]);
    const locked = await attempt('10.0.0.9', 'correct horse');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ error: 'rate_limited', message: expect.stringContaining('this account') });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    await new TestClient(app).signUp('other@example.com');
    const other = await app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      remoteAddress: '10.0.0.9',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'other@example.com', password: 'correct horse' }),
    });
    expect(other.statusCode).toBe(200);
  });

  it.skipIf(!haveRedis)('shares the per-account limit between two server instances through Redis', async () => {
    const shared = {
      redisUrl: REDIS_URL,
      redisKeyPrefix: `koma-test-${randomBytes(6).toString('hex')}:`,
      signinAccountLimit: { max: 3, windowMs: 60_000 },
    };
    const one = await start(shared);
    const two = await start(shared);
    await new TestClient(one).signUp('shared@example.com');
    const attempt = (app: FastifyInstance, password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'shared@example.com', password }),
      });
    expect((await attempt(one, 'wrong-guess-one')).statusCode).toBe(401);
    expect((await attempt(two, 'wrong-guess-two')).statusCode).toBe(401);
    expect((await attempt(one, 'wrong-guess-three')).statusCode).toBe(401);
    // Three failures in all, spread over both: the second instance refuses even the right password.
    const locked = await attempt(two, 'correct horse');
    expect(locked.statusCode).toBe(429);
    // An instance that does not share Redis counts alone and knows nothing of them.
    const alone = await start({ signinAccountLimit: shared.signinAccountLimit });
    expect((await attempt(alone, 'correct horse')).statusCode).toBe(200);
    const redis = new Redis(REDIS_URL);
    expect((await redis.keys(`${shared.redisKeyPrefix}*`)).length).toBeGreaterThan(0);
    expect((await redis.keys(`${shared.redisKeyPrefix}*shared@example.com*`)).length).toBe(0);
    await redis.quit();
  });
});
