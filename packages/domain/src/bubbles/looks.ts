/**
 * How a style is drawn at any size: the editor scales its silhouette to the bubble's box, merges the tail into it
 * and strokes the result at the layer's border size, so the outline keeps one weight whatever the aspect. The
 * catalogue's own FG/BG rings stay the thumbnails' and the catalogue's data (generation.md §3).
 */
export interface BubbleLook {
  /** single: one stroke; double: a second line inside; two-tone: a band of the third colour inside; dashed: a whisper. */
  ring: 'single' | 'double' | 'two-tone' | 'dashed';
  /** Stroke width as a multiple of the layer's border size (heavy and bold outlines are more than 1). */
  weight: number;
  /** Drop shadow offset as a fraction of the box's shorter side; 0 for none. */
  shadow: number;
  /** Flash lines radiate from the outline. */
  flash: boolean;
  /** A caption or narration box: no tail by default. */
  caption: boolean;
}

const PLAIN: BubbleLook = { ring: 'single', weight: 1, shadow: 0, flash: false, caption: false };

const LOOKS: Readonly<Record<string, Partial<BubbleLook>>> = {
  b1: { weight: 1.8 },
  b5: { ring: 'dashed' },
  b7: { caption: true },
  b9: { ring: 'double' },
  // The catalogue's shadow sits 18 units off a 480-high oval.
  b10: { shadow: 18 / 480 },
  b14: { flash: true },
  b16: { caption: true },
  b22: { ring: 'two-tone' },
  b23: { caption: true },
  b27: { ring: 'dashed', caption: true },
  b29: { ring: 'double' },
  b36: { weight: 2.6 },
  b38: { caption: true },
};

/** The look of a style (an unknown style looks like the plain oval). */
export function bubbleLookOf(style: string): BubbleLook {
  return { ...PLAIN, ...(Object.hasOwn(LOOKS, style) ? LOOKS[style] : {}) };
}

/** Caption and narration styles, which get no tail by default. */
export const CAPTION_BUBBLE_STYLES: ReadonlySet<string> = new Set(
  Object.entries(LOOKS)
    .filter(([, look]) => look.caption)
    .map(([id]) => id),
);
