import { OPERATION_KINDS } from '@koma/domain';
import { describe, expect, it } from 'vitest';
import {
  buildJobRegistry,
  handlerOf,
  JOB_HANDLERS,
  JobRegistryError,
  jobKinds,
} from '../../src/jobs/kinds/registry.ts';
import { GENERATION_ENDPOINTS } from '../../src/routes/generation.ts';

describe('the job registry', () => {
  it('has exactly one handler for every operation of the domain', () => {
    expect([...jobKinds()].sort()).toEqual([...OPERATION_KINDS].sort());
    expect(JOB_HANDLERS).toHaveLength(OPERATION_KINDS.length);
    for (const kind of OPERATION_KINDS) expect(handlerOf(kind)?.kind).toBe(kind);
    expect(handlerOf('nonexistent')).toBeUndefined();
  });

  it('gives every operation an endpoint, and every endpoint an operation', () => {
    const served = new Set(Object.values(GENERATION_ENDPOINTS));
    expect([...served].sort()).toEqual([...OPERATION_KINDS].sort());
  });

  it('refuses to start with a missing, duplicated or unknown handler, naming each', () => {
    const ops = ['a', 'b', 'c'];
    expect(() => buildJobRegistry([{ kind: 'a' }, { kind: 'b' }, { kind: 'c' }], ops)).not.toThrow();
    let error: unknown;
    try {
      buildJobRegistry([{ kind: 'a' }, { kind: 'a' }, { kind: 'x' }], ops);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JobRegistryError);
    expect((error as JobRegistryError).problems).toEqual([
      'a has more than one handler',
      'x is not an operation',
      'b has no handler',
      'c has no handler',
    ]);
  });
});
