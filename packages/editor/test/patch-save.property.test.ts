import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyJsonPatch, decodeWorkspaceData, diffJson, encodeWorkspaceData } from '@koma/domain';
import * as cmd from '../src/index.ts';
import { makeEditor } from './support.ts';

// Issue 14 item 2: a save sends the JSON Patch from the last acknowledged document to the current one. Whatever
// the commands, the server's steps (apply to the base revision, then decode with the full-save codec) rebuild
// exactly the document the editor holds.

type Step =
  | { kind: 'add-page'; at: number }
  | { kind: 'remove-page'; at: number }
  | { kind: 'move-page'; at: number; to: number }
  | { kind: 'text'; page: number }
  | { kind: 'move-layer'; at: number; dx: number }
  | { kind: 'rename'; at: number; name: string }
  | { kind: 'remove-layer'; at: number }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | { kind: 'save' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('add-page' as const), at: fc.nat(6) }),
  fc.record({ kind: fc.constant('remove-page' as const), at: fc.nat(6) }),
  fc.record({ kind: fc.constant('move-page' as const), at: fc.nat(6), to: fc.nat(6) }),
  fc.record({ kind: fc.constant('text' as const), page: fc.nat(6) }),
  fc.record({ kind: fc.constant('move-layer' as const), at: fc.nat(30), dx: fc.integer({ min: -50, max: 50 }) }),
  fc.record({ kind: fc.constant('rename' as const), at: fc.nat(30), name: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('remove-layer' as const), at: fc.nat(30) }),
  fc.constant({ kind: 'undo' as const }),
  fc.constant({ kind: 'redo' as const }),
  fc.constant({ kind: 'save' as const }),
);

function layerIds(doc: cmd.DocState): string[] {
  return Object.keys(doc.layers).filter((id) => doc.layers[id]!.parent !== null);
}

function run(editor: cmd.Editor, s: Step): void {
  const doc = editor.doc;
  const pages = Math.max(1, doc.pages.length);
  const ids = layerIds(doc);
  const layer = 'at' in s ? ids[s.at % Math.max(1, ids.length)] : undefined;
  switch (s.kind) {
    case 'add-page':
      editor.execute(cmd.addPage, { index: s.at % (pages + 1) });
      break;
    case 'remove-page': {
      const page = doc.pages[s.at % pages];
      if (page) editor.execute(cmd.removePage, { uuid: page.uuid });
      break;
    }
    case 'move-page': {
      const page = doc.pages[s.at % pages];
      if (page) editor.execute(cmd.movePage, { uuid: page.uuid, to: s.to % pages });
      break;
    }
    case 'text':
      editor.execute(cmd.addText, {
        parentId: cmd.activeRootOf(doc, s.page % pages),
        transform: { x: 10, y: 10, size: { width: 200, height: 100 } },
      });
      break;
    case 'move-layer':
      if (layer) editor.execute(cmd.moveLayers, { ids: [layer], dx: s.dx, dy: 1 });
      break;
    case 'rename':
      if (layer) editor.execute(cmd.renameLayer, { id: layer, name: s.name });
      break;
    case 'remove-layer':
      if (layer) editor.execute(cmd.removeLayers, { ids: [layer] });
      break;
    case 'undo':
      editor.undo();
      break;
    case 'redo':
      editor.redo();
      break;
    case 'save':
      break;
  }
}

/** The bytes a save sends, parsed back: what the server stores and what a patch is made against. */
function saved(editor: cmd.Editor): unknown {
  return JSON.parse(JSON.stringify(encodeWorkspaceData(cmd.denormalize(editor.doc))));
}

describe('patch saves after random commands with undo and redo', () => {
  it('the server rebuilds exactly the editor document from the base revision and the patch', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 50 }), (steps) => {
        const editor = makeEditor('COMIC');
        let server = saved(editor);
        for (const s of [...steps, { kind: 'save' as const }]) {
          run(editor, s);
          if (s.kind !== 'save') continue;
          const mine = saved(editor);
          const patch = diffJson(server, mine);
          // What the server does: apply to its head, then decode with the very codec of a full save.
          const applied = applyJsonPatch(JSON.parse(JSON.stringify(server)), JSON.parse(JSON.stringify(patch)));
          if (!applied.ok) throw new Error(applied.error);
          const decoded = decodeWorkspaceData(applied.value);
          if (!decoded.ok) throw new Error(decoded.error.message);
          expect(decoded.repairs).toEqual([]);
          const stored = JSON.parse(JSON.stringify(encodeWorkspaceData(decoded.value))) as unknown;
          expect(stored).toEqual(mine);
          server = stored;
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 200) },
    );
  });

  it('a one-layer change on a large document is a patch of a few hundred bytes', () => {
    const editor = makeEditor('COMIC');
    for (let p = 0; p < 9; p++) editor.execute(cmd.addPage, {});
    for (let i = 0; i < 50; i++) {
      editor.execute(cmd.addText, {
        parentId: cmd.activeRootOf(editor.doc, i % 10),
        transform: { x: i, y: i, size: { width: 100, height: 50 } },
      });
    }
    const base = saved(editor);
    const id = layerIds(editor.doc).at(-1)!;
    editor.execute(cmd.moveLayers, { ids: [id], dx: 5, dy: 5 });
    const patch = diffJson(base, saved(editor));
    expect(JSON.stringify(patch).length).toBeLessThan(400);
    expect(JSON.stringify(base).length).toBeGreaterThan(20_000);
  });
});
