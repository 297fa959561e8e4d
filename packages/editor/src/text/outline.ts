import {
  BUBBLE_TEXT_AREAS,
  DEFAULT_BUBBLE_STYLE,
  drawnAtSize,
  flattenPathData,
  getSpeechBubble,
  proceduralBubbleKind,
  signedArea,
  transformPathData,
  type BubbleFill,
  type Point,
  type ProceduralBubbleKind,
  type Rect,
} from '@koma/domain';
import { clockwise } from './polygon.ts';
import { NO_WOBBLE, proceduralOutline, proceduralTextArea, type Wobble } from './procedural-outline.ts';

/** A catalogue path scaled to the bubble's box, in paint order. */
export interface ScaledBubblePath {
  d: string;
  fill: BubbleFill;
}

/** A bubble's shape in its own box (0…width × 0…height). */
export interface BubbleOutline {
  /** The style actually drawn (an unknown style falls back to b0). */
  style: string;
  /** Procedural kind, or 'catalogue' for styles drawn from their path data. */
  kind: ProceduralBubbleKind | 'catalogue';
  width: number;
  height: number;
  /**
   * Closed silhouette, clockwise on screen: the whole outline of a procedural style, the largest subpath of a
   * catalogue style (a thought bubble's body without its circles). Used for hit-testing and to attach the tail.
   */
  points: Point[];
  /** Catalogue styles: every path scaled to the box, painted in order with FG/BG/UNKNOWN colours. Empty otherwise. */
  paths: ScaledBubblePath[];
  /** Where the text goes. */
  textArea: Rect;
}

const silhouettes = new Map<string, Point[]>();
// Every drawn style has a measured text area; this only guards a catalogue entry added without one.
const FALLBACK_AREA: Rect = { x: 0.2, y: 0.2, width: 0.6, height: 0.6 };

/** The catalogue entry's largest subpath, in its own units, cached because flattening is not free. */
function catalogueSilhouette(style: string): Point[] {
  const cached = silhouettes.get(style);
  if (cached) return cached;
  const entry = getSpeechBubble(style);
  let best: Point[] = [];
  // The shape's own fills, not a shadow (b10's shadow is as large as its oval but sits off-centre).
  for (const { path } of (entry?.paths ?? []).filter((p) => p.fill !== 'FILL_UNKNOWN')) {
    for (const poly of flattenPathData(path)) {
      if (Math.abs(signedArea(poly)) > Math.abs(signedArea(best))) best = poly;
    }
  }
  const result = clockwise(best);
  silhouettes.set(style, result);
  return result;
}

const clockwiseAtSize = new WeakMap<Point[], Point[]>();
function atSize(style: string, width: number, height: number): Point[] | null {
  const outline = drawnAtSize(style, width, height)?.outline;
  if (!outline) return null;
  let cw = clockwiseAtSize.get(outline);
  if (!cw) {
    cw = clockwise(outline);
    clockwiseAtSize.set(outline, cw);
  }
  return cw;
}

/** The outline of a bubble style at a size; wobble shapes the procedural styles only. */
export function bubbleOutline(style: string, width: number, height: number, wobble: Wobble = NO_WOBBLE): BubbleOutline {
  const entry = getSpeechBubble(style);
  const drawn = entry ? style : DEFAULT_BUBBLE_STYLE;
  const kind = proceduralBubbleKind(drawn);
  if (kind) {
    return {
      style: drawn,
      kind,
      width,
      height,
      points: clockwise(proceduralOutline(kind, width, height, wobble)),
      paths: [],
      textArea: proceduralTextArea(kind, width, height, wobble),
    };
  }
  const bubble = entry!;
  const sx = width / bubble.width;
  const sy = height / bubble.height;
  const scale = (p: Point): Point => ({ x: p.x * sx, y: p.y * sy });
  return {
    style: drawn,
    kind: 'catalogue',
    width,
    height,
    // Boxes and wavy edges are rebuilt at the size (round corners stay round); the rest scale.
    points: atSize(drawn, width, height) ?? catalogueSilhouette(drawn).map(scale),
    paths: bubble.paths.map((p) => ({ d: transformPathData(p.path, scale), fill: p.fill })),
    textArea: bubbleTextArea(drawn, width, height),
  };
}

/** Where text goes in a bubble of a style at a size (bubbleOutline's textArea without building the outline). */
export function bubbleTextArea(style: string, width: number, height: number, wobble: Wobble = NO_WOBBLE): Rect {
  const drawn = getSpeechBubble(style) ? style : DEFAULT_BUBBLE_STYLE;
  const kind = proceduralBubbleKind(drawn);
  if (kind) return proceduralTextArea(kind, width, height, wobble);
  const rebuilt = drawnAtSize(drawn, width, height);
  if (rebuilt) return rebuilt.textArea;
  const area = BUBBLE_TEXT_AREAS[drawn] ?? FALLBACK_AREA;
  return { x: area.x * width, y: area.y * height, width: area.width * width, height: area.height * height };
}

/** Colour of a fill slot: FILL_UNKNOWN (shadows, second tones) is drawn half-way between the two. */
export function bubbleFillColor(fill: BubbleFill, foreground: string, background: string): string {
  if (fill === 'FILL_FG') return foreground;
  if (fill === 'FILL_BG') return background;
  return mixHex(foreground, background);
}

function expandHex(color: string): [number, number, number] | null {
  const hex = color.replace('#', '');
  const full =
    hex.length === 3 || hex.length === 4
      ? hex
          .slice(0, 3)
          .split('')
          .map((c) => c + c)
          .join('')
      : hex.slice(0, 6);
  if (!/^[0-9a-fA-F]{6}$/.test(full)) return null;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function mixHex(a: string, b: string): string {
  const ca = expandHex(a);
  const cb = expandHex(b);
  if (!ca || !cb) return '#808080';
  return `#${ca
    .map((v, i) =>
      Math.round((v + cb[i]!) / 2)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
