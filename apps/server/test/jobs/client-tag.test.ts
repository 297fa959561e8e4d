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
import { last, LiveServer, pngDataUrl, User } from './helpers.ts';

// A job carries the tag its client submitted it with: listed with the active jobs and with the finished job, so
// another browser can tell which layer a job belongs to. Plus who may read a video's bytes.

const base = createEngineRouter(DEFAULT_ENGINE_CONFIG);
const slow = new BuiltinEngine({ stepDelayMs: 100 });
const failing: Engine = {
  id: 'builtin',
  supports: (task) => base.engineFor(task).supports(task),
  run() {
    return Promise.reject(new EngineError('engine_failed', 'The GPU worker fell over'));
  },
};
const router: EngineRouter = {
  engines: base.engines,
  engineFor(task: EngineTask) {
    const prompt = 'prompt' in task ? task.prompt : '';
    if (prompt.includes('FAIL')) return failing;
    if (prompt.includes('SLOW')) return slow;
    return base.engineFor(task);
  },
};

const job = (prompt: string, client?: unknown) => ({
  model: 'aamxl',
  prompt,
  width: 512,
  height: 512,
  steps: 8,
  num_images: 1,
  ...(client === undefined ? {} : { client }),
});

let server: LiveServer;

beforeAll(async () => {
  server = await new LiveServer().start({ jobs: { router } });
});
afterAll(async () => {
  await server.close();
  server.destroy();
});

describe('client tags on jobs', () => {
  test('the tag comes back with the active job and the finished one, and stays out of the inputs', async () => {
    const user = await User.signUp(server);
    const tag = { workspaceId: 'w1', job: { op: 'generate', layerId: 'layer-1', created: true } };
    const stream = await user.open('POST', '/api/diffusion/txt2img', job('SLOW owl', tag));
    const jobId = String((await stream.until((e) => e.status === 'IN_QUEUE')).job_id);
    const active = await user.json<{ jobs: { job_id: string; client?: unknown }[] }>('/api/jobs?status=active');
    expect(active.jobs).toEqual([expect.objectContaining({ job_id: jobId, client: tag })]);
    expect(last(await stream.all())?.status).toBe('COMPLETED');

    const done = await user.json<{ status: string; client?: unknown; output?: { images?: unknown[] } }>(
      `/api/jobs/${jobId}`,
    );
    expect(done).toMatchObject({ status: 'COMPLETED', client: tag });
    expect(done.output?.images).toHaveLength(1);
    const row = await server.koma.database.db
      .selectFrom('jobs')
      .select(['inputs', 'client'])
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.inputs)).not.toHaveProperty('client');
    expect(JSON.parse(row.client ?? 'null')).toEqual(tag);
  });

  test('a job without a tag lists none; a failed job gives its message and code', async () => {
    const user = await User.signUp(server);
    const { events } = await user.run('/api/diffusion/txt2img', job('FAIL please'));
    const jobId = String(events[0]!.job_id);
    const failed = await user.json<Record<string, unknown>>(`/api/jobs/${jobId}`);
    expect(failed).toMatchObject({ status: 'FAILED', error: 'The GPU worker fell over', code: 'engine_failed' });
    expect(failed).not.toHaveProperty('client');
  });

  test('the recent list holds tagged jobs that ended, newest first, and only the user’s own', async () => {
    const user = await User.signUp(server);
    const tag = (layerId: string) => ({ workspaceId: 'w-recent', job: { op: 'generate', layerId, created: true } });
    const ok = String((await user.run('/api/diffusion/txt2img', job('a fox', tag('l-ok')))).events[0]!.job_id);
    const bad = String((await user.run('/api/diffusion/txt2img', job('FAIL fox', tag('l-bad')))).events[0]!.job_id);
    await user.run('/api/diffusion/txt2img', job('an untagged fox'));
    const recent = await user.json<{ jobs: { job_id: string; status: string; client?: unknown }[] }>(
      '/api/jobs?status=recent',
    );
    expect(recent.jobs.map((j) => [j.job_id, j.status])).toEqual([
      [bad, 'FAILED'],
      [ok, 'COMPLETED'],
    ]);
    expect(recent.jobs[1]!.client).toEqual(tag('l-ok'));
    const other = await User.signUp(server);
    expect((await other.json<{ jobs: unknown[] }>('/api/jobs?status=recent')).jobs).toEqual([]);
    const wrong = await user.fetch('/api/jobs?status=done');
    expect(wrong.status).toBe(400);
  });

  test('a tag that is not an object is refused before anything is charged', async () => {
    const user = await User.signUp(server);
    const before = await user.balance();
    const res = await user.post('/api/diffusion/txt2img', job('a cat', 'layer-1'));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request', message: 'client: must be an object' });
    expect(await user.balance()).toBe(before);
  });
});

describe('video bytes', () => {
  test('only their owner reads them: another user gets 404, no session 401', async () => {
    const user = await User.signUp(server);
    await server.koma.ledger.grant(user.id, 1000, 'test');
    const image = await pngDataUrl(64, 64);
    const { events } = await user.run('/api/video', { image, model: 'wan22_i2v', duration: 5 });
    const output = last(events)?.output as { video: { id: string; mime: string } };
    expect((await user.fetch(`/api/videos/${output.video.id}`)).status).toBe(200);
    const other = await User.signUp(server);
    const stranger = await other.fetch(`/api/videos/${output.video.id}`);
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toMatchObject({ error: 'not_found' });
    const anonymous = await fetch(`${server.base}/api/videos/${output.video.id}`);
    expect(anonymous.status).toBe(401);
  });
});
