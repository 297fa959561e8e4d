import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LAYOUT_PRESETS } from '@koma/domain';
import * as cmd from '../src/index.ts';
import type { Editor, DocState } from '../src/index.ts';
import { makeEditor } from './support.ts';

type Op = { kind: number; a: number; b: number; c: number; x: number; y: number };

const op = fc.record({
  kind: fc.nat(24),
  a: fc.nat(),
  b: fc.nat(),
  c: fc.nat(),
  x: fc.double({ min: -400, max: 400, noNaN: true }).map((v) => Math.round(v)),
  y: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
});

const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);
const box = (x: number, y: number, w: number, h: number) => ({ x, y, size: { width: w, height: h } });

function currentRoot(doc: DocState, n: number): string {
  return pick(doc.pages, n)?.rootId ?? doc.rootId;
}
function ofType(doc: DocState, type: string): string[] {
  return Object.values(doc.layers)
    .filter((l) => l.type === type && l.parent !== null)
    .map((l) => l.id);
}
function nonRoot(doc: DocState): string[] {
  return Object.values(doc.layers)
    .filter((l) => l.parent !== null)
    .map((l) => l.id);
}

/** Runs one random operation; returns the ids of a split pair when it split a panel. */
function apply(editor: Editor, o: Op): [string, string] | null {
  const doc = editor.doc;
  const root = currentRoot(doc, o.a);
  const any = pick(nonRoot(doc), o.b);
  const panel = pick(ofType(doc, 'PANEL'), o.b);
  switch (o.kind) {
    case 0:
      editor.execute(cmd.addImage, {
        parentId: root,
        transform: box(o.x, o.x, 50 + (o.c % 500), 60),
        imageId: `img${o.c}`,
      });
      break;
    case 1:
      editor.execute(cmd.addPanel, { parentId: root, transform: box(o.c % 1000, (o.c * 7) % 1800, 512, 512) });
      break;
    case 2:
      editor.execute(cmd.addText, { parentId: root, transform: box(o.x, 0, 200, 100) });
      break;
    case 3:
      editor.execute(cmd.addPose, { parentId: root, transform: box(0, o.x, 512, 1024), fullBody: o.c % 2 === 0 });
      break;
    case 4:
      if (any) editor.execute(cmd.removeLayers, { ids: [any] });
      break;
    case 5:
      if (any)
        editor.execute(cmd.rearrangeLayer, { id: any, to: o.c % 3 === 0 ? 'front' : o.c % 3 === 1 ? 'back' : o.c % 5 });
      break;
    case 6:
      if (any) editor.execute(cmd.moveLayers, { ids: [any], dx: o.x, dy: -o.x / 2 });
      break;
    case 7:
      if (any)
        editor.execute(cmd.resizeLayer, {
          id: any,
          corner: (['top-left', 'top-right', 'bottom-right', 'bottom-left'] as const)[o.c % 4]!,
          dx: o.x / 4,
          dy: o.x / 8,
          keepAspect: o.c % 2 === 0,
        });
      break;
    case 8:
      if (any) editor.execute(cmd.scaleLayer, { id: any, direction: o.c % 2 === 0 ? 1 : -1 });
      break;
    case 9: {
      const other = pick(nonRoot(doc), o.c);
      if (any && other) editor.execute(cmd.clipLayer, { id: any, targetId: other });
      break;
    }
    case 10:
      if (any) editor.execute(cmd.unclipLayer, { id: any });
      break;
    case 11:
      if (any) editor.execute(cmd.setVisibility, { ids: [any], visible: o.c % 2 === 0 });
      break;
    case 12:
      if (any) editor.execute(cmd.setLocked, { ids: [any], locked: o.c % 4 === 0 });
      break;
    case 13:
      if (any) editor.execute(cmd.duplicateLayer, { id: any });
      break;
    case 14:
    case 15:
      if (panel) {
        const result = editor.execute(cmd.splitPanel, {
          id: panel,
          direction: o.kind === 14 ? 'horizontal' : 'vertical',
          at: o.y,
        });
        if (result.ok) return [panel, result.value];
      }
      break;
    case 16:
      if (panel)
        editor.execute(cmd.movePanelVertices, {
          moves: [{ panelId: panel, index: o.c % 4 }],
          dx: o.x / 4,
          dy: -o.x / 5,
        });
      break;
    case 17: {
      const pose = pick(ofType(doc, 'POSE'), o.b);
      if (pose) editor.execute(cmd.moveJoint, { id: pose, candidate: o.c % 12, x: o.y, y: 1 - o.y });
      break;
    }
    case 18: {
      const sketch = pick(ofType(doc, 'SKETCH'), o.b);
      if (sketch)
        editor.execute(cmd.addSketchStroke, { id: sketch, color: '#666', radius: 30, points: [o.x, o.y, o.y, o.x] });
      else editor.execute(cmd.addSketch, { parentId: root, transform: box(0, 0, 100, 100) });
      break;
    }
    case 19: {
      const image = pick(ofType(doc, 'IMAGE'), o.b);
      if (image) editor.execute(cmd.addVariations, { id: image, imageIds: [`v${o.c}`, `w${o.c}`], keepLast: 4 });
      break;
    }
    case 20: {
      const image = pick(ofType(doc, 'IMAGE'), o.b);
      if (image) editor.execute(cmd.changeVariation, { id: image, index: o.c % 3 });
      break;
    }
    case 21:
      editor.execute(cmd.applyLayoutPreset, { rootId: root, presetId: pick(LAYOUT_PRESETS, o.c)!.id });
      break;
    case 22:
      editor.execute(cmd.setReadingOrder, { order: o.c % 2 === 0 ? 'LEFT_TO_RIGHT' : 'RIGHT_TO_LEFT' });
      break;
    case 23:
      editor.execute(cmd.addPage, { index: o.c % 3 });
      break;
    case 24: {
      const page = pick(doc.pages, o.c);
      if (page) editor.execute(cmd.removePage, { uuid: page.uuid });
      break;
    }
  }
  return null;
}

describe('random command sequences', () => {
  it('keep every invariant, split gaps are 15, and undo×n then redo×n restores each end', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom('INFINITE' as const, 'COMIC' as const),
        fc.array(op, { minLength: 1, maxLength: 40 }),
        (type, ops) => {
          const editor = makeEditor(type);
          const start = editor.doc;
          for (const o of ops) {
            const before = editor.doc;
            const entries = editor.historySize.undo;
            const split = apply(editor, o);
            if (editor.historySize.undo === entries) expect(editor.doc).toBe(before);
            expect(cmd.findInvariantViolations(editor.doc)).toEqual([]);
            if (split) expect(cmd.splitGap(editor.doc, split[0], split[1])).toBeCloseTo(15, 6);
          }
          const end = editor.doc;
          const n = editor.historySize.undo;
          for (let i = 0; i < n; i++) expect(editor.undo()).toBe(true);
          expect(editor.doc).toEqual(start);
          for (let i = 0; i < n; i++) expect(editor.redo()).toBe(true);
          expect(editor.doc).toEqual(end);
          expect(cmd.findInvariantViolations(editor.doc)).toEqual([]);
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 200) },
    );
  });

  it('round-trips the store through the saved form', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), (ops) => {
        const editor = makeEditor('COMIC');
        for (const o of ops) apply(editor, o);
        const saved = cmd.denormalize(editor.doc);
        expect(cmd.normalize(saved, 'COMIC')).toEqual(editor.doc);
      }),
      { numRuns: 100 },
    );
  });
});
