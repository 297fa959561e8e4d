import {
  burstPoints,
  cloudProfile,
  radialPoints,
  resampleClosed,
  roundedRectPoints,
  type Point,
  type ProceduralBubbleKind,
  type RadiusProfile,
  type Rect,
} from '@koma/domain';
import { distanceToSegment } from './polygon.ts';

/** A layer's wobble: amplitude as a fraction of the radius, frequency in waves per turn, phase in degrees. */
export interface Wobble {
  amplitude: number;
  frequency: number;
  phase: number;
}

export const NO_WOBBLE: Wobble = { amplitude: 0, frequency: 0, phase: 0 };

/** Amplitudes above this would fold the outline onto itself. */
export const MAX_WOBBLE_AMPLITUDE = 0.4;

/** The wobble of a TEXT layer's data. */
export const wobbleOf = (data: { wobbleAmplitude: number; wobbleFrequency: number; wobblePhase: number }): Wobble => ({
  amplitude: data.wobbleAmplitude,
  frequency: data.wobbleFrequency,
  phase: data.wobblePhase,
});

const SAMPLES = 160;

/** Amplitude clamped to a safe range; frequency rounded so the outline closes without a seam. */
function normalized(wobble: Wobble): Wobble {
  return {
    amplitude: Math.min(MAX_WOBBLE_AMPLITUDE, Math.max(0, wobble.amplitude || 0)),
    frequency: Math.max(0, Math.round(wobble.frequency || 0)),
    phase: ((wobble.phase || 0) * Math.PI) / 180,
  };
}

/** The radial profile of a kind, and its largest factor (so the outline can be scaled back into its box). */
function profileOf(kind: ProceduralBubbleKind, w: Wobble): { profile: RadiusProfile; peak: number } {
  const wave = (amp: number, freq: number): RadiusProfile =>
    amp > 0 && freq > 0 ? (t) => 1 + amp * Math.sin(freq * t + w.phase) : () => 1;
  switch (kind) {
    case 'wobbly-ellipse': {
      // Its own character when the layer sets no wobble: a hand-drawn oval with two beating waves.
      const amp = w.amplitude || 0.035;
      const freq = w.frequency || 5;
      const profile: RadiusProfile = (t) =>
        1 + amp * Math.sin(freq * t + w.phase) + amp * 0.6 * Math.sin((freq + 3) * t + 1.7 + w.phase);
      return { profile, peak: 1 + amp * 1.6 };
    }
    case 'cloud':
    case 'thought': {
      const bumps = w.frequency || (kind === 'cloud' ? 12 : 10);
      const depth = w.amplitude || (kind === 'cloud' ? 0.12 : 0.15);
      const cloud = cloudProfile(bumps, depth);
      // The phase turns the scallops around the outline.
      return { profile: (t) => cloud(t + w.phase / bumps), peak: 1 };
    }
    default:
      return { profile: wave(w.amplitude, w.frequency), peak: 1 + w.amplitude };
  }
}

/** Outline of a burst: spikes = frequency (16), depth = amplitude (0.3), spike lengths varied by the phase. */
function burstOutline(width: number, height: number, w: Wobble): Point[] {
  const spikes = Math.max(5, w.frequency || 16);
  const depth = Math.min(0.8, w.amplitude || 0.3);
  const seed = Math.round(w.phase * 1000) + 17;
  const e = { cx: width / 2, cy: height / 2, rx: width / 2, ry: height / 2 };
  // Outer corners vary by up to 12 % so the burst looks drawn; the phase picks another variation.
  return burstPoints(e, spikes, 1 - depth, 0.12, seed);
}

/** Samples of a rippled box: dense enough that one spacing is at most 2 % of its shorter side (capped). */
function rippleSamples(width: number, height: number): number {
  const around = 2 * (width + height);
  return Math.min(4000, Math.max(SAMPLES * 2, Math.ceil(around / (0.02 * Math.min(width, height)))));
}

/** Outline of a rounded box; a wobble ripples its edges inwards so it never leaves the box. */
function roundedRectOutline(width: number, height: number, w: Wobble): Point[] {
  // Below a hundredth of a unit a ripple is invisible; skipping it keeps the exact corners.
  const ripple = w.amplitude * Math.min(width, height) * 0.25;
  const amp = ripple < 0.01 || w.frequency === 0 ? 0 : ripple;
  const radius = Math.min(width, height) * 0.2;
  const rect = roundedRectPoints(amp, amp, width - amp * 2, height - amp * 2, radius, 12);
  if (amp === 0) return rect;
  const ring = resampleClosed(rect, rippleSamples(width, height));
  const n = ring.length;
  return ring.map((p, i) => {
    const prev = ring[(i - 1 + n) % n]!;
    const next = ring[(i + 1) % n]!;
    const tx = next.x - prev.x;
    const ty = next.y - prev.y;
    const len = Math.hypot(tx, ty) || 1;
    const d = amp * Math.sin((i / n) * Math.PI * 2 * w.frequency + w.phase);
    return { x: p.x + (ty / len) * d, y: p.y + (-tx / len) * d };
  });
}

/**
 * The closed outline (clockwise on screen, inside the 0…width × 0…height box) of a procedural style:
 * ellipse (b0), wobbly ellipse (b12), burst (b17), rounded rectangle (b21), cloud (b32), thought cloud (b35).
 */
export function proceduralOutline(
  kind: ProceduralBubbleKind,
  width: number,
  height: number,
  wobble = NO_WOBBLE,
): Point[] {
  const w = normalized(wobble);
  if (kind === 'burst') return burstOutline(width, height, w);
  if (kind === 'rounded-rect') return roundedRectOutline(width, height, w);
  const { profile, peak } = profileOf(kind, w);
  const samples = kind === 'cloud' || kind === 'thought' ? Math.max(SAMPLES, (w.frequency || 12) * 16) : SAMPLES;
  return radialPoints({ cx: width / 2, cy: height / 2, rx: width / 2 / peak, ry: height / 2 / peak }, samples, profile);
}

/**
 * The rectangle where text goes in a procedural outline. For the radial kinds it is measured on the outline itself:
 * the largest disc (in the box's normalised coordinates) the polygon contains, and the square inscribed in it.
 */
export function proceduralTextArea(
  kind: ProceduralBubbleKind,
  width: number,
  height: number,
  wobble = NO_WOBBLE,
): Rect {
  if (kind === 'rounded-rect') {
    const w = normalized(wobble);
    // A corner of radius r clears the text when inset by r(1 − 1/√2) ≈ 0.29 r; 0.35 r leaves room for the chords.
    // A ripple reaches twice its amplitude inwards, and resampling it cuts corners by up to one sample spacing.
    const side = Math.min(width, height);
    const ripple = w.amplitude * side * 0.25 >= 0.01 && w.frequency > 0;
    const spacing = ripple ? (2 * (width + height)) / rippleSamples(width, height) : 0;
    const margin = (ripple ? w.amplitude * side * 0.5 : 0) + side * 0.2 * 0.35 + spacing;
    return { x: margin, y: margin, width: width - margin * 2, height: height - margin * 2 };
  }
  const rx = width / 2;
  const ry = height / 2;
  const unit = proceduralOutline(kind, 2, 2, wobble).map((p) => ({ x: p.x - 1, y: p.y - 1 }));
  let m = Infinity;
  const origin = { x: 0, y: 0 };
  for (let i = 0; i < unit.length; i++)
    m = Math.min(m, distanceToSegment(origin, unit[i]!, unit[(i + 1) % unit.length]!));
  // A little slack keeps the text off the outline's ink.
  const half = (m * 0.97) / Math.SQRT2;
  return { x: rx - half * rx, y: ry - half * ry, width: 2 * half * rx, height: 2 * half * ry };
}
