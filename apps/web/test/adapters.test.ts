import { describe, expect, it } from 'vitest';
import { LAYER_TYPES } from '@koma/domain';
import { LAYER_KINDS } from '@koma/editor';
import { LAYER_ADAPTERS } from '../src/canvas/adapters/registry.ts';
import { traceClip } from '../src/canvas/common.ts';

describe('canvas adapters registry', () => {
  it('has one adapter for every layer kind the editor registers, under that kind’s type', () => {
    expect(Object.keys(LAYER_ADAPTERS).sort()).toEqual([...LAYER_TYPES].sort());
    for (const kind of LAYER_KINDS) expect(LAYER_ADAPTERS[kind.type].type).toBe(kind.type);
  });

  it('clips to a kind’s outline when it has one and to the layer box otherwise', () => {
    const calls: string[] = [];
    const ctx = {
      beginPath: () => calls.push('begin'),
      moveTo: (x: number, y: number) => calls.push(`M${x},${y}`),
      lineTo: (x: number, y: number) => calls.push(`L${x},${y}`),
      closePath: () => calls.push('Z'),
      rect: (x: number, y: number, w: number, h: number) => calls.push(`R${x},${y},${w},${h}`),
    };
    const transform = { x: 1, y: 2, size: { width: 10, height: 20 } };
    const panel = LAYER_KINDS.find((k) => k.outline)!.create('p', transform);
    const vertices = (panel.data as { vertices: { x: number; y: number }[] }).vertices;
    traceClip(ctx as never, { ...panel, children: [] } as never);
    expect(calls).toEqual(['begin', ...vertices.map((v, i) => `${i === 0 ? 'M' : 'L'}${v.x},${v.y}`), 'Z']);
    calls.length = 0;
    const fill = LAYER_KINDS.find((k) => k.type === 'FILL')!.create('f', transform);
    traceClip(ctx as never, { ...fill, children: [] } as never);
    expect(calls).toEqual(['begin', 'R1,2,10,20']);
  });
});
