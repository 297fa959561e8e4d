import { describe, expect, it } from 'vitest';
import { LAYER_TYPES, zLayer } from '@koma/domain';
import {
  LAYER_KINDS,
  LAYER_TAB_SECTIONS,
  TOOLS,
  containsPoint,
  hitLayer,
  kindForTool,
  kindOf,
  layerKind,
  placementOf,
  placedBounds,
  placedBoundsOf,
  toLocal,
  type LayerNode,
} from '../src/index.ts';
import { makeEditor, ok, pageRoot } from './support.ts';
import { addFill, addImage, addPose, addSketch, addText } from '../src/index.ts';

const transform = { x: 10, y: 20, size: { width: 300, height: 200 } };

describe('layer kinds registry', () => {
  it('has exactly one kind for every layer type, found by type and by node', () => {
    expect(LAYER_KINDS.map((k) => k.type).sort()).toEqual([...LAYER_TYPES].sort());
    for (const type of LAYER_TYPES) expect(layerKind(type).type).toBe(type);
  });

  it('creates layers that the saved-form schema accepts, with data its schema keeps as they are', () => {
    for (const kind of LAYER_KINDS) {
      const layer = kind.create('id1', transform);
      expect(layer.type).toBe(kind.type);
      expect(zLayer.parse(layer)).toEqual(layer);
      expect(kind.schema.parse(layer.data)).toEqual(layer.data);
    }
  });

  it('names only layer-tab sections the web knows, each once per kind', () => {
    for (const kind of LAYER_KINDS) {
      for (const section of kind.tab) expect(LAYER_TAB_SECTIONS).toContain(section);
      expect(new Set(kind.tab).size).toBe(kind.tab.length);
    }
  });

  it('gives each tool at most one kind, and only tools that exist', () => {
    const owned = LAYER_KINDS.flatMap((k) => (k.tool ? [k.tool.id] : []));
    expect(new Set(owned).size).toBe(owned.length);
    for (const id of owned) expect(TOOLS).toContain(id);
    expect(kindForTool('POSE')?.type).toBe('POSE');
    expect(kindForTool('MOVE')).toBeUndefined();
  });

  it('lets exactly one kind start a layer for the brush on empty canvas, and that kind takes strokes', () => {
    const makers = LAYER_KINDS.filter((k) => k.createForBrush);
    expect(makers.map((k) => k.type)).toEqual(['SKETCH']);
    expect(makers[0]!.brush).toBeDefined();
  });

  it('lists commands that are real commands with a name', () => {
    for (const kind of LAYER_KINDS) {
      for (const [key, command] of Object.entries(kind.commands)) {
        expect(typeof command.run, `${kind.type}.${key}`).toBe('function');
        expect(command.name.length, `${kind.type}.${key}`).toBeGreaterThan(0);
      }
    }
  });
});

describe('placement: the one transform every consumer reads', () => {
  it('places a layer at its transform and maps canvas points into its own units', () => {
    const editor = makeEditor();
    const id = ok(editor.execute(addFill, { parentId: pageRoot(editor), transform }));
    const node = editor.doc.layers[id]!;
    const placement = placementOf(node);
    expect(placedBounds(placement)).toEqual({ x: 10, y: 20, width: 300, height: 200 });
    expect(toLocal(placement, { x: 15, y: 30 })).toEqual({ x: 5, y: 10 });
  });

  it('bounds several layers by their turned corners: a strip turned a quarter stands on its end', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const strip = ok(
      editor.execute(addImage, { parentId: root, transform: { x: 0, y: 0, size: { width: 400, height: 100 } } }),
    );
    const fill = ok(
      editor.execute(addFill, { parentId: root, transform: { x: 500, y: 0, size: { width: 50, height: 50 } } }),
    );
    const node = (id: string) => editor.doc.layers[id]!;
    expect(placedBoundsOf([])).toBeNull();
    expect(placedBoundsOf([node(strip), node(fill)])).toEqual({ x: 0, y: 0, width: 550, height: 100 });
    const turned = { ...node(strip), rotation: 90 } as LayerNode;
    // About its centre (200, 50): 100 wide from x 150, 400 tall from y −150.
    const b = placedBoundsOf([turned, node(fill)])!;
    expect([b.x, b.y, b.x + b.width, b.y + b.height].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([
      150, -150, 550, 250,
    ]);
  });

  it('hit-tests each drawable kind through its placement (or its outline), on the box edge and just outside', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const ids = [
      ok(editor.execute(addImage, { parentId: root, transform })),
      ok(editor.execute(addText, { parentId: root, transform })),
      ok(editor.execute(addPose, { parentId: root, transform })),
      ok(editor.execute(addSketch, { parentId: root, transform })),
      ok(editor.execute(addFill, { parentId: root, transform })),
    ];
    for (const id of ids) {
      const node = editor.doc.layers[id]!;
      expect(containsPoint(node, { x: 10, y: 20 }), node.type).toBe(true);
      expect(containsPoint(node, { x: 310, y: 220 }), node.type).toBe(true);
      expect(containsPoint(node, { x: 9.5, y: 100 }), node.type).toBe(false);
    }
    // The default page panel: inside its polygon counts, the page margin does not.
    const panel = Object.values(editor.doc.layers).find(
      (n): n is LayerNode<'PANEL'> => kindOf(n).outline !== undefined,
    )!;
    const [tl] = panel.data.vertices;
    expect(containsPoint(panel, { x: tl!.x + 1, y: tl!.y + 1 })).toBe(true);
    expect(containsPoint(panel, { x: tl!.x - 1, y: tl!.y - 1 })).toBe(false);
    expect(hitLayer(editor.doc, root, { x: 100, y: 100 })).toBe(ids[4]);
  });
});
