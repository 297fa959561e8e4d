import type { TextData } from '@koma/domain';
import type { MeasureText } from './font.ts';
import { layoutText, textRoom, type TextLayout } from './fit.ts';

/** The smallest size shrink-to-fit goes to; below it text stops being readable in print, so it overflows instead. */
export const SHRINK_FONT_FLOOR = 6;

/** The text as a layer of a given size shows it. */
export interface ShownText {
  /** The data drawn: the layer's own, or with the font size that fits. */
  data: TextData;
  layout: TextLayout;
  /** Shrink-to-fit at the floor and the text still does not fit: it is drawn overflowing, and the tab says so. */
  overflow: boolean;
}

function fits(data: TextData, width: number, height: number, measure: MeasureText): TextLayout | null {
  const layout = layoutText(data, measure);
  const room = textRoom(data, width, height);
  // A hair of slack for the sub-pixel sums of the layout.
  const slack = 1e-6 * Math.max(1, room.width, room.height);
  return layout.width <= room.width + slack && layout.height <= room.height + slack ? layout : null;
}

/**
 * The text of a TEXT layer laid out in a box of `width` × `height`. With `textFit: 'shrink'` the font steps down in
 * whole pixels from the layer's fontSize until the laid-out text fits the background's text area (both directions,
 * horizontal and vertical text alike), never below SHRINK_FONT_FLOOR. The search halves the range: with wrapping by
 * character count the layout only scales with the size, so the largest size that fits is found in a few layouts.
 */
export function shownText(data: TextData, width: number, height: number, measure: MeasureText): ShownText {
  if (data.textFit !== 'shrink') return { data, layout: layoutText(data, measure), overflow: false };
  const whole = fits(data, width, height, measure);
  if (whole) return { data, layout: whole, overflow: false };
  const at = (fontSize: number) => ({ ...data, fontSize });
  let lo = SHRINK_FONT_FLOOR;
  let hi = Math.ceil(data.fontSize) - 1;
  let best: { data: TextData; layout: TextLayout } | null = null;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const candidate = at(mid);
    const layout = fits(candidate, width, height, measure);
    if (layout) {
      best = { data: candidate, layout };
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best) return { ...best, overflow: false };
  const floor = at(Math.min(data.fontSize, SHRINK_FONT_FLOOR));
  return { data: floor, layout: layoutText(floor, measure), overflow: true };
}
