import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyJsonPatch,
  decodeWorkspaceData,
  diffJson,
  encodeWorkspaceData,
  jsonLengthAfter,
  knowDocument,
  validatePatched,
  type JsonPatchOperation,
  type KnownObjects,
  type WorkspaceData,
} from '@koma/domain';
import * as cmd from '../src/index.ts';
import { run, step, type Step } from './random-commands.ts';
import { makeEditor } from './support.ts';

// Issue 14: a patch save validates only what the patch made (document/incremental.ts), falling back to the full
// decode when it cannot decide. For random commands, and patches broken on purpose, the server's two ways must
// store the same document (byte for byte) or refuse with the same words; and ordinary saves store the editor's
// document.

/** A change a buggy or hostile client could append to an honest patch. */
type Sabotage =
  | 'duplicate-id'
  | 'dangling-clip'
  | 'valid-clip'
  | 'wrong-type'
  | 'too-deep'
  | 'nul-text'
  | 'keys-reordered'
  | 'unknown-key'
  | 'last-page'
  | 'linked-bubbles'
  | 'one-way-bubble'
  | 'missing-id'
  | 'dropped-type'
  | 'duplicate-page'
  | 'root-not-group'
  | 'bad-version'
  | 'leaf-child'
  | 'id-clash'
  | 'id-fresh'
  | 'swap-children'
  | 'page-field';

const SABOTAGE: Sabotage[] = [
  'duplicate-id',
  'dangling-clip',
  'valid-clip',
  'wrong-type',
  'too-deep',
  'nul-text',
  'keys-reordered',
  'unknown-key',
  'last-page',
  'linked-bubbles',
  'one-way-bubble',
  'missing-id',
  'dropped-type',
  'duplicate-page',
  'root-not-group',
  'bad-version',
  'leaf-child',
  'id-clash',
  'id-fresh',
  'swap-children',
  'page-field',
];

type Move = Step | { kind: 'sabotage'; what: Sabotage; at: number };

const move: fc.Arbitrary<Move> = fc.oneof(
  { arbitrary: step, weight: 4 },
  { arbitrary: fc.constant({ kind: 'save' as const }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('sabotage' as const),
      what: fc.constantFrom(...SABOTAGE),
      at: fc.nat(40),
    }),
    weight: 1,
  },
);

type Doc = {
  pages: { uuid: string; rootLayer: { children: Record<string, unknown>[] } }[];
  lastPage: number;
};

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { v: value };
  return value;
}

/** Operations that break (or bend) the document `mine`, to be appended to the honest patch. */
function sabotage(what: Sabotage, at: number, mine: unknown): JsonPatchOperation[] {
  const doc = mine as Doc;
  const pages = doc.pages;
  const p = at % Math.max(1, pages.length);
  const page = pages[p];
  if (!page) return [];
  const children = page.rootLayer.children;
  const i = at % Math.max(1, children.length);
  const layer = children[i];
  const base = `/pages/${p}/rootLayer`;
  const texts = children.map((c, k) => [c, k] as const).filter(([c]) => c.type === 'TEXT');
  switch (what) {
    case 'duplicate-id':
      return layer ? [{ op: 'add', path: `${base}/children/-`, value: structuredClone(layer) }] : [];
    case 'dangling-clip':
      return layer ? [{ op: 'replace', path: `${base}/children/${i}/clippedLayers`, value: ['no-such-layer'] }] : [];
    case 'valid-clip': {
      const other = children[(i + 1) % children.length];
      if (!layer || !other || other === layer) return [];
      return [{ op: 'replace', path: `${base}/children/${i}/clippedLayers`, value: [other.id] }];
    }
    case 'wrong-type':
      return layer ? [{ op: 'replace', path: `${base}/children/${i}/transform/x`, value: 'left' }] : [];
    case 'too-deep':
      return layer ? [{ op: 'replace', path: `${base}/children/${i}/data`, value: nested(70) }] : [];
    case 'nul-text':
      return layer ? [{ op: 'replace', path: `${base}/children/${i}/name`, value: 'a\u0000b\uD800' }] : [];
    case 'keys-reordered': {
      if (!layer) return [];
      const reversed = Object.fromEntries(Object.entries(structuredClone(layer)).reverse());
      return [{ op: 'replace', path: `${base}/children/${i}`, value: reversed }];
    }
    case 'unknown-key':
      return layer ? [{ op: 'add', path: `${base}/children/${i}/extra`, value: 1 }] : [];
    case 'last-page':
      return [{ op: 'replace', path: '/lastPage', value: pages.length + at }];
    case 'linked-bubbles': {
      const [a, b] = texts;
      if (!a || !b) return [];
      return [
        { op: 'replace', path: `${base}/children/${a[1]}/data/linkedBubbleId`, value: b[0].id },
        { op: 'replace', path: `${base}/children/${b[1]}/data/linkedBubbleId`, value: a[0].id },
      ];
    }
    case 'one-way-bubble': {
      const [a, b] = texts;
      if (!a || !b) return [];
      return [{ op: 'replace', path: `${base}/children/${a[1]}/data/linkedBubbleId`, value: b[0].id }];
    }
    case 'missing-id':
      return layer ? [{ op: 'remove', path: `${base}/children/${i}/id` }] : [];
    case 'dropped-type':
      return layer
        ? [
            {
              op: 'add',
              path: `${base}/children/${i}`,
              value: { ...structuredClone(layer), id: 'r-1', type: 'REGIONAL' },
            },
          ]
        : [];
    case 'duplicate-page':
      return [{ op: 'add', path: '/pages/-', value: structuredClone(page) }];
    case 'root-not-group':
      return [{ op: 'replace', path: `${base}/type`, value: 'TEXT' }];
    case 'bad-version':
      return [{ op: 'replace', path: '/version', value: 2 }];
    case 'leaf-child': {
      const [text] = texts;
      const other = children.find((c) => c !== text?.[0]);
      if (!text || !other) return [];
      return [
        {
          op: 'add',
          path: `${base}/children/${text[1]}/children/-`,
          value: { ...structuredClone(other), id: 'leaf-kid' },
        },
      ];
    }
    case 'id-clash': {
      const elsewhere = pages[(p + 1) % pages.length]!.rootLayer.children[0];
      if (!layer || !elsewhere) return [];
      return [{ op: 'replace', path: `${base}/children/${i}/id`, value: elsewhere.id }];
    }
    case 'id-fresh':
      return layer ? [{ op: 'replace', path: `${base}/children/${i}/id`, value: `fresh-${at}` }] : [];
    case 'swap-children': {
      const other = children[(i + 1) % children.length];
      if (!layer || !other || other === layer) return [];
      return [
        { op: 'replace', path: `${base}/children/${i}`, value: structuredClone(other) },
        { op: 'replace', path: `${base}/children/${(i + 1) % children.length}`, value: structuredClone(layer) },
      ];
    }
    case 'page-field':
      return [{ op: 'replace', path: `/pages/${p}/viewTransform/zoom`, value: at % 2 === 0 ? 'big' : 2 }];
  }
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
}

/** The server as before: parse the stored head, apply, decode the whole result. */
function fullSave(
  storedText: string,
  patch: JsonPatchOperation[],
): { ok: true; text: string } | { ok: false; error: string } {
  const applied = applyJsonPatch(JSON.parse(storedText), patch);
  if (!applied.ok) return { ok: false, error: applied.error };
  const decoded = decodeWorkspaceData(applied.value);
  if (!decoded.ok) return { ok: false, error: decoded.error.message };
  return { ok: true, text: JSON.stringify(decoded.value) };
}

interface Tally {
  quick: number;
  fallback: number;
  refused: number;
}

/** The server now: apply to the held decoded head, check what changed; decode the whole only when undecided. */
function incrementalSave(
  head: { doc: WorkspaceData; known: KnownObjects; length: number },
  patch: JsonPatchOperation[],
  tally: Tally,
): { ok: true; text: string; doc: WorkspaceData; known: KnownObjects } | { ok: false; error: string } {
  const applied = applyJsonPatch(head.doc, patch);
  if (!applied.ok) return { ok: false, error: applied.error };
  const quick = validatePatched(head.known, head.doc, applied.value, patch);
  if (quick.ok) {
    tally.quick++;
    const text = JSON.stringify(quick.value);
    // The length the server stores the version by, measured from the head's without writing the text out.
    expect(jsonLengthAfter(head.known, head.doc, head.length, quick.value)).toBe(text.length);
    return { ok: true, text, doc: quick.value, known: head.known };
  }
  tally.fallback++;
  const decoded = decodeWorkspaceData(applied.value);
  if (!decoded.ok) return { ok: false, error: decoded.error.message };
  return { ok: true, text: JSON.stringify(decoded.value), doc: decoded.value, known: knowDocument(decoded.value) };
}

function saved(editor: cmd.Editor): unknown {
  return JSON.parse(JSON.stringify(encodeWorkspaceData(cmd.denormalize(editor.doc))));
}

describe('incremental validation of patch saves', () => {
  it('accepts, repairs and refuses exactly as the full decode, and stores the editor document', () => {
    const tally: Tally = { quick: 0, fallback: 0, refused: 0 };
    const sabotaged = new Set<Sabotage>();
    fc.assert(
      fc.property(fc.array(move, { minLength: 1, maxLength: 40 }), (moves) => {
        const editor = makeEditor('COMIC');
        const first = decodeWorkspaceData(saved(editor));
        if (!first.ok) throw new Error(first.error.message);
        let storedText = JSON.stringify(first.value);
        let head = { doc: first.value, known: knowDocument(first.value), length: storedText.length };
        deepFreeze(head.doc);
        let pending: JsonPatchOperation[] = [];
        for (const m of [...moves, { kind: 'save' as const }]) {
          if (m.kind === 'sabotage') {
            // A save whose patch carries a broken (or bent) change on top of the honest one. The page it aims at
            // gets two text layers first, so every kind has something to break.
            const doc = editor.doc;
            const page = m.at % Math.max(1, doc.pages.length);
            const root = cmd.activeRootOf(doc, page);
            const texts = doc.layers[root]!.children.filter((id) => doc.layers[id]!.type === 'TEXT').length;
            for (let k = texts; k < 2; k++) {
              editor.execute(cmd.addText, {
                parentId: root,
                transform: { x: k * 50, y: 10, size: { width: 200, height: 100 } },
              });
            }
            pending = sabotage(m.what, m.at, saved(editor));
            if (pending.length > 0) sabotaged.add(m.what);
          } else {
            run(editor, m);
            if (m.kind !== 'save') continue;
          }
          const mine = saved(editor);
          const honest = diffJson(JSON.parse(storedText), mine);
          const patch = [...honest, ...pending];
          const wasSabotaged = pending.length > 0;
          pending = [];
          // Each path gets its own copy of the request, as each request is parsed afresh.
          const full = fullSave(storedText, structuredClone(patch));
          const mineNow = incrementalSave(head, structuredClone(patch), tally);
          expect(mineNow.ok).toBe(full.ok);
          if (!full.ok || !mineNow.ok) {
            expect(mineNow.ok ? '' : mineNow.error).toBe(full.ok ? '' : full.error);
            tally.refused++;
            continue;
          }
          expect(mineNow.text).toBe(full.text);
          if (!wasSabotaged) expect(JSON.parse(mineNow.text)).toEqual(mine);
          storedText = mineNow.text;
          head = { doc: mineNow.doc, known: mineNow.known, length: storedText.length };
          // Nothing may ever change a held head: the next save shares its objects.
          deepFreeze(head.doc);
        }
      }),
      {
        // Every kind of sabotage once for sure, on top of the random runs (fast-check counts examples as runs):
        // constantFrom favours the first constants, so a kind late in the list could go undrawn in 150 random runs
        // (it did in CI), and the check below would fail by luck.
        numRuns: Number(process.env.PROPERTY_RUNS ?? 150) + SABOTAGE.length,
        examples: SABOTAGE.map((what): [Move[]] => [[{ kind: 'sabotage', what, at: 1 }]]),
      },
    );
    // The property is only worth something if both ways were taken, and refusals happened.
    expect(tally.quick).toBeGreaterThan(50);
    expect(tally.fallback).toBeGreaterThan(5);
    expect(tally.refused).toBeGreaterThan(5);
    expect([...sabotaged].sort()).toEqual([...SABOTAGE].sort());
  });
});
