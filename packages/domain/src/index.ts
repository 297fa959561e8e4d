export * from './generation/index.ts';
