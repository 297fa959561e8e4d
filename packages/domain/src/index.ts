export * from './constants.ts';
export * from './document/index.ts';
export * from './panels/index.ts';
export * from './generation/index.ts';
export * from './bubbles/index.ts';
export * from './json/inspect.ts';
export * from './json/patch.ts';
export * from './history/index.ts';
