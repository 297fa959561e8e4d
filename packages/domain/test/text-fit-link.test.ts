import { describe, expect, it } from 'vitest';
import { DOCUMENT_VERSION, decodeWorkspaceData, encodeWorkspaceData, type Layer } from '../src/index.ts';

const box = { x: 0, y: 0, size: { width: 100, height: 80 } };
const text = (id: string, data: Record<string, unknown> = {}) => ({
  id,
  type: 'TEXT',
  transform: box,
  originalSize: box.size,
  children: [],
  data: { backgroundType: 'SPEECH_BUBBLE', ...data },
});
const doc = (children: unknown[], pageChildren: unknown[] = []) => ({
  version: DOCUMENT_VERSION,
  rootLayer: { id: 'root', type: 'GROUP', transform: box, originalSize: box.size, children },
  pages: pageChildren.length
    ? [
        {
          uuid: 'p1',
          rootLayer: { id: 'page', type: 'GROUP', transform: box, originalSize: box.size, children: pageChildren },
        },
      ]
    : [],
});

const textData = (root: Layer, id: string) => {
  const layer = root.children.find((c) => c.id === id);
  if (layer?.type !== 'TEXT') throw new Error(`${id} is not a text layer`);
  return layer.data;
};

describe('shrink-to-fit and linked bubbles in the current document version', () => {
  it('reads a document written without the new fields: grow to fit, unlinked', () => {
    const result = decodeWorkspaceData(doc([text('a')]));
    if (!result.ok) throw new Error(result.error.message);
    expect(textData(result.value.rootLayer, 'a')).toMatchObject({ textFit: 'grow', linkedBubbleId: null });
    expect(result.repairs).toEqual([]);
  });

  it('keeps a shrink fit and a two-way link through a save and a load', () => {
    const first = decodeWorkspaceData(
      doc([text('a', { textFit: 'shrink', linkedBubbleId: 'b' }), text('b', { linkedBubbleId: 'a' })]),
    );
    if (!first.ok) throw new Error(first.error.message);
    const again = decodeWorkspaceData(JSON.parse(JSON.stringify(encodeWorkspaceData(first.value))));
    if (!again.ok) throw new Error(again.error.message);
    expect(textData(again.value.rootLayer, 'a')).toMatchObject({ textFit: 'shrink', linkedBubbleId: 'b' });
    expect(textData(again.value.rootLayer, 'b')).toMatchObject({ linkedBubbleId: 'a' });
  });

  it('refuses a bad fit or link value with a message naming the field', () => {
    for (const [field, value] of [
      ['textFit', 'squash'],
      ['textFit', 3],
      ['linkedBubbleId', 42],
      ['linkedBubbleId', ['b']],
    ] as const) {
      const result = decodeWorkspaceData(doc([text('a', { [field]: value })]));
      expect(result.ok, `${field} = ${JSON.stringify(value)}`).toBe(false);
      if (!result.ok) {
        expect(result.error.path).toContain(field);
        expect(result.error.message).toContain(field);
      }
    }
  });

  it('drops dangling links on load and says so: a missing layer, one that does not link back, itself, a non-text', () => {
    const image = { id: 'img', type: 'GROUP', transform: box, originalSize: box.size, children: [] };
    const result = decodeWorkspaceData(
      doc(
        [
          text('gone', { linkedBubbleId: 'nobody' }),
          text('oneway', { linkedBubbleId: 'pairA' }),
          text('self', { linkedBubbleId: 'self' }),
          text('toGroup', { linkedBubbleId: 'img' }),
          image,
          text('pairA', { linkedBubbleId: 'pairB' }),
          text('pairB', { linkedBubbleId: 'pairA' }),
          // A link to a bubble on another page is not kept: each page is drawn on its own.
          text('cross', { linkedBubbleId: 'onPage' }),
        ],
        [text('onPage', { linkedBubbleId: 'cross' })],
      ),
    );
    if (!result.ok) throw new Error(result.error.message);
    const root = result.value.rootLayer;
    for (const id of ['gone', 'oneway', 'self', 'toGroup', 'cross'])
      expect(textData(root, id).linkedBubbleId).toBeNull();
    expect(textData(root, 'pairA').linkedBubbleId).toBe('pairB');
    expect(textData(root, 'pairB').linkedBubbleId).toBe('pairA');
    const page = result.value.pages[0]!.rootLayer;
    expect(textData(page, 'onPage').linkedBubbleId).toBeNull();
    const repair = result.repairs.find((r) => r.code === 'BUBBLE_LINK');
    expect(repair?.count).toBe(6);
    expect(repair?.path).toContain('linkedBubbleId');
  });
});
