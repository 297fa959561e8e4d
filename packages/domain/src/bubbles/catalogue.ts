import { zSpeechBubble, type SpeechBubble } from '../generation/speech-bubble.ts';
import {
  burst,
  concaveBox,
  convexPolygon,
  dashedEllipse,
  dashedRect,
  drippingOval,
  flash,
  nestedRings,
  radialRing,
  rectRings,
  regularPolygon,
  shadowedOval,
  thought,
  wavyRect,
  type DrawnShape,
} from './drawn-shapes.ts';
import type { Rect } from '../panels/shape.ts';
import type { Point } from '../document/geometry.ts';
import { cloudProfile, waveProfile } from './shapes.ts';

/** Styles with no path data: the editor draws them from their kind, size and wobble (see PROCEDURAL_BUBBLE_KINDS). */
export const PROCEDURAL_BUBBLE_KINDS = {
  b0: 'ellipse',
  b12: 'wobbly-ellipse',
  b17: 'burst',
  b21: 'rounded-rect',
  b32: 'cloud',
  b35: 'thought',
} as const;
export type ProceduralBubbleKind = (typeof PROCEDURAL_BUBBLE_KINDS)[keyof typeof PROCEDURAL_BUBBLE_KINDS];

/** Styles whose tail is a trail of shrinking circles rather than a wedge. */
export const THOUGHT_BUBBLE_STYLES: ReadonlySet<string> = new Set(['b3', 'b30', 'b35']);

/** The default style of a new speech bubble. */
export const DEFAULT_BUBBLE_STYLE = 'b0';

interface Drawn {
  /** What the shape is for, in a few words (shown as the thumbnail's title). */
  name: string;
  width: number;
  height: number;
  /**
   * The shape at a size. `k` scales fixed-size features (corner radii, insets): 1 at the catalogue size.
   * Styles that read `k` are rebuilt at the bubble's size rather than stretched (see `drawnOutlineAt`).
   */
  draw?: (w: number, h: number, k: number) => DrawnShape;
  /** Rebuilt at the bubble's size so corners stay round and teeth keep their pitch at any aspect. */
  atSize?: boolean;
}

/** Teeth of a wavy edge at a size: the catalogue's pitch times k, a whole number of waves around. */
const wavy =
  (W: number, H: number, samples: number, amp: number, kind: 'sine' | 'zigzag') =>
  (w: number, h: number): DrawnShape => {
    if (w === W && h === H) return wavyRect(w, h, samples, amp, kind);
    // Teeth follow the box's overall scale, so a tall box keeps visible teeth on its short sides.
    const k = Math.sqrt((w / W) * (h / H));
    const pitch = ((2 * (W + H)) / samples) * k;
    const period = kind === 'sine' ? 8 : 2;
    const count = Math.max(period * 4, Math.round((2 * (w + h)) / pitch / period) * period);
    return wavyRect(w, h, count, amp * k, kind, k);
  };

// Sizes follow generation.md §3: width 800 except the five named exceptions in b1–b23 and one 514.2×800
// portrait in b24–b38; heights from 167 to 800 in the first group and 207 to 770 (plus the portrait) in the second.
const SHAPES: Record<string, Drawn> = {
  b0: { name: 'Oval', width: 800, height: 500, draw: (w, h) => radialRing(w, h, 10) },
  b1: { name: 'Oval, heavy outline', width: 800, height: 480, draw: (w, h) => radialRing(w, h, 18) },
  b2: { name: 'Cloud', width: 800, height: 520, draw: (w, h) => radialRing(w, h, 10, cloudProfile(14, 0.12), 0.88) },
  b3: {
    name: 'Thought, trailing circles',
    width: 800,
    height: 600,
    draw: () =>
      thought({ cx: 400, cy: 250, rx: 390, ry: 240 }, 12, [
        [170, 530, 34],
        [95, 578, 20],
      ]),
  },
  b4: { name: 'Shout burst', width: 800, height: 560, draw: (w, h) => burst(w, h, 18, 0.72, 0.12, 4) },
  b5: { name: 'Whisper, dashed', width: 800, height: 450, draw: dashedEllipse },
  b6: {
    name: 'Fear, wavy',
    width: 800,
    height: 500,
    draw: (w, h) => radialRing(w, h, 10, waveProfile(22, 0.06), 0.94),
  },
  b7: {
    name: 'Caption box',
    width: 800,
    height: 167,
    atSize: true,
    draw: (w, h, k) => rectRings(w, h, 0, ['FILL_FG', 'FILL_BG'], 8 * k, k),
  },
  b8: {
    name: 'Rounded rectangle',
    width: 800,
    height: 300,
    atSize: true,
    draw: (w, h, k) => rectRings(w, h, 60 * k, ['FILL_FG', 'FILL_BG'], 10 * k, k),
  },
  b9: {
    name: 'Double outline',
    width: 800,
    height: 480,
    draw: (w, h) => nestedRings(w, h, ['FILL_FG', 'FILL_BG', 'FILL_FG', 'FILL_BG'], 8),
  },
  b10: { name: 'Oval with shadow', width: 741.8, height: 480, draw: (w, h) => shadowedOval(w, h, 18) },
  b11: { name: 'Tall oval', width: 474.5, height: 800, draw: (w, h) => radialRing(w, h, 10) },
  b12: { name: 'Hand-drawn oval (procedural)', width: 800, height: 500 },
  b13: { name: 'Electronic voice', width: 800, height: 400, atSize: true, draw: wavy(800, 400, 180, 9, 'zigzag') },
  b14: { name: 'Flash', width: 800, height: 800, draw: (w, h) => flash(w, h, 130) },
  b15: { name: 'Scream', width: 702.9, height: 600, draw: (w, h) => burst(w, h, 13, 0.62, 0.3, 15) },
  b16: {
    name: 'Notched caption',
    width: 800,
    height: 250,
    atSize: true,
    draw: (w, h, k) =>
      convexPolygon(
        w,
        h,
        [
          { x: 32 * k, y: 2 * k },
          { x: w - 32 * k, y: 2 * k },
          { x: w - 2 * k, y: 32 * k },
          { x: w - 2 * k, y: h - 32 * k },
          { x: w - 32 * k, y: h - 2 * k },
          { x: 32 * k, y: h - 2 * k },
          { x: 2 * k, y: h - 32 * k },
          { x: 2 * k, y: 32 * k },
        ],
        10 * k,
        { x: 30 * k, y: 30 * k },
      ),
  },
  b17: { name: 'Burst (procedural)', width: 800, height: 560 },
  b18: { name: 'Hexagon', width: 660.5, height: 560, draw: (w, h) => regularPolygon(w, h, 6, 0) },
  b19: { name: 'Circle', width: 549.3, height: 549.3, draw: (w, h) => radialRing(w, h, 10) },
  b20: { name: 'Dripping', width: 800, height: 450, draw: drippingOval },
  b21: { name: 'Rounded box (procedural)', width: 800, height: 300 },
  b22: {
    name: 'Two-tone outline',
    width: 800,
    height: 420,
    draw: (w, h) => nestedRings(w, h, ['FILL_FG', 'FILL_UNKNOWN', 'FILL_BG'], 8),
  },
  b23: {
    name: 'Signpost caption',
    width: 800,
    height: 260,
    atSize: true,
    draw: (w, h, k) =>
      convexPolygon(
        w,
        h,
        [
          { x: 60 * k, y: 2 * k },
          { x: w - 60 * k, y: 2 * k },
          { x: w - 2 * k, y: h / 2 },
          { x: w - 60 * k, y: h - 2 * k },
          { x: 60 * k, y: h - 2 * k },
          { x: 2 * k, y: h / 2 },
        ],
        10 * k,
        { x: 100 * k, y: 30 * k },
      ),
  },
  b24: { name: 'Wide oval', width: 800, height: 207, draw: (w, h) => radialRing(w, h, 8) },
  b25: { name: 'Wide cloud', width: 800, height: 400, draw: (w, h) => radialRing(w, h, 9, cloudProfile(16, 0.1), 0.9) },
  b26: { name: 'Needle burst', width: 800, height: 600, draw: (w, h) => burst(w, h, 30, 0.8, 0.2, 26) },
  b27: {
    name: 'Whisper caption, dashed',
    width: 800,
    height: 300,
    atSize: true,
    draw: (w, h, k) => dashedRect(w, h, 24 * k, k),
  },
  b28: {
    name: 'Uneven oval',
    width: 800,
    height: 450,
    draw: (w, h) => radialRing(w, h, 10, (t) => waveProfile(5, 0.04, 0.7)(t) * waveProfile(3, 0.03, 2.1)(t), 0.93),
  },
  b29: {
    name: 'Double rounded box',
    width: 800,
    height: 350,
    atSize: true,
    draw: (w, h, k) => rectRings(w, h, 50 * k, ['FILL_FG', 'FILL_BG', 'FILL_FG', 'FILL_BG'], 8 * k, k),
  },
  b30: {
    name: 'Small thought',
    width: 800,
    height: 550,
    draw: () =>
      thought({ cx: 380, cy: 220, rx: 370, ry: 210 }, 10, [
        [640, 470, 30],
        [720, 520, 18],
      ]),
  },
  b31: { name: 'Portrait oval', width: 514.2, height: 800, draw: (w, h) => radialRing(w, h, 10) },
  b32: { name: 'Cloud (procedural)', width: 800, height: 500 },
  b33: { name: 'Octagon', width: 800, height: 500, draw: (w, h) => regularPolygon(w, h, 8, Math.PI / 8) },
  b34: { name: 'Shaky box', width: 800, height: 400, atSize: true, draw: wavy(800, 400, 240, 6, 'sine') },
  b35: { name: 'Thought (procedural)', width: 800, height: 550 },
  b36: { name: 'Bold oval', width: 800, height: 500, draw: (w, h) => radialRing(w, h, 26) },
  b37: { name: 'Zig-zag shout box', width: 800, height: 450, atSize: true, draw: wavy(800, 450, 120, 16, 'zigzag') },
  b38: { name: 'Narration box', width: 800, height: 770, atSize: true, draw: (w, h, k) => concaveBox(w, h, 60 * k, k) },
};

// The procedural b0 still carries its ellipse as path data, so tools that only read the catalogue can draw it.
const built = Object.entries(SHAPES).map(([id, shape]) => {
  const drawn = shape.draw?.(shape.width, shape.height, 1);
  const entry: SpeechBubble = zSpeechBubble.parse({
    id,
    thumbnail: `speech_bubbles/${id}.svg`,
    width: shape.width,
    height: shape.height,
    paths: id !== 'b0' && id in PROCEDURAL_BUBBLE_KINDS ? [] : (drawn?.paths ?? []),
  });
  return { entry, name: shape.name, textArea: drawn?.textArea };
});

/** The speech-bubble catalogue, b0 to b38 in order (generation.md §3). */
export const SPEECH_BUBBLES: readonly SpeechBubble[] = built.map((b) => b.entry);

/** Display names of the catalogue styles, by id. */
export const SPEECH_BUBBLE_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  built.map((b) => [b.entry.id, b.name]),
);

/**
 * Where text goes inside each drawn style, as fractions of its box (x, y, width, height in 0…1).
 * Procedural styles are absent: their text area depends on wobble and is computed by the editor.
 */
export const BUBBLE_TEXT_AREAS: Readonly<Record<string, Rect>> = Object.fromEntries(
  built.flatMap((b) =>
    b.textArea && b.entry.paths.length > 0
      ? [
          [
            b.entry.id,
            {
              x: b.textArea.x / b.entry.width,
              y: b.textArea.y / b.entry.height,
              width: b.textArea.width / b.entry.width,
              height: b.textArea.height / b.entry.height,
            },
          ],
        ]
      : [],
  ),
);

const byId = new Map(SPEECH_BUBBLES.map((b) => [b.id, b]));

/** A catalogue entry by id, or undefined for an unknown style. */
export function getSpeechBubble(id: string): SpeechBubble | undefined {
  return byId.get(id);
}

/** The procedural kind of a style, or undefined when the style is drawn from its catalogue paths. */
export function proceduralBubbleKind(id: string): ProceduralBubbleKind | undefined {
  return Object.hasOwn(PROCEDURAL_BUBBLE_KINDS, id)
    ? PROCEDURAL_BUBBLE_KINDS[id as keyof typeof PROCEDURAL_BUBBLE_KINDS]
    : undefined;
}

const atSizeCache = new Map<string, { outline: Point[]; textArea: Rect }>();

/**
 * The silhouette and text area of a style rebuilt at a size, for styles whose corners or teeth must not stretch
 * with the box (boxes, captions, wavy edges); null for the others, which the editor scales.
 */
export function drawnAtSize(id: string, width: number, height: number): { outline: Point[]; textArea: Rect } | null {
  const shape = Object.hasOwn(SHAPES, id) ? SHAPES[id] : undefined;
  if (!shape?.atSize || !shape.draw || !(width > 0) || !(height > 0)) return null;
  const key = `${id}:${width.toFixed(3)}:${height.toFixed(3)}`;
  const cached = atSizeCache.get(key);
  if (cached) return cached;
  // The smaller axis scale: a corner or a signpost's point never takes more of a side than in the catalogue.
  const k = Math.min(width / shape.width, height / shape.height);
  const { outline, textArea } = shape.draw(width, height, k);
  const result = { outline, textArea };
  if (atSizeCache.size > 512) atSizeCache.clear();
  atSizeCache.set(key, result);
  return result;
}
