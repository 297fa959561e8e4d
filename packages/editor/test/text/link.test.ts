// Linked bubbles: the commands that join and part them, and the pair painted by the editor's own painter on a real
// Canvas2D (Skia, through @napi-rs/canvas), judged on its pixels: one outline round the union, no stroke inside it.
import { createCanvas } from '@napi-rs/canvas';
import type { Point } from '@koma/domain';
import { describe, expect, it } from 'vitest';
import {
  addText,
  linkBubbles,
  removeLayers,
  rotateLayers,
  unlinkBubbles,
  updateText,
} from '../../src/commands/index.ts';
import type { LayerNode } from '../../src/store/state.ts';
import { bubbleLink, bubbleShape, paintBubble, pointInOutline } from '../../src/text/index.ts';
import { makeEditor, ok } from '../support.ts';

const box = (x: number, y: number, width: number, height: number) => ({ x, y, size: { width, height } });
const bubble = { backgroundType: 'SPEECH_BUBBLE' as const, hasTail: false, backgroundBorderSize: 6 };

function pair(secondX: number) {
  const editor = makeEditor('INFINITE');
  const root = editor.doc.rootId;
  const a = ok(editor.execute(addText, { parentId: root, transform: box(100, 100, 240, 160), data: bubble }));
  const b = ok(editor.execute(addText, { parentId: root, transform: box(secondX, 180, 220, 150), data: bubble }));
  return { editor, a, b };
}
const text = (editor: ReturnType<typeof makeEditor>, id: string) => editor.doc.layers[id] as LayerNode<'TEXT'>;

/** Both bubbles painted into one page-sized canvas, each in its own place, as the canvas and the export draw them. */
function paintPair(editor: ReturnType<typeof makeEditor>, ids: string[], linked: boolean) {
  const canvas = createCanvas(900, 500);
  const ctx = canvas.getContext('2d');
  for (const id of ids) {
    const node = text(editor, id);
    const { x, y, size } = node.transform;
    ctx.save();
    ctx.translate(x, y);
    const shape = bubbleShape(node.data, { x: 0, y: 0, width: size.width, height: size.height });
    paintBubble(ctx, node.data, shape, linked ? bubbleLink(editor.doc, node) : null);
    ctx.restore();
  }
  const data = ctx.getImageData(0, 0, 900, 500).data;
  return (p: Point) => {
    const i = (Math.round(p.y) * 900 + Math.round(p.x)) * 4;
    return { ink: data[i + 3]! > 128 && data[i]! < 80, paper: data[i + 3]! > 200 && data[i]! > 220 };
  };
}

/** Pixels on the segment from a to b. */
const along = (a: Point, b: Point) =>
  Array.from({ length: 200 }, (_, k) => ({ x: a.x + ((b.x - a.x) * k) / 199, y: a.y + ((b.y - a.y) * k) / 199 }));
const centre = (editor: ReturnType<typeof makeEditor>, id: string): Point => {
  const t = text(editor, id).transform;
  return { x: t.x + t.size.width / 2, y: t.y + t.size.height / 2 };
};

describe('linked bubbles', () => {
  it('link both ways, part both ways, and a removed bubble leaves its partner unlinked (undo relinks)', () => {
    const { editor, a, b } = pair(300);
    ok(editor.execute(linkBubbles, { ids: [a, b] }));
    expect([text(editor, a).data.linkedBubbleId, text(editor, b).data.linkedBubbleId]).toEqual([b, a]);
    // Moving one keeps the link.
    editor.execute(updateText, { id: a, patch: { text: 'moved on' } });
    expect(text(editor, b).data.linkedBubbleId).toBe(a);
    ok(editor.execute(unlinkBubbles, { id: b }));
    expect([text(editor, a).data.linkedBubbleId, text(editor, b).data.linkedBubbleId]).toEqual([null, null]);
    expect(editor.execute(unlinkBubbles, { id: b }).ok).toBe(false);
    ok(editor.execute(linkBubbles, { ids: [a, b] }));
    ok(editor.execute(removeLayers, { ids: [a] }));
    expect(text(editor, b).data.linkedBubbleId).toBeNull();
    editor.undo();
    expect(text(editor, b).data.linkedBubbleId).toBe(a);
  });

  it('refuses to link a bubble to itself, to plain text, or a third bubble without parting the first pair', () => {
    const { editor, a, b } = pair(300);
    expect(editor.execute(linkBubbles, { ids: [a, a] }).ok).toBe(false);
    const plain = ok(editor.execute(addText, { parentId: editor.doc.rootId, transform: box(0, 0, 50, 50) }));
    expect(editor.execute(linkBubbles, { ids: [a, plain] })).toMatchObject({ ok: false });
    expect(text(editor, a).data.linkedBubbleId).toBeNull();
    const c = ok(
      editor.execute(addText, { parentId: editor.doc.rootId, transform: box(600, 0, 90, 90), data: bubble }),
    );
    ok(editor.execute(linkBubbles, { ids: [a, b] }));
    ok(editor.execute(linkBubbles, { ids: [b, c] }));
    expect(text(editor, a).data.linkedBubbleId).toBeNull();
    expect([text(editor, b).data.linkedBubbleId, text(editor, c).data.linkedBubbleId]).toEqual([c, b]);
  });

  it('overlapping: no stroke inside the union, the outer outline kept', () => {
    const { editor, a, b } = pair(280);
    ok(editor.execute(linkBubbles, { ids: [a, b] }));
    const link = bubbleLink(editor.doc, text(editor, a))!;
    expect(link.neck).toBeNull();
    const from = centre(editor, a);
    const to = centre(editor, b);
    const unlinked = paintPair(editor, [a, b], false);
    // Without the link the two outlines cross the line between the centres: the test can fail.
    expect(along(from, to).some((p) => unlinked(p).ink)).toBe(true);
    const linked = paintPair(editor, [a, b], true);
    expect(along(from, to).filter((p) => linked(p).ink)).toEqual([]);
    // The outer outline is still there: leftwards from A's centre and rightwards from B's the line meets ink.
    expect(along(from, { x: 20, y: from.y }).some((p) => linked(p).ink)).toBe(true);
    expect(along(to, { x: 880, y: to.y }).some((p) => linked(p).ink)).toBe(true);
  });

  it('apart: a neck joins them, open to both, with ink along its sides', () => {
    const { editor, a, b } = pair(520);
    ok(editor.execute(linkBubbles, { ids: [a, b] }));
    const link = bubbleLink(editor.doc, text(editor, a))!;
    expect(link.neck).not.toBeNull();
    // Exactly one of the pair paints the neck.
    expect(link.drawsNeck).not.toBe(bubbleLink(editor.doc, text(editor, b))!.drawsNeck);
    const linked = paintPair(editor, [a, b], true);
    const from = centre(editor, a);
    const to = centre(editor, b);
    expect(along(from, to).filter((p) => linked(p).ink)).toEqual([]);
    // Half-way between the bubbles the neck is closed above and below by ink, paper between.
    const mid = { x: (340 + 520) / 2, y: (from.y + to.y) / 2 };
    const column = Array.from({ length: 120 }, (_, k) => ({ x: mid.x, y: mid.y - 60 + k }));
    const inks = column.filter((p) => linked(p).ink);
    expect(inks.some((p) => p.y < mid.y)).toBe(true);
    expect(inks.some((p) => p.y > mid.y)).toBe(true);
    expect(linked(mid).paper).toBe(true);
    // Without a link nothing is drawn between them.
    expect(paintPair(editor, [a, b], false)(mid).paper).toBe(false);
  });

  it('maps the partner into a turned bubble’s own units', () => {
    const { editor, a, b } = pair(280);
    ok(editor.execute(linkBubbles, { ids: [a, b] }));
    const plain = bubbleLink(editor.doc, text(editor, a))!.partner;
    ok(editor.execute(rotateLayers, { ids: [b], to: 90 }));
    const turned = bubbleLink(editor.doc, text(editor, a))!.partner;
    // B's centre stays where it was; its far right edge moves in as it turns (220 wide becomes 150 across).
    const bCentre = { x: 280 + 110 - 100, y: 180 + 75 - 100 };
    expect(pointInOutline(bCentre, turned)).toBe(true);
    const maxX = (poly: Point[]) => Math.max(...poly.map((p) => p.x));
    expect(maxX(turned)).toBeLessThan(maxX(plain) - 20);
  });
});
