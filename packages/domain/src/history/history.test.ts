import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffJson } from '../json/patch.ts';
import { rebuildVersion, storedForm, type StoredVersion } from './chain.ts';
import { planPrune } from './prune.ts';
import { DEFAULT_RETENTION, retainedRevisions } from './retention.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe('retainedRevisions', () => {
  const now = Date.UTC(2026, 10, 27, 12, 0, 0);

  it('keeps every version of the last hour, the last of each hour for 7 days, the last of each day for 90', () => {
    const versions = [
      // Two in the same hour three hours ago: only the later stays.
      { revision: 1, savedAt: now - 100 * DAY },
      { revision: 2, savedAt: now - 20 * DAY - 2 * HOUR },
      { revision: 3, savedAt: now - 20 * DAY - HOUR },
      { revision: 4, savedAt: now - 3 * HOUR - 50 * 60_000 },
      { revision: 5, savedAt: now - 3 * HOUR - 10 * 60_000 },
      { revision: 6, savedAt: now - 50 * 60_000 },
      { revision: 7, savedAt: now - 10 * 60_000 },
      { revision: 8, savedAt: now - 60_000 },
    ];
    expect([...retainedRevisions(versions, now)].sort((a, b) => a - b)).toEqual([3, 5, 6, 7, 8]);
  });

  it('always keeps the head, however old', () => {
    expect([...retainedRevisions([{ revision: 9, savedAt: now - 400 * DAY }], now)]).toEqual([9]);
  });

  it('follows a configured policy', () => {
    const versions = [
      { revision: 1, savedAt: now - 10 * 60_000 },
      { revision: 2, savedAt: now - 5 * 60_000 },
      { revision: 3, savedAt: now },
    ];
    const policy = { ...DEFAULT_RETENTION, keepAllMs: 60_000, hourlyMs: 60_000, dailyMs: DAY };
    // 1 and 2 fall in the same day bucket: only 2 stays.
    expect([...retainedRevisions(versions, now, policy)].sort()).toEqual([2, 3]);
  });
});

/** A small JSON document in the shape of a workspace: pages with layers that carry ids. */
const docArb = fc.record({
  name: fc.string({ maxLength: 8 }),
  pages: fc.array(
    fc.record({
      uuid: fc.constantFrom('a', 'b', 'c', 'd'),
      layers: fc.array(fc.record({ id: fc.constantFrom('x', 'y', 'z'), v: fc.integer({ min: 0, max: 9 }) }), {
        maxLength: 3,
      }),
    }),
    { maxLength: 4 },
  ),
});

/** Stores docs as the server does: keyframe rules of storedForm, patches against the previous one. */
function store(docs: unknown[], every: number): StoredVersion[] {
  const out: StoredVersion[] = [];
  let since = { patches: 0, patchBytes: 0 };
  docs.forEach((doc, i) => {
    const json = JSON.stringify(doc);
    const patch = i === 0 ? null : JSON.stringify(diffJson(docs[i - 1], doc));
    const form = storedForm(since, json, patch, { every });
    out.push({ revision: i + 1, ...form });
    since =
      form.kind === 'full'
        ? { patches: 0, patchBytes: 0 }
        : { patches: since.patches + 1, patchBytes: since.patchBytes + form.data.length };
  });
  return out;
}

function chainTo(stored: readonly StoredVersion[], revision: number): StoredVersion[] {
  const upTo = stored.filter((v) => v.revision <= revision);
  const start = upTo.map((v) => v.kind).lastIndexOf('full');
  return upTo.slice(Math.max(0, start));
}

describe('versions stored as what changed', () => {
  it('rebuilds every version exactly, with at most `every - 1` patches after a keyframe', () => {
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 1, maxLength: 30 }), fc.integer({ min: 2, max: 6 }), (docs, every) => {
        const stored = store(docs, every);
        docs.forEach((doc, i) => {
          const chain = chainTo(stored, i + 1);
          expect(chain.length).toBeLessThanOrEqual(every);
          expect(rebuildVersion(chain)).toEqual({ ok: true, value: doc });
        });
      }),
    );
  });

  it('pruning keeps every kept version rebuildable (dropped patches merged into the next kept one)', () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 1, maxLength: 30 }),
        fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
        (docs, keepFlags) => {
          const stored = store(docs, 8);
          const keep = new Set(docs.map((_, i) => i + 1).filter((r) => keepFlags[r - 1] || r === docs.length));
          const plan = planPrune(stored, keep);
          if (!plan.ok) throw new Error(plan.error);
          const rewritten = new Map(plan.rewrite.map((v) => [v.revision, v]));
          const after = stored
            .filter((v) => !plan.drop.includes(v.revision))
            .map((v) => rewritten.get(v.revision) ?? v);
          expect(after.map((v) => v.revision)).toEqual([...keep].sort((a, b) => a - b));
          for (const revision of keep) {
            expect(rebuildVersion(chainTo(after, revision))).toEqual({ ok: true, value: docs[revision - 1] });
          }
        },
      ),
    );
  });

  it('reports a chain it cannot rebuild instead of throwing', () => {
    expect(rebuildVersion([{ revision: 2, kind: 'patch', data: '[]' }])).toMatchObject({ ok: false });
    expect(rebuildVersion([{ revision: 1, kind: 'full', data: '{' }])).toMatchObject({ ok: false });
    const bad = [
      { revision: 1, kind: 'full' as const, data: '{}' },
      { revision: 2, kind: 'patch' as const, data: '[{"op":"remove","path":"/nope"}]' },
    ];
    expect(rebuildVersion(bad)).toMatchObject({ ok: false, error: expect.stringContaining('version 2') });
    expect(planPrune(bad, new Set([2]))).toMatchObject({ ok: false });
  });
});
