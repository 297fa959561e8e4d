import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type ServerConfig } from '../../src/config.ts';

/** The local PostgreSQL of this machine; override with TEST_PG_ADMIN_URL. */
const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type BackendName = 'sqlite' | 'postgres';

/** A throwaway place to run the server: a temp folder, plus a fresh database for PostgreSQL. */
export interface TestBackend {
  name: BackendName;
  config: ServerConfig;
  /** Builds an app on this backend's data (call again after close() to "restart"). */
  start(overrides?: Partial<ServerConfig>): Promise<FastifyInstance>;
  /** Drops the database and the folder. */
  destroy(): Promise<void>;
}

/** Creates a backend with its own data folder and, for PostgreSQL, its own database. */
export async function createBackend(name: BackendName, env: NodeJS.ProcessEnv = {}): Promise<TestBackend> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `koma-${name}-`));
  let databaseUrl: string | undefined;
  let dbName: string | undefined;
  if (name === 'postgres') {
    dbName = `koma_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const config: ServerConfig = {
    ...loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SIGNIN_RATE_LIMIT: '1000',
      // scrypt at 2^14 keeps suites that sign many users up fast; passwords.test.ts checks the 2^17 default.
      PASSWORD_SCRYPT_LOG2N: '14',
      ...env,
    }),
    databaseUrl,
  };
  return {
    name,
    config,
    start: (overrides = {}) => buildApp({ ...config, ...overrides }, { logger: false }),
    async destroy() {
      if (dbName) {
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
