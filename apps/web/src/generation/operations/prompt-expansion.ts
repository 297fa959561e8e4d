// Prompt expansion: rewrites of the Prompt tab's prompt to choose from (nothing lands on the canvas).
import { operationOf } from '@koma/domain';
import { submitJob } from '../stream.ts';
import type { WebOperation } from './types.ts';

/** The rewrites of a prompt (three), as the server moderated them. */
export async function expandPrompt(prompt: string): Promise<string[]> {
  const output = await submitJob(operationOf('prompt_expansion').endpoint, { prompt, num_sequences: 3 });
  const prompts = (output as { prompts?: unknown } | null)?.prompts;
  return Array.isArray(prompts) ? prompts.filter((p): p is string => typeof p === 'string') : [];
}

export const promptExpansionOperation: WebOperation = { id: 'prompt_expansion', kinds: ['prompt_expansion'] };
