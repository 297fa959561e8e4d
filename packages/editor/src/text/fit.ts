import {
  BUBBLE_LINE_SPACING_FACTOR,
  BUBBLE_LINE_SPACING_FACTOR_VERTICAL,
  proceduralBubbleKind,
  type Paddings,
  type Rect,
  type TextData,
} from '@koma/domain';
import { parseRuby, placeRuby, type BaseExtent, type RubyMark } from './ruby.ts';
import type { MeasureText } from './font.ts';
import { layoutHorizontal, type HorizontalLayout } from './layout-horizontal.ts';
import { layoutVertical, type VerticalLayout } from './layout-vertical.ts';
import { bubbleTextArea } from './outline.ts';
import { bubbleLook } from './paint-bubble.ts';
import { wobbleOf } from './procedural-outline.ts';

export type TextLayout = (HorizontalLayout | VerticalLayout) & {
  /** Readings (furigana) of `｜漢字《かんじ》` notation, at half size above the line or right of the column. */
  ruby: RubyMark[];
};

/**
 * Lays out a TEXT layer's text, vertically or horizontally as its data says. Ruby notation prints as its base text
 * with the reading beside it; lines (columns) then stand half an em further apart to make room for the readings.
 */
export function layoutText(data: TextData, measure: MeasureText): TextLayout {
  const parsed = parseRuby(data.text);
  if (!parsed.ok || parsed.spans.length === 0) {
    const layout = data.vertical ? layoutVertical(data, measure) : layoutHorizontal(data, measure);
    return { ...layout, ruby: [] };
  }
  const half = data.fontSize / 2;
  const factor = data.vertical ? 1 + BUBBLE_LINE_SPACING_FACTOR_VERTICAL : 1 + BUBBLE_LINE_SPACING_FACTOR;
  const spaced = { ...data, text: parsed.text, lineSpacing: data.lineSpacing + 0.5 / factor };
  const plain = Array.from(parsed.text);
  const bases = new Map<number, BaseExtent>();
  let cursor = 0;
  // Follows the base text through wrapping (which may drop spaces and breaks) to each printed character.
  const locate = (char: string, extent: BaseExtent) => {
    while (cursor < plain.length && plain[cursor] !== char) cursor++;
    if (cursor < plain.length) bases.set(cursor++, extent);
  };
  if (data.vertical) {
    const layout = layoutVertical(spaced, measure);
    for (const column of layout.columns)
      for (const glyph of column.glyphs)
        for (const char of Array.from(glyph.text))
          locate(char, {
            from: glyph.y - glyph.advance / 2,
            to: glyph.y + glyph.advance / 2,
            across: column.x + data.fontSize / 2 + half / 2,
          });
    return { ...layout, width: layout.width + half, ruby: placeRuby(parsed.spans, bases, half, true) };
  }
  const base = layoutHorizontal(spaced, measure);
  // Glyphs rise a little above the em box's top, so the reading sits a touch higher than the half em left for it.
  const lines = base.lines.map((line) => ({ ...line, y: line.y + half }));
  for (const line of lines)
    for (const glyph of line.glyphs) {
      const x = line.x + glyph.x;
      locate(glyph.text, { from: x, to: x + measure(glyph.text, base.font).width, across: line.y - half * 0.65 });
    }
  return { ...base, lines, height: base.height + half, ruby: placeRuby(parsed.spans, bases, half, false) };
}

/** A background sized to its text. */
export interface FittedBubble {
  /** Size of the background box (the layer's size). */
  width: number;
  height: number;
  /** Where the layout's box sits inside the background box: draw the layout translated by (x, y). */
  textBox: Rect;
  /** The paddings actually used (automatic ones are computed from the shape). */
  paddings: Paddings;
  layout: TextLayout;
}

/** Room kept between text and the inside of an outline, in ems, on top of half the border. */
const AUTO_MARGIN_EM = 0.25;
const RECT_MARGIN_EM = 0.4;
/** The flattest a round procedural bubble gets: its shorter side is at least this fraction of its longer one. */
export const MIN_ROUND_ASPECT = 0.45;
const ROUND_KINDS: ReadonlySet<string> = new Set(['ellipse', 'wobbly-ellipse', 'burst', 'cloud', 'thought']);

/** Room between a rectangle's edge and its text: 0.4 em, half the border and what the rounding takes. */
function rectMargin(data: TextData): number {
  return data.fontSize * RECT_MARGIN_EM + data.backgroundBorderSize / 2 + data.rectRounding * (1 - Math.SQRT1_2);
}

/** Room between a speech bubble's text area and its text: clear of the ink inside (half the stroke, or a double
 * outline's inner line) plus a quarter em. */
function bubbleMargin(data: TextData): number {
  return data.fontSize * AUTO_MARGIN_EM + data.backgroundBorderSize * bubbleLook(data.bubbleStyle).innerDepth;
}

/**
 * Where the laid-out text must fit in a layer of the given size — the inverse of fitBubble: the box less the
 * paddings (as set, or the automatic margins of its background at the data's font size). May be empty.
 */
export function textRoom(data: TextData, width: number, height: number): Rect {
  const inset = (r: Rect, top: number, right: number, bottom: number, left: number): Rect => ({
    x: r.x + left,
    y: r.y + top,
    width: Math.max(0, r.width - left - right),
    height: Math.max(0, r.height - top - bottom),
  });
  const whole = { x: 0, y: 0, width, height };
  if (data.backgroundType === 'NONE') return whole;
  if (!data.autoPadding) {
    const p = data.paddings;
    return inset(whole, p.top, p.right, p.bottom, p.left);
  }
  if (data.backgroundType === 'RECTANGLE') {
    const m = rectMargin(data);
    return inset(whole, m, m, m, m);
  }
  const m = bubbleMargin(data);
  return inset(bubbleTextArea(data.bubbleStyle, width, height, wobbleOf(data)), m, m, m, m);
}

function result(width: number, height: number, textBox: Rect, layout: TextLayout): FittedBubble {
  return {
    width,
    height,
    textBox,
    layout,
    paddings: {
      top: textBox.y,
      left: textBox.x,
      right: width - textBox.x - textBox.width,
      bottom: height - textBox.y - textBox.height,
    },
  };
}

/**
 * The background size that holds the laid-out text plus paddings — the bubble grows to fit its text.
 * With autoPadding a speech bubble is sized from its shape's text area (an ellipse needs √2 × the text box, a burst
 * more, a caption box barely more), a rectangle gets a margin of 0.4 em plus its rounding; otherwise the layer's
 * paddings are added as they are. NONE backgrounds are exactly the text box.
 */
export function fitBubble(data: TextData, measure: MeasureText): FittedBubble {
  const layout = layoutText(data, measure);
  const tw = layout.width;
  const th = layout.height;
  if (data.backgroundType === 'NONE') return result(tw, th, { x: 0, y: 0, width: tw, height: th }, layout);

  if (!data.autoPadding) {
    const p = data.paddings;
    return result(tw + p.left + p.right, th + p.top + p.bottom, { x: p.left, y: p.top, width: tw, height: th }, layout);
  }

  if (data.backgroundType === 'RECTANGLE') {
    const m = rectMargin(data);
    return result(tw + 2 * m, th + 2 * m, { x: m, y: m, width: tw, height: th }, layout);
  }

  const m = bubbleMargin(data);
  const innerW = tw + 2 * m;
  const innerH = th + 2 * m;
  const wobble = wobbleOf(data);
  // Most shapes scale their text area with the box; a few (rounded corners) do not, so settle by iteration.
  let width = Math.max(1, innerW * 1.5);
  let height = Math.max(1, innerH * 1.5);
  // Each step shrinks the error by the share of the box the margins take (at most about 0.6), so 60 steps settle
  // far below a pixel; shapes that scale uniformly settle on the first.
  for (let i = 0; i < 60; i++) {
    const area = bubbleTextArea(data.bubbleStyle, width, height, wobble);
    const nextW = Math.max(1, innerW / (area.width / width));
    const nextH = Math.max(1, innerH / (area.height / height));
    const settled = Math.abs(nextW - width) < 1e-9 * nextW && Math.abs(nextH - height) < 1e-9 * nextH;
    width = nextW;
    height = nextH;
    if (settled) break;
  }
  // Grow a hair so the last iteration's rounding can never leave the text poking out.
  width *= 1.001;
  height *= 1.001;
  if (ROUND_KINDS.has(proceduralBubbleKind(data.bubbleStyle) ?? 'catalogue')) {
    // One line of dialogue would make a needle of an oval or burst; round shapes keep a sane proportion instead
    // (growing an axis-scaled shape only enlarges its text area, so the text still fits).
    width = Math.max(width, height * MIN_ROUND_ASPECT);
    height = Math.max(height, width * MIN_ROUND_ASPECT);
  }
  let area = bubbleTextArea(data.bubbleStyle, width, height, wobble);
  // A rippled box's sampling moves with its size, so the last step can leave the area a hair short: grow past it.
  for (let i = 0; i < 8 && (area.width < tw || area.height < th); i++) {
    width += Math.max(0, tw - area.width) * 2 + 0.01;
    height += Math.max(0, th - area.height) * 2 + 0.01;
    area = bubbleTextArea(data.bubbleStyle, width, height, wobble);
  }
  const textBox = {
    x: area.x + (area.width - tw) / 2,
    y: area.y + (area.height - th) / 2,
    width: tw,
    height: th,
  };
  return result(width, height, textBox, layout);
}
