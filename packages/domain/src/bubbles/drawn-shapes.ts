import type { Point } from '../document/geometry.ts';
import type { BubbleFill } from '../generation/speech-bubble.ts';
import type { Rect } from '../panels/shape.ts';
import { concaveCornerRectPoints, displaceAlongNormals, resampleClosed, scaleAbout, zigzag } from './outlines.ts';
import { polygonsToPathData } from './path-data.ts';
import {
  burstPoints,
  circlePoints,
  cloudProfile,
  dashedRing,
  flashLines,
  inset,
  offsetPoints,
  radialPoints,
  regularPolygonPoints,
  roundedRectPoints,
  type Ellipse,
  type RadiusProfile,
} from './shapes.ts';

/** A drawn catalogue shape: fill layers in paint order, and the rectangle inside its background where text goes. */
export interface DrawnShape {
  paths: { path: string; fill: BubbleFill }[];
  textArea: Rect;
  /** The silhouette: the outer edge the editor strokes (without thought circles, flash lines or shadow). */
  outline: Point[];
}

const ELLIPSE_SAMPLES = 120;
const path = (fill: BubbleFill, ...polygons: Point[][]) => ({ path: polygonsToPathData(polygons), fill });

/** The largest rectangle centred in an ellipse whose radius never drops below `minFactor` of its own. */
function ellipseTextArea(e: Ellipse, minFactor = 1): Rect {
  // 3 % of slack keeps the corners clear of the polygon's chords and of the outline's ink.
  const hw = (e.rx * minFactor * 0.97) / Math.SQRT2;
  const hh = (e.ry * minFactor * 0.97) / Math.SQRT2;
  return { x: e.cx - hw, y: e.cy - hh, width: hw * 2, height: hh * 2 };
}

const insetRect = (r: Rect, by: number): Rect => ({
  x: r.x + by,
  y: r.y + by,
  width: r.width - by * 2,
  height: r.height - by * 2,
});

const centred = (w: number, h: number, margin: number): Ellipse => ({
  cx: w / 2,
  cy: h / 2,
  rx: w / 2 - margin,
  ry: h / 2 - margin,
});

/** An outline ring: the foreground shape with the background shape `border` units inside it. */
export function radialRing(w: number, h: number, border: number, profile?: RadiusProfile, minFactor = 1): DrawnShape {
  const outer = centred(w, h, 2);
  const inner = inset(outer, border);
  const outline = radialPoints(outer, ELLIPSE_SAMPLES * 2, profile);
  return {
    paths: [path('FILL_FG', outline), path('FILL_BG', radialPoints(inner, ELLIPSE_SAMPLES * 2, profile))],
    textArea: ellipseTextArea(inner, minFactor),
    outline,
  };
}

/** Concentric rings alternating foreground and background, `step` units apart, innermost last. */
export function nestedRings(w: number, h: number, fills: BubbleFill[], step: number): DrawnShape {
  const outer = centred(w, h, 2);
  const paths = fills.map((fill, i) => path(fill, radialPoints(inset(outer, i * step), ELLIPSE_SAMPLES)));
  return {
    paths,
    textArea: ellipseTextArea(inset(outer, (fills.length - 1) * step)),
    outline: radialPoints(outer, ELLIPSE_SAMPLES),
  };
}

/** A spiky burst; the text sits inside the ring of inner corners. */
export function burst(
  w: number,
  h: number,
  spikes: number,
  innerRatio: number,
  jitter: number,
  seed: number,
): DrawnShape {
  const outer = centred(w, h, 2);
  const border = 14;
  const inner = inset(outer, border);
  const outline = burstPoints(outer, spikes, innerRatio, jitter, seed);
  return {
    outline,
    paths: [path('FILL_FG', outline), path('FILL_BG', burstPoints(inner, spikes, innerRatio, jitter, seed))],
    // Straight edges between inner corners cut in by cos(π / spikes) at most.
    textArea: ellipseTextArea(inner, innerRatio * Math.cos(Math.PI / (spikes * 2))),
  };
}

/** A dashed (whispered) ellipse: a white fill under dash strips. */
export function dashedEllipse(w: number, h: number): DrawnShape {
  const outer = centred(w, h, 2);
  const inner = inset(outer, 8);
  const outerPts = radialPoints(outer, ELLIPSE_SAMPLES);
  return {
    outline: outerPts,
    paths: [
      path('FILL_BG', outerPts),
      path('FILL_FG', ...dashedRing(outerPts, radialPoints(inner, ELLIPSE_SAMPLES), 3, 2)),
    ],
    textArea: ellipseTextArea(inner),
  };
}

/** A dashed (whispered) rounded rectangle caption. */
export function dashedRect(w: number, h: number, radius: number, k = 1): DrawnShape {
  const samples = 160;
  const border = 8 * k;
  const outer = resampleClosed(roundedRectPoints(2 * k, 2 * k, w - 4 * k, h - 4 * k, radius), samples);
  const inner = resampleClosed(
    roundedRectPoints(2 * k + border, 2 * k + border, w - 4 * k - border * 2, h - 4 * k - border * 2, radius - border),
    samples,
  );
  return {
    outline: outer,
    paths: [path('FILL_BG', outer), path('FILL_FG', ...dashedRing(outer, inner, 3, 2))],
    textArea: insetRect({ x: 0, y: 0, width: w, height: h }, border + 2 * k + radius * (1 - Math.SQRT1_2)),
  };
}

/** Rounded rectangle rings alternating fills; radius 0 gives a sharp caption box. */
export function rectRings(w: number, h: number, radius: number, fills: BubbleFill[], step: number, k = 1): DrawnShape {
  const ring = (i: number) => {
    const m = 2 * k + i * step;
    return roundedRectPoints(m, m, w - m * 2, h - m * 2, Math.max(0, radius - i * step));
  };
  const paths = fills.map((fill, i) => path(fill, ring(i)));
  const innermost = 2 * k + (fills.length - 1) * step;
  return {
    outline: ring(0),
    paths,
    textArea: insetRect({ x: 0, y: 0, width: w, height: h }, innermost + 4 * k + Math.max(0, radius - innermost) * 0.3),
  };
}

/** A rectangle whose edge is displaced by a sine wave (fear) or a zig-zag (electronic voice, shouting). */
export function wavyRect(
  w: number,
  h: number,
  samples: number,
  amp: number,
  kind: 'sine' | 'zigzag',
  k = 1,
): DrawnShape {
  const border = 10 * k;
  const wave = kind === 'zigzag' ? zigzag : (i: number) => Math.sin((i / samples) * Math.PI * 2 * (samples / 8));
  const ring = (m: number) =>
    displaceAlongNormals(resampleClosed(roundedRectPoints(m, m, w - m * 2, h - m * 2, 0), samples), amp, wave);
  const m = amp + 2 * k;
  const outline = ring(m);
  return {
    outline,
    paths: [path('FILL_FG', outline), path('FILL_BG', ring(m + border))],
    textArea: insetRect({ x: 0, y: 0, width: w, height: h }, m + border + amp),
  };
}

/** A convex polygon (hexagon, octagon, signpost) with a background inset by scaling. */
export function convexPolygon(
  w: number,
  h: number,
  outer: Point[],
  border: number,
  textInset: { x: number; y: number },
): DrawnShape {
  const inner = scaleAbout(outer, w / 2, h / 2, (w - border * 2) / w, (h - border * 2) / h);
  return {
    outline: outer,
    paths: [path('FILL_FG', outer), path('FILL_BG', inner)],
    textArea: { x: textInset.x, y: textInset.y, width: w - textInset.x * 2, height: h - textInset.y * 2 },
  };
}

/** A regular polygon of `sides` corners in the box. */
export function regularPolygon(w: number, h: number, sides: number, rotation: number): DrawnShape {
  const e = centred(w, h, 2);
  const apothem = Math.cos(Math.PI / sides);
  const shape = convexPolygon(w, h, regularPolygonPoints(e, sides, rotation), 12, { x: 0, y: 0 });
  return { ...shape, textArea: ellipseTextArea(inset(e, 12), apothem) };
}

/** A thought bubble: a cloud body in `body` and trailing circles (x, y, r) towards the speaker. */
export function thought(body: Ellipse, bumps: number, trail: [number, number, number][]): DrawnShape {
  const border = 9;
  const profile = cloudProfile(bumps, 0.12);
  const inner = inset(body, border);
  const outline = radialPoints(body, ELLIPSE_SAMPLES * 2, profile);
  return {
    outline,
    paths: [
      path('FILL_FG', outline, ...trail.map(([x, y, r]) => circlePoints(x, y, r))),
      path(
        'FILL_BG',
        radialPoints(inner, ELLIPSE_SAMPLES * 2, profile),
        ...trail.map(([x, y, r]) => circlePoints(x, y, r - border * 0.8)),
      ),
    ],
    textArea: ellipseTextArea(inner, 0.88),
  };
}

/** An ellipse ringed by radiating flash lines (sudden exclamation). */
export function flash(w: number, h: number, reach: number): DrawnShape {
  const e: Ellipse = { cx: w / 2, cy: h / 2, rx: w / 2 - reach - 4, ry: h / 2 - reach - 4 };
  const inner = inset(e, 10);
  const outline = radialPoints(e, ELLIPSE_SAMPLES);
  return {
    outline,
    paths: [
      path('FILL_FG', ...flashLines(e, 44, reach, 7)),
      path('FILL_FG', outline),
      path('FILL_BG', radialPoints(inner, ELLIPSE_SAMPLES)),
    ],
    textArea: ellipseTextArea(inner),
  };
}

/** An oval over a grey drop shadow (the shadow takes the third, unknown colour slot). */
export function shadowedOval(w: number, h: number, shadow: number): DrawnShape {
  const e: Ellipse = { cx: (w - shadow) / 2, cy: (h - shadow) / 2, rx: (w - shadow) / 2 - 2, ry: (h - shadow) / 2 - 2 };
  const inner = inset(e, 10);
  const outline = radialPoints(e, ELLIPSE_SAMPLES);
  return {
    outline,
    paths: [
      path('FILL_UNKNOWN', offsetPoints(outline, shadow, shadow)),
      path('FILL_FG', outline),
      path('FILL_BG', radialPoints(inner, ELLIPSE_SAMPLES)),
    ],
    textArea: ellipseTextArea(inner),
  };
}

/** An oval whose lower half drips (cold, horror). */
export function drippingOval(w: number, h: number): DrawnShape {
  const drip = 0.2;
  const e: Ellipse = { cx: w / 2, cy: (h - 4) / (2 + drip), rx: w / 2 - 2, ry: (h - 4) / (2 + drip) - 2 };
  // Drips only where sin t > 0 (the lower half on screen), fading out towards the sides so the width stays put.
  const profile: RadiusProfile = (t) =>
    1 + (Math.sin(t) > 0 ? drip * Math.max(0, Math.sin(9 * t)) ** 6 * Math.sin(t) ** 2 : 0);
  const inner = inset(e, 10);
  const outline = radialPoints(e, ELLIPSE_SAMPLES * 3, profile);
  return {
    outline,
    paths: [path('FILL_FG', outline), path('FILL_BG', radialPoints(inner, ELLIPSE_SAMPLES * 3, profile))],
    textArea: ellipseTextArea(inner),
  };
}

/** A narration box with concave corners. */
export function concaveBox(w: number, h: number, r: number, k = 1): DrawnShape {
  const border = 10 * k;
  const outline = concaveCornerRectPoints(2 * k, 2 * k, w - 4 * k, h - 4 * k, r);
  return {
    outline,
    paths: [
      path('FILL_FG', outline),
      path(
        'FILL_BG',
        concaveCornerRectPoints(2 * k + border, 2 * k + border, w - 4 * k - border * 2, h - 4 * k - border * 2, r),
      ),
    ],
    textArea: insetRect({ x: 0, y: 0, width: w, height: h }, 2 * k + border + r),
  };
}
