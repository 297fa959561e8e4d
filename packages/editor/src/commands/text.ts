import { zTextData, type TextData } from '@koma/domain';
import { CommandError, defineCommand } from './command.ts';
import { getLayerOf } from './helpers.ts';
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
