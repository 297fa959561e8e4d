// Snapping arithmetic and the drags that use it (issue 17): edges land exactly on lines, Alt moves freely.
import { describe, expect, it } from 'vitest';
import { pageSetupBoxes, presetPageSetup } from '@koma/domain';
import {
  addImage,
  pageSnapTargets,
  setPageSetup,
  snapAxis,
  snapBox,
  snapCorner,
  snapPoint,
  splitPanel,
  type LayerNode,
} from '../src/index.ts';
import { docSnapTargets } from '../src/interaction/snap-targets.ts';
import { TestDriver } from './driver.ts';
import { ok, panelIds } from './support.ts';

describe('snap arithmetic', () => {
  it('takes the smallest shift within the threshold and reports every line it lands on', () => {
    expect(snapAxis([100], [90, 104, 120], 8)).toEqual({ shift: 4, lines: [104] });
    expect(snapAxis([100, 200], [195, 97], 8)).toEqual({ shift: -3, lines: [97] });
    expect(snapAxis([100], [120], 8)).toBeNull();
    // Two edges landing on two lines at once show both guides.
    expect(snapAxis([100, 300], [102, 302], 8)).toEqual({ shift: 2, lines: [102, 302] });
  });

  it('page lines: edges, margin, centre, other panels and one gutter outside them', () => {
    const t = pageSnapTargets({
      page: { width: 1700, height: 2400 },
      gutter: { horizontal: 20, vertical: 30 },
      panels: [{ x: 110, y: 110, width: 700, height: 500 }],
    });
    expect(t.xs).toEqual([0, 90, 110, 810, 830, 850, 1590, 1700]);
    expect(t.ys).toEqual([0, 80, 110, 610, 640, 1200, 2290, 2400]);
  });

  it('with bleed: the canvas edge is the bleed line, the trim line lies the bleed inside it', () => {
    const t = pageSnapTargets({ page: { width: 2591, height: 3624 }, margin: 111, bleed: 41, panels: [] });
    expect(t.xs).toEqual([0, 41, 111, 1295.5, 2480, 2550, 2591]);
    expect(t.ys).toEqual([0, 41, 111, 1812, 3513, 3583, 3624]);
    // No bleed, no trim line of its own: the spec's page is unchanged.
    expect(pageSnapTargets({ page: { width: 1700, height: 2400 }, bleed: 0, panels: [] }).xs).toEqual([
      0, 110, 850, 1590, 1700,
    ]);
  });

  it('snaps a box by its left, centre or right and a point on both axes', () => {
    const targets = { xs: [500], ys: [1000] };
    expect(snapBox({ x: 0, y: 0, width: 100, height: 100 }, 396, 905, targets, 8)).toEqual({
      dx: 400,
      dy: 900,
      guides: { xs: [500], ys: [1000] },
    });
    expect(snapBox({ x: 0, y: 0, width: 100, height: 100 }, 446, 0, targets, 8).dx).toBe(450);
    expect(snapPoint({ x: 507, y: 990 }, targets, 8)).toEqual({
      point: { x: 500, y: 990 },
      guides: { xs: [500], ys: [] },
    });
  });

  it('snaps the dragged corner of a resize; with the aspect kept the snapped axis sets the scale', () => {
    const box = { x: 100, y: 100, width: 200, height: 100 };
    const targets = { xs: [500], ys: [260] };
    // Free: the bottom-right corner (300, 200) dragged by (196, 57) lands on x 500 and y 260.
    expect(snapCorner(box, 'bottom-right', 196, 57, false, targets, 8)).toEqual({
      dx: 200,
      dy: 60,
      guides: { xs: [500], ys: [260] },
    });
    // Kept aspect: y is the nearer snap (3 against 4), so it sets the scale, 1.6, and x follows.
    const kept = snapCorner(box, 'bottom-right', 196, 57, true, targets, 8);
    expect(kept.dx).toBeCloseTo(120, 6);
    expect(kept.dx).toBeLessThan(120);
    expect(kept).toMatchObject({ dy: 60, guides: { xs: [], ys: [260] } });
    // The top-left corner moves its edges the other way: left edge 100 dragged to 93 snaps to a line at 90.
    const topLeft = snapCorner(box, 'top-left', -7, 0, true, { xs: [90], ys: [] }, 8);
    expect(topLeft).toMatchObject({ dx: -10, guides: { xs: [90], ys: [] } });
    expect(topLeft.dy).toBeCloseTo(-5, 6);
    // Nothing near: the pointer's delta is kept.
    expect(snapCorner(box, 'top-right', 30, 30, true, { xs: [0], ys: [0] }, 8)).toEqual({
      dx: 30,
      dy: 30,
      guides: { xs: [], ys: [] },
    });
  });
});

/** A comic page with a 200×200 picture at (400, 400), over its one panel. */
function pageWithImage() {
  const d = new TestDriver();
  const transform = { x: 400, y: 400, size: { width: 200, height: 200 } };
  return { d, id: ok(d.editor.execute(addImage, { parentId: d.root, transform, imageId: 'img' })) };
}

describe('snapping drags', () => {
  it('a dragged panel vertex lands exactly on the page centre line and shows the guide; Alt moves it freely', () => {
    const d = new TestDriver();
    const [left] = panelIds(d.editor.doc, d.root);
    const right = ok(d.editor.execute(splitPanel, { id: left!, direction: 'vertical', at: 0.5 }));
    const split = ok(d.editor.execute(splitPanel, { id: right, direction: 'horizontal', at: 0.5 }));
    const vertices = (id: string) => (d.editor.doc.layers[id] as LayerNode<'PANEL'>).data.vertices;
    // The lower right panel's bottom-left vertex, dragged near (not onto) the page centre line x = 850.
    const v = vertices(split)[3]!;
    d.tool('PANEL')
      .down(v.x, v.y)
      .move(v.x + 10, v.y)
      .move(853, v.y);
    expect(d.ui.state.snapGuides?.xs).toEqual([850]);
    d.up(853, v.y);
    expect(vertices(split)[3]!.x).toBe(850);
    expect(d.ui.state.snapGuides).toBeNull();
    // With Alt the vertex goes where the pointer is.
    const w = vertices(split)[3]!;
    d.down(w.x, w.y).move(w.x + 3, w.y, { alt: true });
    d.up(w.x + 3, w.y);
    expect(vertices(split)[3]!.x).toBe(853);
  });

  it('on a B5 page with bleed, a panel edge dragged near the canvas edge lands on the bleed line, near the trim on it', () => {
    const d = new TestDriver();
    const b5 = presetPageSetup('MANGA_B5');
    ok(d.editor.execute(setPageSetup, { setup: b5 }));
    const { bleedPx, safe, media } = pageSetupBoxes(b5);
    expect(bleedPx).toBeGreaterThan(20);
    const targets = docSnapTargets(d.editor.doc, d.root, new Set())!;
    expect(targets.xs).toEqual(expect.arrayContaining([0, bleedPx, safe.x, media.width - bleedPx, media.width]));
    const [id] = panelIds(d.editor.doc, d.root);
    const vertices = () => (d.editor.doc.layers[id!] as LayerNode<'PANEL'>).data.vertices;
    // The panel's left edge (over the safe line) dragged to 5 px inside the bleed line: it lands on 0.
    const v = vertices();
    const edgeY = (v[0]!.y + v[3]!.y) / 2;
    d.tool('PANEL')
      .down(v[0]!.x, edgeY)
      .move(v[0]!.x - 20, edgeY)
      .move(5, edgeY);
    expect(d.ui.state.snapGuides?.xs).toEqual([0]);
    d.up(5, edgeY);
    expect(vertices()[0]!.x).toBe(0);
    expect(vertices()[3]!.x).toBe(0);
    // And back to 4 px outside the trim line: it lands on the trim.
    d.down(0, edgeY)
      .move(10, edgeY)
      .move(bleedPx - 4, edgeY)
      .up(bleedPx - 4, edgeY);
    expect(vertices()[0]!.x).toBe(bleedPx);
  });

  it('a moved image snaps its edge onto a panel edge', () => {
    const { d, id } = pageWithImage();
    d.drag([500, 500], [500 - 295, 500 - 120]);
    // Left edge 105 is 5 from the panel edge 110 (the margin): it lands on it exactly.
    expect(d.editor.doc.layers[id]!.transform.x).toBe(110);
    expect(d.editor.doc.layers[id]!.transform.y).toBe(280);
  });

  it('a resized image snaps its dragged corner onto the margin and shows the guide; Alt resizes freely', () => {
    const { d, id } = pageWithImage();
    d.click(500, 500);
    expect(d.ui.state.selection).toEqual([id]);
    // The top-left corner dragged to (113, 300): the left edge lands on the 110 margin exactly, and the picture keeps
    // its aspect, so the top follows the scale that edge sets.
    d.tool('MOVE').down(400, 400).move(300, 350).move(113, 300);
    expect(d.ui.state.snapGuides?.xs).toEqual([110]);
    d.up(113, 300);
    expect(d.ui.state.snapGuides).toBeNull();
    const t = d.editor.doc.layers[id]!.transform;
    expect([t.x, t.y, t.size.width, t.size.height]).toEqual([110, 110, 490, 490]);
    // With Alt the corner goes where the pointer is.
    d.down(110, 110).move(113, 113, { alt: true }).up(113, 113);
    expect(d.editor.doc.layers[id]!.transform.x).toBe(113);
  });
});
