import { moderatePrompt } from '@koma/domain';
import { expandPrompt } from '../prompt-expansion.ts';
import { defineHandler } from './handler.ts';

export const promptExpansion = defineHandler({
  kind: 'prompt_expansion',
  target: (deps) => ({ lane: 'chat', engine: deps.config.chat ? 'chat' : 'builtin' }),
  async run(ctx, r) {
    ctx.expect(1);
    ctx.report({ logs: [`Expanding the prompt into ${r.num_sequences} variant(s)`] });
    const result = await expandPrompt(ctx.deps.config.chat, r.prompt, r.num_sequences, ctx.signal);
    // Expanded prompts are moderated like typed ones: a rejected variant is dropped, nsfw terms stripped.
    const prompts = result.prompts.flatMap((p) => {
      const verdict = moderatePrompt(p);
      return verdict.allowed ? [verdict.sanitizedPrompt] : [];
    });
    return { output: { prompts, engine: result.engine } };
  },
});
