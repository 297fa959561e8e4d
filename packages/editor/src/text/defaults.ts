import {
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
 * The TEXT layer's own defaults (font size 50) stay for plain text.
 */
export function newBubbleData(options: { vertical?: boolean; text?: string } & Partial<TextData> = {}): TextData {
  const { vertical = false, ...rest } = options;
  return zTextData.parse({
    backgroundType: 'SPEECH_BUBBLE',
    bubbleStyle: DEFAULT_BUBBLE_STYLE,
    vertical,
    fontSize: vertical ? DIALOGUE_FONT_SIZE_VERTICAL : DIALOGUE_FONT_SIZE,
    fontName: vertical ? DEFAULT_VERTICAL_FONT_NAME : DEFAULT_FONT_NAME,
    ...rest,
  });
}
