import type { DocState } from '../store/state.ts';

/** What a command may draw on besides the document: fresh ids and randomness, injected for tests. */
export interface CommandContext {
  ids: () => string;
  random: () => number;
}

/** A named, undoable change to the document. `run` mutates an immer draft and may return a value (e.g. a new id). */
export interface Command<A, R = void> {
  readonly name: string;
  run(draft: DocState, args: A, ctx: CommandContext): R;
}

/** Declares a command; the name labels its history entry and its error messages. */
export function defineCommand<A, R = void>(
  name: string,
  run: (draft: DocState, args: A, ctx: CommandContext) => R,
): Command<A, R> {
  return { name, run };
}

/** Thrown by commands for a refusal the user should read (e.g. "Layer is locked"). */
export class CommandError extends Error {
  override readonly name = 'CommandError';
}
