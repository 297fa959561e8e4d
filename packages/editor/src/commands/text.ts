import { zTextData, type TextData } from '@koma/domain';
import { CommandError, defineCommand } from './command.ts';
import { getLayerOf, rootOf } from './helpers.ts';
import type { DocState } from '../store/state.ts';
import { parseRuby } from '../text/ruby.ts';

/**
 * Changes any TEXT fields; the result must still be valid text data. `fit` (the size the text needs, measured by
 * the caller) grows the layer about its centre in the same step, so a bubble grows to fit its text — unless the
 * layer shrinks its text to fit instead (textFit 'shrink'): then the box keeps its size and the font steps down.
 */
export const updateText = defineCommand(
  'Edit text',
  (doc, args: { id: string; patch: Partial<TextData>; fit?: { width: number; height: number } }) => {
    const node = getLayerOf(doc, args.id, 'TEXT');
    if (args.patch.text !== undefined) {
      const ruby = parseRuby(args.patch.text);
      if (!ruby.ok) throw new CommandError(ruby.message);
    }
    const parsed = zTextData.safeParse({ ...node.data, ...args.patch });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CommandError(`${issue?.path.join('.') ?? 'text'}: ${issue?.message ?? 'invalid'}`);
    }
    for (const key of Object.keys(args.patch) as (keyof TextData)[]) {
      (node.data as Record<string, unknown>)[key] = parsed.data[key];
    }
    if (
      args.fit &&
      node.data.textFit !== 'shrink' &&
      Number.isFinite(args.fit.width) &&
      Number.isFinite(args.fit.height)
    ) {
      const { x, y, size } = node.transform;
      const width = Math.max(size.width, Math.ceil(args.fit.width));
      const height = Math.max(size.height, Math.ceil(args.fit.height));
      if (width !== size.width || height !== size.height) {
        node.transform = {
          x: x - (width - size.width) / 2,
          y: y - (height - size.height) / 2,
          size: { width, height },
        };
      }
    }
  },
);

/** Clears the link of a bubble and its partner's link back (either may already be gone). */
export function unlinkBubble(doc: DocState, id: string): void {
  const node = doc.layers[id];
  if (node?.type !== 'TEXT' || node.data.linkedBubbleId === null) return;
  const partner = doc.layers[node.data.linkedBubbleId];
  node.data.linkedBubbleId = null;
  if (partner?.type === 'TEXT' && partner.data.linkedBubbleId === id) partner.data.linkedBubbleId = null;
}

/**
 * Links two speech bubbles so they print as one outline (a speaker continuing), each keeping its text. A bubble is
 * linked to one other at most: earlier links of either are undone in the same step.
 */
export const linkBubbles = defineCommand('Link bubbles', (doc, args: { ids: [string, string] }) => {
  const [a, b] = args.ids.map((id) => getLayerOf(doc, id, 'TEXT'));
  if (!a || !b || a.id === b.id) throw new CommandError('Select two speech bubbles to link.');
  if (a.data.backgroundType !== 'SPEECH_BUBBLE' || b.data.backgroundType !== 'SPEECH_BUBBLE') {
    throw new CommandError('Only speech bubbles can be linked.');
  }
  if (rootOf(doc, a.id) !== rootOf(doc, b.id)) throw new CommandError('Linked bubbles must be on the same page.');
  unlinkBubble(doc, a.id);
  unlinkBubble(doc, b.id);
  a.data.linkedBubbleId = b.id;
  b.data.linkedBubbleId = a.id;
});

export const unlinkBubbles = defineCommand('Unlink bubbles', (doc, args: { id: string }) => {
  const node = getLayerOf(doc, args.id, 'TEXT');
  if (node.data.linkedBubbleId === null) throw new CommandError('This bubble is not linked.');
  unlinkBubble(doc, node.id);
});
