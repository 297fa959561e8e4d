import { OPERATION_KINDS, isOperationKind } from '@koma/domain';
import { describe, expect, it } from 'vitest';
import { LAYER_BUTTONS, WEB_OPERATIONS } from '../../src/generation/operations/registry.ts';

describe('the web operation modules', () => {
  it('send every operation of the domain, and nothing else', () => {
    const sent = new Set(WEB_OPERATIONS.flatMap((op) => op.kinds));
    for (const kind of sent) expect(isOperationKind(kind)).toBe(true);
    expect([...sent].sort()).toEqual([...OPERATION_KINDS].sort());
  });

  it('have one name each, and buttons with one test id and one place each', () => {
    const ids = WEB_OPERATIONS.map((op) => op.id);
    expect(new Set(ids).size).toBe(ids.length);
    const testIds = LAYER_BUTTONS.map((b) => b.testId);
    expect(new Set(testIds).size).toBe(testIds.length);
    const orders = LAYER_BUTTONS.map((b) => b.order);
    expect(new Set(orders).size).toBe(orders.length);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  });

  it('offer the image operations of the layer tab in their order', () => {
    expect(LAYER_BUTTONS.map((b) => b.testId)).toEqual([
      'op-regenerate',
      'op-variations',
      'op-img2img',
      'op-refine',
      'op-inpaint',
      'op-outpaint',
      'op-upscale',
      'op-background',
      'op-detect-faces',
      'op-estimate-pose',
      'op-video',
    ]);
  });
});
