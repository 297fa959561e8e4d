import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveServer, User } from '../jobs/helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const metric = (text: string, line: RegExp) => text.split('\n').find((l) => line.test(l));
const value = (text: string, line: RegExp) => Number(metric(text, line)?.split(' ').pop() ?? NaN);

describe('health, readiness and metrics of the API', () => {
  const server = new LiveServer();
  beforeAll(() => server.start());
  afterAll(async () => {
    await server.close();
    server.destroy();
  });

  it('is live without asking any dependency, and ready when database, storage and engines answer', async () => {
    expect((await fetch(`${server.base}/api/health`)).status).toBe(200);
    const ready = await fetch(`${server.base}/api/ready`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean }> };
    expect(body.status).toBe('ready');
    expect(Object.keys(body.checks).sort()).toEqual(['database', 'engine:builtin', 'storage']);
  });

  it('counts requests per route, jobs by kind and state, and credits charged', async () => {
    const user = await User.signUp(server);
    const { events } = await user.run('/api/diffusion/txt2img', {
      model: 'aamxl',
      prompt: 'a lighthouse',
      width: 512,
      height: 512,
      steps: 2,
      num_images: 1,
    });
    expect(events.at(-1)?.status).toBe('COMPLETED');
    const response = await fetch(`${server.base}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(value(text, /^koma_http_requests_total\{method="GET",route="\/api\/ready",status="200"\}/)).toBe(1);
    expect(value(text, /^koma_http_request_duration_seconds_count\{method="POST",route="\/api\/auth\/signup"\}/)).toBe(
      1,
    );
    expect(value(text, /^koma_jobs\{kind="txt2img",state="COMPLETED"\}/)).toBe(1);
    expect(value(text, /^koma_jobs_finished_total\{kind="txt2img",state="COMPLETED"\}/)).toBeGreaterThanOrEqual(1);
    expect(value(text, /^koma_credits_charged_total /)).toBeGreaterThan(0);
    expect(value(text, /^koma_engine_call_duration_seconds_count\{engine="builtin",task="txt2img"\}/)).toBeGreaterThan(
      0,
    );
    expect(metric(text, /^koma_job_queue_wait_seconds_count\{lane=/)).toBeDefined();
    expect(metric(text, /^# TYPE koma_queue_depth gauge/)).toBeDefined();
  });
});

describe('readiness when Redis is down', () => {
  // Nothing listens on port 1: the Redis check fails, liveness does not.
  const server = new LiveServer(undefined, { REDIS_URL: 'redis://127.0.0.1:1' });
  beforeAll(() => server.start({ jobs: { config: { redisUrl: undefined, runLocally: true } } }));
  afterAll(async () => {
    await server.close();
    server.destroy();
  });

  it('answers 503 naming the dependency, and stays live', async () => {
    const ready = await fetch(`${server.base}/api/ready`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean; error?: string }> };
    expect(body.status).toBe('not_ready');
    expect(body.checks.redis?.ok).toBe(false);
    expect(body.checks.database?.ok).toBe(true);
    expect((await fetch(`${server.base}/api/health`)).status).toBe(200);
  });
});

describe('rate limits shared through Redis', () => {
  const prefix = `koma-test-${randomBytes(4).toString('hex')}:`;
  const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, SIGNIN_RATE_LIMIT: '5' };
  const a = new LiveServer(undefined, env);
  const b = new LiveServer(undefined, env);
  const jobs = { jobs: { config: { redisUrl: undefined, runLocally: true } } };
  beforeAll(async () => {
    await a.start(jobs);
    await b.start(jobs);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    a.destroy();
    b.destroy();
  });

  it('counts sign-ups on one API process against the limit on another', async () => {
    // Rejected bodies count too: the limit runs before validation, so nothing is created here.
    const signin = (server: LiveServer) =>
      fetch(`${server.base}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'not an address', password: 'x' }),
      });
    const remaining: string[] = [];
    for (const server of [a, a, b, b])
      remaining.push((await signin(server)).headers.get('x-ratelimit-remaining') ?? '');
    // One window across both processes: 4, 3, 2, 1 left, not 4, 3 on each.
    expect(remaining).toEqual(['4', '3', '2', '1']);
  });
});
