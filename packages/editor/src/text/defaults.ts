import {
  CAPTION_BUBBLE_STYLES,
  COMIC_PAGE_HEIGHT,
  COMIC_PAGE_WIDTH,
  DEFAULT_BUBBLE_STYLE,
  DEFAULT_FONT_NAME,
  DEFAULT_VERTICAL_FONT_NAME,
  DIALOGUE_FONT_SIZE,
  DIALOGUE_FONT_SIZE_VERTICAL,
  pageSetupBoxes,
  zTextData,
  type PageSetup,
  type TextData,
} from '@koma/domain';

/**
 * How much larger new lettering starts on a page of this setup than on the spec's 1700×2400 page, so that it takes
 * the same share of the page: a B5 manuscript at 350 dpi (trim 2508×3541 px) gets ×1.48, at 600 dpi ×2.53. The
 * trim's narrower ratio decides, so a long webtoon strip (800 px wide) scales with its width, not its length.
 */
export function letteringScale(setup: PageSetup): number {
  const { trim } = pageSetupBoxes(setup);
  const scale = Math.min(trim.width / COMIC_PAGE_WIDTH, trim.height / COMIC_PAGE_HEIGHT);
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
}

/**
 * Text data with every length (font, outline, border, paddings, tail, rounding, wobble) multiplied by `scale`;
 * rounded to tenths of a pixel for new lettering, exact when existing lettering follows its page.
 */
export function scaledTextData(data: TextData, scale: number, round = true): TextData {
  if (scale === 1) return data;
  const px = round ? (v: number) => Math.round(v * scale * 10) / 10 : (v: number) => v * scale;
  return {
    ...data,
    fontSize: px(data.fontSize),
    fontStrokeSize: px(data.fontStrokeSize),
    backgroundBorderSize: px(data.backgroundBorderSize),
    paddings: {
      top: px(data.paddings.top),
      right: px(data.paddings.right),
      bottom: px(data.paddings.bottom),
      left: px(data.paddings.left),
    },
    tailWidth: px(data.tailWidth),
    tailLength: px(data.tailLength),
    rectRounding: px(data.rectRounding),
    wobbleAmplitude: px(data.wobbleAmplitude),
  };
}

/** The box of a new bubble on the page: landscape for horizontal text, portrait for vertical columns. */
export function newBubbleBox(vertical: boolean, scale = 1): { width: number; height: number } {
  const [width, height] = vertical ? [240, 360] : [360, 240];
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

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
