import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../src/admin-commands.ts';
import { createBackend, type TestBackend } from './support/backends.ts';
import { TestClient } from './support/client.ts';

describe('admin command', () => {
  let backend: TestBackend;

  beforeAll(async () => {
    backend = await createBackend('sqlite', { STARTING_CREDITS: '25' });
  });
  afterAll(() => backend.destroy());

  it('creates a user who can sign in, grants credits, records a purchase and sets plan and restricted mode', async () => {
    const run = (...args: string[]) => runAdmin(args, backend.config);
    expect(
      await run('create-user', '--email', 'Admin@Example.com', '--password', 'secret-passphrase', '--name', 'Ada'),
    ).toContain('"credits":25');
    expect(JSON.parse(await run('grant', '--email', 'admin@example.com', '--amount', '10'))).toMatchObject({
      credits: 35,
    });
    expect(JSON.parse(await run('purchase', '--email', 'admin@example.com', '--amount', '500'))).toMatchObject({
      purchasedCredits: 500,
    });
    expect(JSON.parse(await run('set-plan', '--email', 'admin@example.com', '--plan', 'subscriber'))).toMatchObject({
      plan: 'subscriber',
    });
    expect(JSON.parse(await run('set-restricted', '--email', 'admin@example.com', '--value', 'true'))).toMatchObject({
      restrictedMode: true,
    });

    const app = await backend.start();
    try {
      const client = new TestClient(app);
      const signin = await client.post('/api/auth/signin', {
        email: 'admin@example.com',
        password: 'secret-passphrase',
      });
      expect(signin.statusCode).toBe(200);
      expect(signin.json()).toMatchObject({
        user: { name: 'Ada', plan: 'subscriber', restrictedMode: true, credits: 35, purchasedCredits: 500 },
      });
    } finally {
      await app.close();
    }
  });

  it('refuses bad arguments without changing anything', async () => {
    const run = (...args: string[]) => runAdmin(args, backend.config);
    await expect(run('grant', '--email', 'nobody@example.com', '--amount', '5')).rejects.toThrow('No user');
    await expect(run('grant', '--email', 'admin@example.com', '--amount=-5')).rejects.toThrow('positive integer');
    await expect(run('set-plan', '--email', 'admin@example.com', '--plan', 'gold')).rejects.toThrow(
      'free or subscriber',
    );
    await expect(
      run('create-user', '--email', 'admin@example.com', '--password', 'another-passphrase'),
    ).rejects.toThrow('already exists');
    await expect(run('frobnicate')).rejects.toThrow('Unknown command');
    expect(JSON.parse(await run('show', '--email', 'admin@example.com'))).toMatchObject({
      credits: 35,
      plan: 'subscriber',
    });
  });
});
