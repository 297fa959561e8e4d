import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { precompiled } from './precompiled.ts';

describe('precompiled', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'koma-precompiled-'));
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: undefined, dataDir: dir });
    await handle.db
      .insertInto('users')
      .values([
        {
          id: 'u1',
          email: 'a@x',
          name: 'A',
          password_hash: 'h',
          plan: 'free',
          restricted_mode: 0,
          credits: 1,
          purchased_credits: 0,
          created_at: 't',
        },
        {
          id: 'u2',
          email: 'b@x',
          name: 'B',
          password_hash: 'h',
          plan: 'free',
          restricted_mode: 0,
          credits: 2,
          purchased_credits: 0,
          created_at: 't',
        },
      ])
      .execute();
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs the compiled SQL with each call’s own values', async () => {
    const byEmail = precompiled((db: typeof handle.db, email: string) =>
      db.selectFrom('users').select(['id', 'credits']).where('email', '=', email),
    );
    expect(await byEmail(handle.db, 'a@x')).toEqual([{ id: 'u1', credits: 1 }]);
    expect(await byEmail(handle.db, 'b@x')).toEqual([{ id: 'u2', credits: 2 }]);
    expect(await byEmail(handle.db, 'nobody')).toEqual([]);
  });

  it('refuses a builder that binds values other than its parameters, in order', async () => {
    const swapped = precompiled((db: typeof handle.db, a: string, b: string) =>
      db.selectFrom('users').select('id').where('name', '=', b).where('email', '=', a),
    );
    await expect(swapped(handle.db, 'a@x', 'A')).rejects.toThrow('binds its parameters differently');
    const constant = precompiled((db: typeof handle.db, email: string) =>
      db.selectFrom('users').select('id').where('email', '=', email).where('plan', '=', 'free'),
    );
    await expect(constant(handle.db, 'a@x')).rejects.toThrow('binds its parameters differently');
  });
});
