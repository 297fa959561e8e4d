// Installs the layer kinds for everything below (see kinds/lookup.ts).
import '../kinds/registry.ts';
export * from './command.ts';
export * from './layers.ts';
export * from './transform.ts';
export * from './clip.ts';
export * from './panel-art.ts';
export * from './appearance.ts';
export * from './image.ts';
export * from './video.ts';
export * from './pose.ts';
export * from './sketch.ts';
export * from './text.ts';
export * from './panels.ts';
export * from './pages.ts';
export { getLayer, rootOf, pageBoundsFor } from './helpers.ts';
export { panelsUnder } from './panel-helpers.ts';
export * from './regional.ts';
export * from './sketch-map.ts';
