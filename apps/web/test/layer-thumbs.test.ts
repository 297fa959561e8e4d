import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { LAYER_TYPES } from '@koma/domain';
import { LAYER_KINDS, type LayerNode } from '@koma/editor';
import { LAYER_THUMBS } from '../src/editor/layer-thumbs/registry.ts';
import { LayerThumb } from '../src/editor/LayerThumb.tsx';

const transform = { x: 10, y: 20, size: { width: 200, height: 100 } };
const nodeOf = (type: string) =>
  ({
    ...LAYER_KINDS.find((k) => k.type === type)!.create(`${type}-1`, transform),
    parent: null,
    clipTarget: null,
    children: [],
  }) as LayerNode;

describe('layer-list thumbnails', () => {
  it('has one thumbnail for every layer kind the editor registers', () => {
    expect(Object.keys(LAYER_THUMBS).sort()).toEqual([...LAYER_TYPES].sort());
    expect(LAYER_KINDS.map((k) => k.type).sort()).toEqual([...LAYER_TYPES].sort());
  });

  it('draws each kind from its own data', () => {
    const markup = (type: string) => renderToStaticMarkup(createElement(LayerThumb, { node: nodeOf(type) }));
    expect(markup('PANEL')).toContain('<polygon');
    expect(markup('FILL')).toContain('<rect width="200" height="100"');
    expect(markup('TEXT')).toMatch(/<text[^>]*>/);
    expect(markup('GROUP')).toContain('viewBox="0 0 24 24"');
    // An image with no variation yet is a grey box of its own proportions.
    expect(markup('IMAGE')).toContain('viewBox="0 0 200 100"');
    for (const type of LAYER_TYPES) expect(markup(type)).toMatch(/^<(svg|img)/);
  });
});
