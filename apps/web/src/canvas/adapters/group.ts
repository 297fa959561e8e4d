import { defineAdapter } from './types.ts';

/** A group draws nothing of its own: the scene flattens it and draws its children in its place. */
export const groupAdapter = defineAdapter({
  type: 'GROUP',
  build() {},
});
