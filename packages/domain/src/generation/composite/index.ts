export * from './frame.ts';
export * from './regions.ts';
export * from './brush-mask.ts';
export * from './build.ts';
