import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEngineRouter, DEFAULT_ENGINE_CONFIG, EngineError, type EngineRouter } from '../../src/engines/index.ts';
import { createBackend, type TestBackend } from '../support/backends.ts';
import { last, LiveServer, User } from './helpers.ts';

// The credit-critical paths on PostgreSQL (row locks instead of SQLite's single writer).
const base = createEngineRouter(DEFAULT_ENGINE_CONFIG);
const router: EngineRouter = {
  engines: base.engines,
  engineFor(task) {
    if ('prompt' in task && task.prompt.includes('FAIL')) {
      return {
        id: 'builtin',
        supports: () => true,
        run: () => Promise.reject(new EngineError('engine_failed', 'Out of GPU memory')),
      };
    }
    return base.engineFor(task);
  },
};

let backend: TestBackend;
let server: LiveServer;

beforeAll(async () => {
  backend = await createBackend('postgres');
  server = new LiveServer(undefined, { DATABASE_URL: backend.config.databaseUrl ?? '' });
  await server.start({ jobs: { router } });
}, 30_000);

afterAll(async () => {
  await server.close();
  server.destroy();
  await backend.destroy();
});

const body = (prompt: string) => ({ model: 'aamxl', prompt, width: 512, height: 512, steps: 2, num_images: 1 });

async function ledger(userId: string) {
  return server.koma.database.db
    .selectFrom('credit_ledger')
    .select(['kind', 'credits_delta'])
    .where('user_id', '=', userId)
    .where('kind', 'in', ['charge', 'refund'])
    .execute();
}

describe('jobs on PostgreSQL', () => {
  test('20 concurrent jobs from one user with credits for 16: 16 charged once and run, 4 refused', async () => {
    const user = await User.signUp(server);
    const results = await Promise.all(Array.from({ length: 20 }, () => user.run('/api/diffusion/txt2img', body('ok'))));
    const accepted = results.filter((r) => r.status === 200);
    expect(accepted).toHaveLength(16);
    for (const r of results.filter((x) => x.status !== 200))
      expect(r.body).toMatchObject({ error: 'not_enough_credits' });
    for (const r of accepted) expect(last(r.events)?.status).toBe('COMPLETED');
    expect(await user.balance()).toBe(4);
    expect((await ledger(user.id)).map((r) => r.kind)).toEqual(Array(16).fill('charge'));
  }, 60_000);

  test('10 concurrent failing jobs: each charged and refunded exactly once', async () => {
    const user = await User.signUp(server);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => user.run('/api/diffusion/txt2img', body('FAIL'))),
    );
    for (const r of results) expect(last(r.events)).toMatchObject({ status: 'FAILED', error: 'Out of GPU memory' });
    expect(await user.balance()).toBe(100);
    const rows = await ledger(user.id);
    expect(rows.filter((r) => r.kind === 'charge')).toHaveLength(10);
    expect(rows.filter((r) => r.kind === 'refund')).toHaveLength(10);
  }, 60_000);
});
