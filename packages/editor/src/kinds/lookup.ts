import type { LayerType } from '@koma/domain';
import type { LayerNode } from '../store/state.ts';
import type { ToolId } from '../ui/ui-state.ts';
import type { LayerKind } from './kind.ts';

/**
 * Where common code finds a layer's kind. Kinds use the tree helpers and those helpers ask about kinds, so the
 * lookup is filled at start-up by kinds/registry.ts (loaded by every entry point: index.ts,
 * commands/index.ts, export/index.ts) instead of importing the kinds, which would close an import cycle.
 */
const KINDS = new Map<LayerType, LayerKind>();
let ORDERED: readonly LayerKind[] = [];

/** Installs the list of kinds (kinds/registry.ts does, once). */
export function registerKinds(kinds: readonly LayerKind[]): void {
  KINDS.clear();
  for (const kind of kinds) {
    if (KINDS.has(kind.type)) throw new Error(`Layer type ${kind.type} has two kinds`);
    KINDS.set(kind.type, kind);
  }
  ORDERED = kinds;
}

/** Every registered kind, in registry order. */
export function registeredKinds(): readonly LayerKind[] {
  return ORDERED;
}

/** The kind of a layer type. */
export function layerKind(type: LayerType): LayerKind {
  const kind = KINDS.get(type);
  if (!kind) throw new Error(`No layer kind for ${type}: kinds/registry.ts was not loaded`);
  return kind;
}

/** The kind of a layer (its hooks accept that layer). */
export function kindOf(node: LayerNode): LayerKind {
  return layerKind(node.type);
}

/** Holds children (a group). */
export function isContainer(node: LayerNode): boolean {
  return kindOf(node).container;
}

/** The kind whose own tool is `tool`, if any (POSE, PANEL, TEXT). */
export function kindForTool(tool: ToolId): LayerKind | undefined {
  return ORDERED.find((k) => k.tool?.id === tool);
}
