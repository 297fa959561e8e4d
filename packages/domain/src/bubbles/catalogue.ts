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
  draw?: (w: number, h: number) => DrawnShape;
}

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
  b7: { name: 'Caption box', width: 800, height: 167, draw: (w, h) => rectRings(w, h, 0, ['FILL_FG', 'FILL_BG'], 8) },
  b8: {
    name: 'Rounded rectangle',
    width: 800,
    height: 300,
    draw: (w, h) => rectRings(w, h, 60, ['FILL_FG', 'FILL_BG'], 10),
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
  b13: { name: 'Electronic voice', width: 800, height: 400, draw: (w, h) => wavyRect(w, h, 180, 9, 'zigzag') },
  b14: { name: 'Flash', width: 800, height: 800, draw: (w, h) => flash(w, h, 130) },
  b15: { name: 'Scream', width: 702.9, height: 600, draw: (w, h) => burst(w, h, 13, 0.62, 0.3, 15) },
  b16: {
    name: 'Notched caption',
    width: 800,
    height: 250,
    draw: (w, h) =>
      convexPolygon(
        w,
        h,
        [
          { x: 32, y: 2 },
          { x: w - 32, y: 2 },
          { x: w - 2, y: 32 },
          { x: w - 2, y: h - 32 },
          { x: w - 32, y: h - 2 },
          { x: 32, y: h - 2 },
          { x: 2, y: h - 32 },
          { x: 2, y: 32 },
        ],
        10,
        { x: 30, y: 30 },
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
    draw: (w, h) =>
      convexPolygon(
        w,
        h,
        [
          { x: 60, y: 2 },
          { x: w - 60, y: 2 },
          { x: w - 2, y: h / 2 },
          { x: w - 60, y: h - 2 },
          { x: 60, y: h - 2 },
          { x: 2, y: h / 2 },
        ],
        10,
        { x: 100, y: 30 },
      ),
  },
  b24: { name: 'Wide oval', width: 800, height: 207, draw: (w, h) => radialRing(w, h, 8) },
  b25: { name: 'Wide cloud', width: 800, height: 400, draw: (w, h) => radialRing(w, h, 9, cloudProfile(16, 0.1), 0.9) },
  b26: { name: 'Needle burst', width: 800, height: 600, draw: (w, h) => burst(w, h, 30, 0.8, 0.2, 26) },
  b27: { name: 'Whisper caption, dashed', width: 800, height: 300, draw: (w, h) => dashedRect(w, h, 24) },
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
    draw: (w, h) => rectRings(w, h, 50, ['FILL_FG', 'FILL_BG', 'FILL_FG', 'FILL_BG'], 8),
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
  b34: { name: 'Shaky box', width: 800, height: 400, draw: (w, h) => wavyRect(w, h, 240, 6, 'sine') },
  b35: { name: 'Thought (procedural)', width: 800, height: 550 },
  b36: { name: 'Bold oval', width: 800, height: 500, draw: (w, h) => radialRing(w, h, 26) },
  b37: { name: 'Zig-zag shout box', width: 800, height: 450, draw: (w, h) => wavyRect(w, h, 120, 16, 'zigzag') },
  b38: { name: 'Narration box', width: 800, height: 770, draw: (w, h) => concaveBox(w, h, 60) },
};

// The procedural b0 still carries its ellipse as path data, so tools that only read the catalogue can draw it.
const built = Object.entries(SHAPES).map(([id, shape]) => {
  const drawn = shape.draw?.(shape.width, shape.height);
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
