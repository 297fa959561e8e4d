import type { DocState } from '../store/state.ts';
import { CommandError, defineCommand } from './command.ts';

/**
 * Replaces the whole document with an earlier version of it (the History panel's Restore), as one command, so
 * one undo brings back what was there before. The type must match: a comic never becomes a canvas.
 */
export const restoreVersion = defineCommand('Restore version', (doc: DocState, args: { version: DocState }) => {
  if (args.version.type !== doc.type) throw new CommandError('That version is of another kind of workspace');
  const draft = doc as unknown as Record<string, unknown>;
  for (const key of Object.keys(draft)) {
    if (!Object.hasOwn(args.version, key)) delete draft[key];
  }
  for (const [key, value] of Object.entries(args.version)) {
    // A copy: the version's objects stay the caller's.
    draft[key] = structuredClone(value);
  }
});
