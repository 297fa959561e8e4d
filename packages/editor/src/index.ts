export * from './editor.ts';
export * from './store/state.ts';
export * from './store/normalize.ts';
export * from './store/invariants.ts';
export * from './commands/index.ts';
