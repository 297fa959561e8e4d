import { describe, expect, it } from 'vitest';
import { decodeWorkspaceData, encodeWorkspaceData } from '../codec.ts';
import { createImageLayer, createWorkspaceData } from '../factory.ts';
import type { WorkspaceData } from '../workspace.ts';

const box = { x: 0, y: 0, size: { width: 512, height: 512 } };

function withImage(data: Parameters<typeof createImageLayer>[2]): WorkspaceData {
  let i = 0;
  const doc = createWorkspaceData('INFINITE', () => `id${i++}`);
  doc.rootLayer.children.push(createImageLayer('img', box, data));
  return doc;
}

describe('videos of an image layer in the saved document', () => {
  it('round-trips the clips made from the image', () => {
    const doc = withImage({
      variations: [{ id: 'v1' }],
      videos: [
        {
          id: 'vid1',
          mime: 'image/webp',
          model: 'wan22_i2v',
          duration: 5,
          engine: 'builtin',
          note: 'a preview',
          imageId: 'v1',
        },
        {
          id: 'vid2',
          mime: 'video/mp4',
          model: 'kling1.6_i2v',
          duration: 10,
          engine: 'fal',
          note: null,
          imageId: null,
        },
      ],
    });
    const result = decodeWorkspaceData(JSON.parse(JSON.stringify(encodeWorkspaceData(doc))));
    expect(result).toEqual({ ok: true, value: doc, repairs: [] });
  });

  it('loads an image layer saved before videos existed with none', () => {
    const saved = JSON.parse(JSON.stringify(encodeWorkspaceData(withImage({ variations: [{ id: 'v1' }] })))) as {
      rootLayer: { children: { data: Record<string, unknown> }[] };
    };
    delete saved.rootLayer.children[0]!.data.videos;
    const result = decodeWorkspaceData(saved);
    if (!result.ok) throw new Error(result.error.message);
    const image = result.value.rootLayer.children[0]!;
    expect(image.type === 'IMAGE' && image.data.videos).toEqual([]);
  });

  it('fills the optional fields of a saved clip and refuses one without an id', () => {
    const saved = JSON.parse(JSON.stringify(encodeWorkspaceData(withImage({})))) as {
      rootLayer: { children: { data: Record<string, unknown> }[] };
    };
    saved.rootLayer.children[0]!.data.videos = [{ id: 'vid1', mime: 'video/mp4', model: 'wan_i2v', duration: 5 }];
    const result = decodeWorkspaceData(saved);
    if (!result.ok) throw new Error(result.error.message);
    const image = result.value.rootLayer.children[0]!;
    expect(image.type === 'IMAGE' && image.data.videos[0]).toEqual({
      id: 'vid1',
      mime: 'video/mp4',
      model: 'wan_i2v',
      duration: 5,
      engine: '',
      note: null,
      imageId: null,
    });
    saved.rootLayer.children[0]!.data.videos = [{ mime: 'video/mp4', model: 'wan_i2v', duration: 5 }];
    const bad = decodeWorkspaceData(saved);
    expect(bad.ok).toBe(false);
  });
});
