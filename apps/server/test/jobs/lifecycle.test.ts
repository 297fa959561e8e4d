import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BuiltinEngine,
  createEngineRouter,
  DEFAULT_ENGINE_CONFIG,
  EngineError,
  type Engine,
  type EngineRouter,
  type EngineTask,
} from '../../src/engines/index.ts';
import type { BuildOptions } from '../../src/app.ts';
import { last, LiveServer, User, type Stream } from './helpers.ts';

// Failure, cancel, re-attach and restart recovery, with the credit ledger checked to the row.

const base = createEngineRouter(DEFAULT_ENGINE_CONFIG);
const slow = new BuiltinEngine({ stepDelayMs: 120 });

/** An engine that makes progress and then fails, as a GPU worker falling over mid-job would. */
const failing: Engine = {
  id: 'builtin',
  supports: (task) => base.engineFor(task).supports(task),
  async run(_task, events) {
    events.onProgress({ logs: ['Progress: 1/4'], progress: 0.25 });
    await new Promise((r) => setTimeout(r, 30));
    events.onProgress({ logs: ['Progress: 2/4'], progress: 0.5 });
    throw new EngineError('engine_failed', 'The GPU worker fell over');
  },
};

/** Routes by prompt word: FAIL → failing engine, SLOW → builtin with a step delay, else the builtin. */
const router: EngineRouter = {
  engines: base.engines,
  engineFor(task: EngineTask) {
    const prompt = 'prompt' in task ? task.prompt : '';
    if (prompt.includes('FAIL')) return failing;
    if (prompt.includes('SLOW')) return slow;
    return base.engineFor(task);
  },
};
const options: BuildOptions = { jobs: { router } };

const job = (prompt: string, steps = 4) => ({
  model: 'aamxl',
  prompt,
  width: 512,
  height: 512,
  steps,
  num_images: 1,
});

let server: LiveServer;

async function ledgerOf(jobId: string) {
  return server.koma.database.db
    .selectFrom('credit_ledger')
    .select(['kind', 'credits_delta', 'purchased_delta'])
    .where('ref', '=', jobId)
    .orderBy('created_at')
    .execute();
}

async function jobRow(id: string) {
  return server.koma.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const isProgress = (e: { status: string; logs?: unknown }) =>
  e.status === 'IN_PROGRESS' && Array.isArray(e.logs) && (e.logs as string[]).some((l) => l.startsWith('Progress:'));

describe('failure, cancel, re-attach', () => {
  beforeAll(async () => {
    server = await new LiveServer().start(options);
  });
  afterAll(async () => {
    await server.close();
    server.destroy();
  });

  test('an engine failing mid-job: FAILED with its message, refunded exactly once into the buckets charged', async () => {
    const user = await User.signUp(server);
    // 2 plan credits and 10 purchased: the 6-credit job takes 2 + 4.
    await server.koma.ledger.charge(user.id, 98, 'test', 'setup');
    await server.koma.ledger.purchase(user.id, 10, 'test');
    const { events } = await user.run('/api/diffusion/txt2img', job('FAIL please'));
    const end = last(events)!;
    expect(end).toMatchObject({ status: 'FAILED', error: 'The GPU worker fell over', code: 'engine_failed' });
    expect(events.filter(isProgress).length).toBeGreaterThan(0);
    const jobId = String(events[0]!.job_id);
    expect(await ledgerOf(jobId)).toEqual([
      { kind: 'charge', credits_delta: -2, purchased_delta: -4 },
      { kind: 'refund', credits_delta: 2, purchased_delta: 4 },
    ]);
    expect(await user.json('/api/credits')).toMatchObject({ credits: 2, purchasedCredits: 10 });
    expect(await jobRow(jobId)).toMatchObject({ status: 'FAILED', refunded: 1 });
    // A refund can never be repeated: cancelling the failed job is refused and changes nothing.
    const cancel = await user.post(`/api/jobs/${jobId}/cancel`, {});
    expect(cancel.status).toBe(409);
    expect(await ledgerOf(jobId)).toHaveLength(2);
  });

  test('cancel a running job: FAILED (cancelled), refunded once, the engine stops', async () => {
    const user = await User.signUp(server);
    const stream = await user.open('POST', '/api/diffusion/txt2img', job('SLOW fox', 30));
    const first = await stream.until((e) => e.status === 'IN_QUEUE');
    const jobId = String(first.job_id);
    await stream.until(isProgress);
    const res = await user.post(`/api/jobs/${jobId}/cancel`, {});
    expect(res.status).toBe(200);
    const end = await stream.until((e) => e.status === 'FAILED');
    expect(end).toMatchObject({ code: 'cancelled' });
    const progressBefore = (await stream.all()).filter(isProgress).length;
    expect(progressBefore).toBeLessThan(30);
    await new Promise((r) => setTimeout(r, 400)); // the runner sees the abort and must not refund again
    expect(await ledgerOf(jobId)).toEqual([
      { kind: 'charge', credits_delta: -6, purchased_delta: 0 },
      { kind: 'refund', credits_delta: 6, purchased_delta: 0 },
    ]);
    expect(await user.balance()).toBe(100);
    expect(server.koma.jobs.bus.progressOf(jobId)).toBeUndefined();
  });

  test('queue positions only fall; a queued job can be cancelled and never runs', async () => {
    const user = await User.signUp(server);
    // Builtin concurrency is 2: two slow jobs run, the next three wait.
    const streams: Stream[] = [];
    for (let i = 0; i < 5; i++) {
      streams.push(await user.open('POST', '/api/diffusion/txt2img', job(`SLOW job ${i}`, 5)));
      await streams[i]!.until((e) => e.status === 'IN_QUEUE');
    }
    const queued = streams[4]!;
    const queuedId = String(queued.events[0]!.job_id);
    expect(queued.events[0]!.queue_position).toBe(2);
    const active = await user.json<{ jobs: { job_id: string; status: string; queue_position?: number }[] }>(
      '/api/jobs?status=active',
    );
    expect(active.jobs.map((j) => j.status)).toEqual([
      'IN_PROGRESS',
      'IN_PROGRESS',
      'IN_QUEUE',
      'IN_QUEUE',
      'IN_QUEUE',
    ]);
    expect(active.jobs.map((j) => j.queue_position)).toEqual([undefined, undefined, 0, 1, 2]);
    expect((await user.post(`/api/jobs/${queuedId}/cancel`, {})).status).toBe(200);
    expect(last(await queued.all())).toMatchObject({ status: 'FAILED', code: 'cancelled' });
    for (const s of streams.slice(0, 4)) {
      const events = await s.all();
      expect(last(events)?.status).toBe('COMPLETED');
      const positions = events.filter((e) => e.status === 'IN_QUEUE').map((e) => e.queue_position as number);
      for (let i = 1; i < positions.length; i++) expect(positions[i]!).toBeLessThan(positions[i - 1]!);
    }
    const positions3 = streams[3]!.events.filter((e) => e.status === 'IN_QUEUE').map((e) => e.queue_position);
    expect(positions3[0]).toBe(1);
    expect(await jobRow(queuedId)).toMatchObject({ status: 'FAILED', attempts: 0, refunded: 1 });
    expect(await user.balance()).toBe(100 - 4 * 6);
  });

  test('re-attach after a dropped connection: current state first, then the rest; others get 404', async () => {
    const user = await User.signUp(server);
    const stream = await user.open('POST', '/api/diffusion/txt2img', job('SLOW heron', 12));
    const jobId = String((await stream.until((e) => e.status === 'IN_QUEUE')).job_id);
    await stream.until(isProgress);
    stream.drop();

    const active = await user.json<{ jobs: { job_id: string }[] }>('/api/jobs?status=active');
    expect(active.jobs.map((j) => j.job_id)).toEqual([jobId]);

    const other = await User.signUp(server);
    expect((await other.fetch(`/api/jobs/${jobId}/events`)).status).toBe(404);
    expect((await other.post(`/api/jobs/${jobId}/cancel`, {})).status).toBe(404);
    expect((await other.fetch(`/api/jobs/${jobId}`)).status).toBe(404);

    const again = await user.open('GET', `/api/jobs/${jobId}/events`);
    expect(again.status).toBe(200);
    const events = await again.all();
    expect(events[0]).toMatchObject({ status: 'IN_PROGRESS', job_id: jobId });
    expect((events[0]!.logs as string[])[0]).toMatch(/^Progress: \d+\/12$/);
    expect(last(events)?.status).toBe('COMPLETED');

    // A finished job streams its final event at once.
    const done = await user.open('GET', `/api/jobs/${jobId}/events`);
    const replay = await done.all();
    expect(replay).toHaveLength(1);
    expect(replay[0]).toEqual(last(events));
    expect((await user.json<{ jobs: unknown[] }>('/api/jobs?status=active')).jobs).toEqual([]);
    expect(await ledgerOf(jobId)).toEqual([{ kind: 'charge', credits_delta: -6, purchased_delta: 0 }]);
  });
});

describe('restart recovery', () => {
  test('a job running when the server closes is re-queued once on the next start, charged once', async () => {
    server = await new LiveServer().start(options);
    const user = await User.signUp(server);
    const stream = await user.open('POST', '/api/diffusion/txt2img', job('SLOW owl', 10));
    const jobId = String((await stream.until((e) => e.status === 'IN_QUEUE')).job_id);
    await stream.until(isProgress);
    await server.close();
    expect(stream.ended).toBe(true);

    // Second life: the job is re-queued and completes.
    await server.start(options);
    const events = await (await user.open('GET', `/api/jobs/${jobId}/events`)).all();
    expect(last(events)?.status).toBe('COMPLETED');
    expect(await jobRow(jobId)).toMatchObject({ attempts: 2, status: 'COMPLETED' });
    expect(await ledgerOf(jobId)).toEqual([{ kind: 'charge', credits_delta: -6, purchased_delta: 0 }]);
    expect(await user.balance()).toBe(94);

    // A job interrupted on its second attempt too is failed and refunded on the next start.
    const second = await user.open('POST', '/api/diffusion/txt2img', job('SLOW crow', 10));
    const secondId = String((await second.until((e) => e.status === 'IN_QUEUE')).job_id);
    await second.until(isProgress);
    await server.close();
    await server.start(options);
    const reattached = await user.open('GET', `/api/jobs/${secondId}/events`);
    await reattached.until(isProgress);
    await server.close();
    await server.start(options);
    const final = await (await user.open('GET', `/api/jobs/${secondId}/events`)).all();
    expect(final).toEqual([expect.objectContaining({ status: 'FAILED', code: 'interrupted' })]);
    expect(await ledgerOf(secondId)).toEqual([
      { kind: 'charge', credits_delta: -6, purchased_delta: 0 },
      { kind: 'refund', credits_delta: 6, purchased_delta: 0 },
    ]);
    expect(await user.balance()).toBe(94);
    await server.close();
    server.destroy();
  }, 30_000);
});
