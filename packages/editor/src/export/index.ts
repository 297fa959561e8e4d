// Installs the layer kinds for everything below (see kinds/lookup.ts).
import '../kinds/registry.ts';
export * from './raster.ts';
export * from './blend.ts';
export * from './adjust.ts';
export * from './watermark.ts';
export * from './plan.ts';
export * from './psd.ts';
export * from './read.ts';
export * from './unturn.ts';
export * from './koma-meta.ts';
export * from './zip.ts';
export * from './cbz.ts';
export * from './webtoon.ts';
export * from './pdf.ts';
export * from './pdf-stream.ts';
export * from './halftone.ts';
export * from './resolution.ts';
export * from './pdf-text.ts';
