import type { LayerType } from '@koma/domain';
import type { DocState } from '../store/state.ts';

/** The name a layer of each type is created with when nobody named it (the domain's factory defaults). */
const DEFAULT_NAMES: Record<LayerType, string> = {
  GROUP: 'Group',
  IMAGE: 'Image',
  TEXT: 'Text',
  PANEL: 'Panel',
  POSE: 'Pose',
  SKETCH: 'Sketch',
  FILL: 'Fill',
};

export function isDefaultName(type: LayerType, name: string): boolean {
  return DEFAULT_NAMES[type] === name;
}

/** A name without its trailing number: "Panel 4" → "Panel", "Hero" → "Hero". */
export function nameBase(name: string): string {
  return name.replace(/\s+\d+$/, '') || name;
}

/**
 * The next free numbered name for `base` among the layers under a root ("Text 3" after "Text 1" and "Text 2"); a
 * layer named just `base` counts as number 1, so a split "Panel" gets "Panel 2".
 */
export function nextName(doc: DocState, rootId: string, base: string): string {
  let highest = 0;
  const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (\\d+)$`);
  const visit = (id: string) => {
    const node = doc.layers[id];
    if (!node) return;
    if (node.name === base) highest = Math.max(highest, 1);
    const match = pattern.exec(node.name);
    if (match) highest = Math.max(highest, Number(match[1]));
    node.children.forEach(visit);
  };
  doc.layers[rootId]?.children.forEach(visit);
  return `${base} ${highest + 1}`;
}
