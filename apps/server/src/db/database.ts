import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
} from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';
import { migrationProvider } from './migrations.ts';
import { startCheckpointer, type Checkpointer } from './sqlite-checkpointer.ts';

/** The database handle every repository takes. */
export type Database = Kysely<DB>;
export type { DB } from './schema.ts';

/** Which engine a handle talks to; a few statements differ (locking, conflict clauses). */
export type DatabaseDialect = 'sqlite' | 'postgres';

/** An open database plus what the repositories need to know about it. */
export interface DatabaseHandle {
  db: Database;
  dialect: DatabaseDialect;
  close(): Promise<void>;
}

/** Opens PostgreSQL when a URL is given, else SQLite at `<dataDir>/koma.sqlite`, and runs the migrations. */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<DatabaseHandle> {
  let db: Database;
  let dialect: DatabaseDialect;
  let checkpointer: Checkpointer | undefined;
  if (options.databaseUrl) {
    dialect = 'postgres';
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client whose connection the server ends (a restart, or DROP DATABASE … WITH (FORCE) in tests)
    // emits 'error' on the pool; with no listener Node treats it as uncaught and the process dies. The pool
    // drops that client by itself and the next query opens a new one, so there is nothing else to do.
    pool.on('error', () => {});
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }) });
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(options.dataDir, { recursive: true });
    const file = path.join(options.dataDir, 'koma.sqlite');
    const sqlite = new SQLite(file);
    // WAL lets readers go on during a write; foreign keys are off by default in SQLite.
    sqlite.pragma('journal_mode = WAL');
    // FULL, not NORMAL: with NORMAL a WAL commit is acknowledged before the log reaches the disk, so a power cut
    // can take back a save the editor was told is stored, or a ledger entry a job was charged by. FULL syncs the
    // log at every commit; the pragma cannot be changed inside a transaction, so it holds for every commit.
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    checkpointer = startCheckpointer(sqlite, file);
  }
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    await checkpointer?.stop();
    await db.destroy();
    throw error instanceof Error ? error : new Error(`Migration failed: ${JSON.stringify(error)}`);
  }
  return {
    db,
    dialect,
    async close() {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * Kysely prepares every query afresh, and with better-sqlite3 preparing costs more than running a small
 * query. Our SQL texts are few and fixed (values are bound), so keep the prepared statements. Safe because
 * Kysely runs one statement at a time on its single connection and never leaves one mid-iteration.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        // A runaway number of distinct texts (e.g. IN lists of every length) should not grow without bound.
        if (statements.size >= 500) statements.clear();
        statement = sqlite.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * The PostgreSQL counterpart: Kysely sends every query unnamed, so the server parses and plans it each
 * time, which on the hottest paths (session lookup, revision check) costs more than running it. Naming a
 * fixed data statement makes pg parse it once per connection and afterwards only bind and execute it.
 * Names come from a bounded table of texts, so IN lists of every length cannot grow it without end;
 * texts beyond it run unnamed as before.
 */
function withPreparedStatements(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < 500 && /^(select|insert|update|delete|with)\b/.test(text)) {
      name = `k${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrapped.get(client);
      if (!wrapper) {
        wrapper = {
          query: ((textOrCursor: unknown, values?: unknown[]) => {
            if (typeof textOrCursor !== 'string') return client.query(textOrCursor as pg.Submittable);
            const name = nameOf(textOrCursor);
            return client.query(name ? { name, text: textOrCursor, values } : { text: textOrCursor, values });
          }) as unknown as PostgresPoolClient['query'],
          release: () => client.release(),
        };
        wrapped.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
