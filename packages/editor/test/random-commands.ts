// Random editor commands for the property tests of saves: page add/remove/move, text, layer moves, renames and
// removals, with undo, redo and save steps between them.
import fc from 'fast-check';
import * as cmd from '../src/index.ts';

export type Step =
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

export const step: fc.Arbitrary<Step> = fc.oneof(
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

export function layerIds(doc: cmd.DocState): string[] {
  return Object.keys(doc.layers).filter((id) => doc.layers[id]!.parent !== null);
}

export function run(editor: cmd.Editor, s: Step): void {
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
