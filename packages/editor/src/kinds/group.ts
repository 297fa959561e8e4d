import { createLayer, zGroupData } from '@koma/domain';
import { defineKind } from './kind.ts';

/** A folder of layers: drawn through its children, exported as a PSD group. */
export const groupKind = defineKind({
  type: 'GROUP',
  schema: zGroupData,
  create: (id, transform) => createLayer('GROUP', id, transform, {}),
  container: true,
  raster: false,
  keepAspect: false,
  carriesClipped: false,
  imageIds: () => [],
  export: {
    nodes: (l, _clipping, ctx) => [
      {
        kind: 'group',
        key: `${l.id}:group`,
        layerId: l.id,
        name: l.name || l.type,
        hidden: !l.visible,
        children: ctx.siblings(l.children.map((id) => ctx.doc.layers[id]!).filter(Boolean)),
      },
    ],
  },
  tab: [],
  commands: {},
});
