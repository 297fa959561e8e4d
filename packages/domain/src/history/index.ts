export * from './retention.ts';
export * from './chain.ts';
export * from './prune.ts';
