import { describe, expect, it } from 'vitest';
import { decodeWorkspaceData } from '@koma/domain';
import { findFlowImage, flowWorkspaceRequest } from '../src/screens/flow/flowWorkspace.ts';
import { newWorkspaceRequest } from '../src/screens/dashboard/newWorkspace.ts';

const flow = {
  variationId: 'var-1',
  generationData: {
    prompt: 'a cat on a roof',
    negative_prompt: 'blurry',
    seed: 1234,
    image_size: { width: 832, height: 1216 },
    model_name: 'animaginexl4.0',
    num_inference_steps: 28,
    guidance_scale: 6,
  },
};

function counter() {
  let n = 0;
  return () => `id-${++n}`;
}

describe('findFlowImage', () => {
  it('returns the entry with the matching variation id and skips malformed ones', () => {
    const other = { ...flow, variationId: 'var-2' };
    expect(findFlowImage([{ junk: true }, other, flow], 'var-1')).toEqual(flow);
    expect(findFlowImage([other], 'var-1')).toBeNull();
    expect(findFlowImage([], 'var-1')).toBeNull();
  });
});

describe('flowWorkspaceRequest', () => {
  it('builds an INFINITE workspace with one image layer of the flow image at its size', () => {
    const request = flowWorkspaceRequest(flow, 'Flow image var-1', counter());
    expect(request.type).toBe('INFINITE');
    const [layer] = request.data.rootLayer.children;
    expect(request.data.rootLayer.children).toHaveLength(1);
    expect(layer?.type).toBe('IMAGE');
    expect(layer?.transform.size).toEqual({ width: 832, height: 1216 });
    const data = layer?.data as { variations: { id: string }[]; params: Record<string, unknown> | null };
    expect(data.variations).toEqual([{ id: 'var-1' }]);
    expect(data.params).toMatchObject({ prompt: 'a cat on a roof', seed: 1234, steps: 28, cfg: 6, width: 832 });
  });

  it('produces a document the domain codec accepts', () => {
    const result = decodeWorkspaceData(flowWorkspaceRequest(flow, 'x', counter()).data);
    expect(result.ok).toBe(true);
  });
});

describe('newWorkspaceRequest', () => {
  it('makes a comic with one page and an empty canvas, both valid documents', () => {
    const comic = newWorkspaceRequest('COMIC', 'Untitled comic', counter());
    expect(comic).toMatchObject({ name: 'Untitled comic', type: 'COMIC' });
    expect(comic.data.pages).toHaveLength(1);
    expect(decodeWorkspaceData(comic.data).ok).toBe(true);
    const canvas = newWorkspaceRequest('INFINITE', 'Untitled canvas', counter());
    expect(canvas.data.pages).toHaveLength(0);
    expect(decodeWorkspaceData(canvas.data).ok).toBe(true);
  });
});
