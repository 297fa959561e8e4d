import { LAYER_TYPES } from '@koma/domain';
import type { LayerKind } from './kind.ts';
import { registerKinds } from './lookup.ts';
import { groupKind } from './group.ts';
import { imageKind } from './image.ts';
import { textKind } from './text.ts';
import { panelKind } from './panel.ts';
import { poseKind } from './pose.ts';
import { sketchKind } from './sketch.ts';
import { fillKind } from './fill.ts';

/**
 * Every layer kind. Adding a kind: a file beside this one and a line here (see docs/how-it-works/layer-kinds.md); the
 * completeness tests fail until every registry (web adapters, layer-tab sections) has it too.
 */
export const LAYER_KINDS: readonly LayerKind[] = [
  groupKind,
  imageKind,
  textKind,
  panelKind,
  poseKind,
  sketchKind,
  fillKind,
];

for (const type of LAYER_TYPES) {
  if (!LAYER_KINDS.some((k) => k.type === type)) throw new Error(`Layer type ${type} has no kind`);
}
registerKinds(LAYER_KINDS);
