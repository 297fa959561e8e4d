import { CompiledQuery, type Compilable } from 'kysely';
import type { Database } from '../db/database.ts';

/**
 * A query built and compiled once per database handle, then run with new parameter values. Kysely's
 * builder and compiler cost about three times the SQLite query itself on the hottest paths (session
 * lookup, workspace revision check), which every request pays.
 *
 * `build` must use each parameter exactly once, in order, as a bound value; the first compile checks
 * that, so a mistake fails loudly instead of binding values to the wrong places.
 */
export function precompiled<P extends unknown[], R>(
  build: (db: Database, ...params: P) => Compilable<R>,
): (db: Database, ...params: P) => Promise<R[]> {
  const compiledBy = new WeakMap<Database, string>();
  return async (db, ...params) => {
    let text = compiledBy.get(db);
    if (text === undefined) {
      const compiled = build(db, ...params).compile();
      const same =
        compiled.parameters.length === params.length && compiled.parameters.every((value, i) => value === params[i]);
      if (!same) throw new Error(`precompiled query binds its parameters differently: ${compiled.sql}`);
      text = compiled.sql;
      compiledBy.set(db, text);
    }
    const result = await db.executeQuery<R>(CompiledQuery.raw(text, params));
    return result.rows;
  };
}
