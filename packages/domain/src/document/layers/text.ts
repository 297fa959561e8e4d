import { z } from 'zod';
import { zColor } from '../geometry.ts';

export const TEXT_BACKGROUND_TYPES = ['NONE', 'RECTANGLE', 'SPEECH_BUBBLE'] as const;
export const TEXT_ALIGNS = ['left', 'center', 'right'] as const;
/** How text and its box are fitted: the box grows to hold the text, or the text shrinks to fit the box. */
export const TEXT_FITS = ['grow', 'shrink'] as const;
export type TextFit = (typeof TEXT_FITS)[number];
export const DEFAULT_FONT_NAME = 'Komika';
export const DEFAULT_VERTICAL_FONT_NAME = 'Noto Sans JP';

export const zPaddings = z.object({
  top: z.number().min(0),
  right: z.number().min(0),
  bottom: z.number().min(0),
  left: z.number().min(0),
});
export type Paddings = z.infer<typeof zPaddings>;

/** TEXT layer data with the defaults of editor.md §3; where the spec gives no value, docs/decisions/document.md says why. */
export const zTextData = z.object({
  backgroundType: z.enum(TEXT_BACKGROUND_TYPES).default('NONE'),
  bubbleStyle: z
    .string()
    .regex(/^b\d+$/, 'a bubble id such as b0')
    .default('b0'),
  backgroundBorderSize: z.number().min(0).default(5),
  paddings: zPaddings.default(() => ({ top: 20, right: 20, bottom: 20, left: 20 })),
  autoPadding: z.boolean().default(true),
  backgroundColor: zColor.default('#fff'),
  backgroundStrokeColor: zColor.default('#000'),
  hasTail: z.boolean().default(true),
  tailWidth: z.number().min(0).default(10),
  tailGap: z.number().min(0).default(0.2),
  tailLength: z.number().min(0).default(100),
  /** Degrees, clockwise from the positive x axis (screen coordinates): 90 points straight down. */
  tailAngle: z.number().default(90),
  fontSize: z.number().positive().default(50),
  fontName: z.string().min(1).default(DEFAULT_FONT_NAME),
  fontBold: z.boolean().default(false),
  fontItalic: z.boolean().default(false),
  fontColor: zColor.default('#000'),
  fontStroke: z.boolean().default(false),
  fontStrokeColor: zColor.default('#fff'),
  fontStrokeSize: z.number().min(0).default(5),
  text: z.string().default('Enter Text'),
  textAlign: z.enum(TEXT_ALIGNS).default('center'),
  vertical: z.boolean().default(false),
  pinToFace: z.boolean().default(false),
  tailTargetLayerId: z.string().nullable().default(null),
  tailTargetFaceIdx: z.number().int().min(0).nullable().default(null),
  wobbleAmplitude: z.number().min(0).default(0),
  wobbleFrequency: z.number().min(0).default(0),
  wobblePhase: z.number().default(0),
  characterSpacing: z.number().default(1),
  lineSpacing: z.number().positive().default(1),
  rectRounding: z.number().min(0).default(0),
  /** Vertical text: short runs of half-width digits or !? set upright side by side in one em (tate-chū-yoko). */
  tateChuYoko: z.boolean().default(true),
  /** The longest run set that way: 2, or 3 for "100" and "!!!". */
  tateChuYokoLength: z.number().int().min(2).max(3).default(2),
  /**
   * 'grow' (the spec's behaviour): the box grows to hold its text. 'shrink': the box keeps its size and the font
   * steps down from fontSize (to SHRINK_FONT_FLOOR) until the text fits. Optional in version 2 documents.
   */
  textFit: z.enum(TEXT_FITS).default('grow'),
  /**
   * The speech bubble this one is joined to (the pair drawn as one outline); both name each other. A link to a
   * layer that is missing or does not link back is dropped when the document is loaded.
   */
  linkedBubbleId: z.string().min(1).nullable().default(null),
});
export type TextData = z.infer<typeof zTextData>;
