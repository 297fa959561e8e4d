export * from './raster.ts';
export * from './adjust.ts';
export * from './watermark.ts';
export * from './plan.ts';
export * from './psd.ts';
export * from './read.ts';
export * from './zip.ts';
