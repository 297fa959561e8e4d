import Konva from 'konva';
import { defineAdapter } from './types.ts';

export const fillAdapter = defineAdapter({
  type: 'FILL',
  build(group, layer) {
    group.add(new Konva.Rect({ ...layer.transform.size, fill: layer.data.color, listening: false }));
  },
});
