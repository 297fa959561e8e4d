import {
  CAPTION_BUBBLE_STYLES,
  DEFAULT_BUBBLE_STYLE,
  DEFAULT_FONT_NAME,
  DEFAULT_VERTICAL_FONT_NAME,
  DIALOGUE_FONT_SIZE,
  DIALOGUE_FONT_SIZE_VERTICAL,
  zTextData,
  type TextData,
} from '@koma/domain';

/**
 * Data of a new speech bubble: dialogue font size 30 (35 vertical), the Japanese gothic font when vertical, style b0.
 * Caption and narration styles start without a tail. The TEXT layer's own defaults (font size 50) stay for plain text.
 */
export function newBubbleData(options: { vertical?: boolean; text?: string } & Partial<TextData> = {}): TextData {
  const { vertical = false, ...rest } = options;
  const style = rest.bubbleStyle ?? DEFAULT_BUBBLE_STYLE;
  return zTextData.parse({
    backgroundType: 'SPEECH_BUBBLE',
    bubbleStyle: style,
    hasTail: !CAPTION_BUBBLE_STYLES.has(style),
    vertical,
    fontSize: vertical ? DIALOGUE_FONT_SIZE_VERTICAL : DIALOGUE_FONT_SIZE,
    fontName: vertical ? DEFAULT_VERTICAL_FONT_NAME : DEFAULT_FONT_NAME,
    ...rest,
  });
}

/**
 * The change of a bubble to another style: a caption or narration box drops its tail, and a caption that becomes a
 * speech bubble gets one back; between two styles of the same kind the tail stays as the user left it.
 */
export function bubbleStylePatch(data: Pick<TextData, 'bubbleStyle' | 'hasTail'>, style: string): Partial<TextData> {
  const wasCaption = CAPTION_BUBBLE_STYLES.has(data.bubbleStyle);
  const isCaption = CAPTION_BUBBLE_STYLES.has(style);
  if (wasCaption === isCaption) return { bubbleStyle: style };
  return { bubbleStyle: style, hasTail: !isCaption };
}
