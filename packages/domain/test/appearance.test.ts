import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_VERSION, decodeWorkspaceData, encodeWorkspaceData, type Layer } from '../src/index.ts';

const fixture = (): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL('./fixtures/v1-layers.json', import.meta.url), 'utf8')) as Record<string, unknown>;

const find = (root: Layer, id: string): Layer | undefined =>
  root.id === id ? root : root.children.map((c) => find(c, id)).find(Boolean);

describe('layer appearance (document version 2)', () => {
  it('migrates a version 1 document: every layer, nested ones too, opaque, normal, unrotated, unflipped', () => {
    const result = decodeWorkspaceData(fixture());
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.version).toBe(DOCUMENT_VERSION);
    for (const id of ['art', 'group', 'fill']) {
      expect(find(result.value.rootLayer, id)).toMatchObject({
        opacity: 1,
        blendMode: 'normal',
        rotation: 0,
        flipX: false,
        flipY: false,
      });
    }
  });

  it('keeps what a version 2 document says through a save and a load', () => {
    const raw = fixture();
    const decoded = decodeWorkspaceData(raw);
    if (!decoded.ok) throw new Error(decoded.error.message);
    const art = find(decoded.value.rootLayer, 'art')!;
    Object.assign(art, { opacity: 0.4, blendMode: 'multiply', rotation: 37.5, flipX: true, flipY: false });
    const again = decodeWorkspaceData(JSON.parse(JSON.stringify(encodeWorkspaceData(decoded.value))));
    if (!again.ok) throw new Error(again.error.message);
    expect(find(again.value.rootLayer, 'art')).toMatchObject({
      opacity: 0.4,
      blendMode: 'multiply',
      rotation: 37.5,
      flipX: true,
    });
  });

  it('refuses an opacity above 1 or an unknown blend mode, naming the field', () => {
    for (const [field, value] of [
      ['opacity', 1.5],
      ['blendMode', 'dodge'],
    ] as const) {
      const raw = fixture();
      raw.version = 2;
      const layers = (raw.rootLayer as { children: Record<string, unknown>[] }).children;
      layers[0]![field] = value;
      const result = decodeWorkspaceData(raw);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.path).toContain(field);
    }
  });
});
