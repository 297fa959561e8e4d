import { zTextData, type TextData } from '@koma/domain';
import { CommandError, defineCommand } from './command.ts';
import { getLayerOf } from './helpers.ts';

/** Changes any TEXT fields; the result must still be valid text data. */
export const updateText = defineCommand('Edit text', (doc, args: { id: string; patch: Partial<TextData> }) => {
  const node = getLayerOf(doc, args.id, 'TEXT');
  const parsed = zTextData.safeParse({ ...node.data, ...args.patch });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CommandError(`${issue?.path.join('.') ?? 'text'}: ${issue?.message ?? 'invalid'}`);
  }
  for (const key of Object.keys(args.patch) as (keyof TextData)[]) {
    (node.data as Record<string, unknown>)[key] = parsed.data[key];
  }
});
