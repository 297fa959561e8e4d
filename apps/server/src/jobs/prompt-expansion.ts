import { EngineError } from '../engines/errors.ts';
import { chatCompletion } from '../engines/openai/chat.ts';
import type { JobConfig } from './config.ts';

/** Tag vocabularies of the builtin expander: each variant adds one tag from each group, chosen by the prompt. */
const VOCABULARY: readonly (readonly string[])[] = [
  ['masterpiece', 'best quality', 'highly detailed', 'sharp focus', 'clean lineart'],
  ['dynamic angle', 'close-up', 'wide shot', 'from below', 'from above', 'cowboy shot', 'full body'],
  ['soft lighting', 'dramatic lighting', 'rim light', 'golden hour', 'moonlight', 'backlighting', 'neon glow'],
  ['screentone shading', 'cel shading', 'ink wash', 'watercolor', 'flat colors', 'high contrast monochrome'],
  ['cherry blossoms', 'city street', 'classroom', 'rooftop', 'forest clearing', 'rainy night', 'seaside'],
  ['expressive eyes', 'wind-swept hair', 'motion lines', 'speed lines', 'sparkles', 'depth of field'],
];

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Deterministic expansion: the same prompt always gives the same variants, each different from the others. */
export function builtinExpand(prompt: string, count: number): string[] {
  const base = prompt.trim();
  const seed = hash(base.toLowerCase());
  const prompts: string[] = [];
  for (let i = 0; i < count; i++) {
    const tags = VOCABULARY.map((group, g) => group[(seed + i * (g + 1) + g * 7) % group.length]!).filter(
      (tag) => !base.toLowerCase().includes(tag),
    );
    prompts.push([base, ...tags].join(', '));
  }
  return prompts;
}

/** Asks an OpenAI-compatible chat endpoint (through the openai client) for `count` rewrites; the builtin expander when none is configured. */
export async function expandPrompt(
  chat: JobConfig['chat'],
  prompt: string,
  count: number,
  signal: AbortSignal,
): Promise<{ prompts: string[]; engine: 'chat' | 'builtin' }> {
  if (!chat) return { prompts: builtinExpand(prompt, count), engine: 'builtin' };
  const content = await chatCompletion(
    chat,
    [
      {
        role: 'system',
        content:
          'You expand prompts for an anime and manga image generator. Answer with a JSON array of strings only: ' +
          'each a richer comma-separated tag prompt that keeps the subject of the original. No nudity.',
      },
      { role: 'user', content: `Give ${count} expansions of: ${prompt}` },
    ],
    0.9,
    signal,
  );
  const prompts = parsePrompts(content).slice(0, count);
  if (prompts.length === 0) throw new EngineError('engine_failed', 'Prompt expansion service returned no prompts');
  return { prompts, engine: 'chat' };
}

/** A JSON array of strings, or else one prompt per non-empty line (models do not always follow the format). */
export function parsePrompts(content: string): string[] {
  const start = content.indexOf('[');
  const end = content.lastIndexOf(']');
  if (start >= 0 && end > start) {
    try {
      const parsed = JSON.parse(content.slice(start, end + 1)) as unknown;
      if (Array.isArray(parsed)) return parsed.filter((p): p is string => typeof p === 'string' && p.trim() !== '');
    } catch {
      // fall through to lines
    }
  }
  return content
    .split('\n')
    .map((l) => l.replace(/^\s*(\d+[.)]|[-*])\s*/, '').trim())
    .filter((l) => l !== '');
}
