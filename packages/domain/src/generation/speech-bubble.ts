import { z } from 'zod';

/** Colour slots a bubble outline is filled with. */
export const BUBBLE_FILLS = ['FILL_FG', 'FILL_BG', 'FILL_UNKNOWN'] as const;
export type BubbleFill = (typeof BUBBLE_FILLS)[number];

export const zSpeechBubblePath = z.object({
  path: z.string().min(1),
  fill: z.enum(BUBBLE_FILLS),
});

/** A speech-bubble catalogue entry (generation.md §3); the shapes themselves live elsewhere. */
export const zSpeechBubble = z.object({
  id: z.string().min(1),
  thumbnail: z.string().regex(/(^|\/)speech_bubbles\/[^/]+\.svg$/, 'an SVG path under speech_bubbles/'),
  width: z.number().positive(),
  height: z.number().positive(),
  paths: z.array(zSpeechBubblePath),
});
export type SpeechBubble = z.infer<typeof zSpeechBubble>;
