import { CompiledQuery, type Compilable, type DialectAdapter, type QueryResult } from 'kysely';
import type { Database } from '../db/database.ts';

/**
 * A query built and compiled once per database, then run with new parameter values. Kysely's builder and
 * compiler cost about three times the SQLite query itself on the hottest paths (session lookup, workspace
 * revision check, the statements of a save), which every request pays.
 *
 * The compiled text is kept per dialect adapter, which a database handle shares with every transaction opened on
 * it: a save's statements run on a new transaction object each time and are compiled once all the same.
 *
 * `build` must use each parameter exactly once, in order, as a bound value; the first compile checks
 * that, so a mistake fails loudly instead of binding values to the wrong places.
 */
function compiledRunner<P extends unknown[], R>(
  build: (db: Database, ...params: P) => Compilable<R>,
): (db: Database, ...params: P) => Promise<QueryResult<R>> {
  const compiledBy = new WeakMap<DialectAdapter, string>();
  return async (db, ...params) => {
    const adapter = db.getExecutor().adapter;
    let text = compiledBy.get(adapter);
    if (text === undefined) {
      const compiled = build(db, ...params).compile();
      const same =
        compiled.parameters.length === params.length && compiled.parameters.every((value, i) => value === params[i]);
      if (!same) throw new Error(`precompiled query binds its parameters differently: ${compiled.sql}`);
      text = compiled.sql;
      compiledBy.set(adapter, text);
    }
    return db.executeQuery<R>(CompiledQuery.raw(text, params));
  };
}

/** A precompiled query answering its rows. */
export function precompiled<P extends unknown[], R>(
  build: (db: Database, ...params: P) => Compilable<R>,
): (db: Database, ...params: P) => Promise<R[]> {
  const run = compiledRunner(build);
  return async (db, ...params) => (await run(db, ...params)).rows;
}

/** A precompiled insert, update or delete answering how many rows it changed. */
export function precompiledWrite<P extends unknown[]>(
  build: (db: Database, ...params: P) => Compilable<unknown>,
): (db: Database, ...params: P) => Promise<number> {
  const run = compiledRunner(build);
  return async (db, ...params) => Number((await run(db, ...params)).numAffectedRows ?? 0n);
}
