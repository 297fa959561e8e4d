// Snapping arithmetic and the drags that use it (issue 17): edges land exactly on lines, Alt moves freely.
import { describe, expect, it } from 'vitest';
import { pageSetupBoxes, presetPageSetup } from '@koma/domain';
import {
  addImage,
  pageSnapTargets,
  setPageSetup,
  snapAxis,
  snapBox,
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
});

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
    const d = new TestDriver();
    const id = ok(
      d.editor.execute(addImage, {
        parentId: d.root,
        transform: { x: 400, y: 400, size: { width: 200, height: 200 } },
        imageId: 'img',
      }),
    );
    d.drag([500, 500], [500 - 295, 500 - 120]);
    // Left edge 105 is 5 from the panel edge 110 (the margin): it lands on it exactly.
    expect(d.editor.doc.layers[id]!.transform.x).toBe(110);
    expect(d.editor.doc.layers[id]!.transform.y).toBe(280);
  });
});
