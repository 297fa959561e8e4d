import { createFillLayer, zFillData } from '@koma/domain';
import { addFill } from '../commands/add.ts';
import { defineKind } from './kind.ts';
import { shapeNodes } from './shape-export.ts';

/** A flat colour over the layer's box. */
export const fillKind = defineKind({
  type: 'FILL',
  schema: zFillData,
  create: (id, transform) => createFillLayer(id, transform),
  container: false,
  raster: false,
  keepAspect: false,
  carriesClipped: false,
  imageIds: () => [],
  export: { nodes: shapeNodes },
  tab: [],
  commands: { addFill },
});
