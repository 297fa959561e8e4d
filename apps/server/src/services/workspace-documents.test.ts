import { createTextLayer, createWorkspaceData, decodeWorkspaceData, encodeWorkspaceData } from '@koma/domain';
import { describe, expect, it } from 'vitest';
import { serialiseDocument } from './workspace-documents.ts';

describe('serialiseDocument', () => {
  it('writes the same text as the domain encoder, for comics and infinite canvases', () => {
    for (const type of ['COMIC', 'INFINITE'] as const) {
      let n = 0;
      const data = createWorkspaceData(type, () => `id-${++n}`);
      const root = type === 'COMIC' ? data.pages[0]!.rootLayer : data.rootLayer;
      root.children.push(createTextLayer('t1', { x: 1, y: 2, size: { width: 30, height: 40 } }, { text: 'Hi' }));
      const decoded = decodeWorkspaceData(JSON.parse(JSON.stringify(data)));
      if (!decoded.ok) throw new Error(decoded.error.message);
      expect(serialiseDocument(decoded.value)).toBe(JSON.stringify(encodeWorkspaceData(decoded.value)));
    }
  });
});
