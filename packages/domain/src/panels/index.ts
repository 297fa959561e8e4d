export * from './shape.ts';
export * from './neighbors.ts';
export * from './reading-order.ts';
export * from './split.ts';
export * from './vertex.ts';
export * from './layouts.ts';
