import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyJsonPatch, decodeWorkspaceData, diffJson, encodeWorkspaceData } from '@koma/domain';
import * as cmd from '../src/index.ts';
import { layerIds, run, step } from './random-commands.ts';
import { makeEditor } from './support.ts';

// Issue 14 item 2: a save sends the JSON Patch from the last acknowledged document to the current one. Whatever
// the commands, the server's steps (apply to the base revision, then decode with the full-save codec) rebuild
// exactly the document the editor holds.

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
