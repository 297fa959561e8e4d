import { describe, expect, it } from 'vitest';
import { zSpeechBubble } from '../../src/generation/speech-bubble.ts';
import {
  BUBBLE_TEXT_AREAS,
  DEFAULT_BUBBLE_STYLE,
  PROCEDURAL_BUBBLE_KINDS,
  SPEECH_BUBBLES,
  SPEECH_BUBBLE_NAMES,
  flattenPathData,
  getSpeechBubble,
  parsePathData,
  proceduralBubbleKind,
} from '../../src/bubbles/index.ts';

const num = (id: string) => Number(id.slice(1));
const firstGroup = SPEECH_BUBBLES.filter((b) => num(b.id) >= 1 && num(b.id) <= 23);
const secondGroup = SPEECH_BUBBLES.filter((b) => num(b.id) >= 24);

/** Even-odd point-in-polygon test. */
function inside(p: { x: number; y: number }, poly: { x: number; y: number }[]): boolean {
  let result = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!;
    const b = poly[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) result = !result;
  }
  return result;
}

describe('speech-bubble catalogue', () => {
  it('holds b0 to b38 in order, each valid against the generation schema', () => {
    expect(SPEECH_BUBBLES.map((b) => b.id)).toEqual(Array.from({ length: 39 }, (_, i) => `b${i}`));
    for (const bubble of SPEECH_BUBBLES) {
      expect(zSpeechBubble.parse(bubble)).toEqual(bubble);
      expect(bubble.thumbnail).toBe(`speech_bubbles/${bubble.id}.svg`);
      expect(SPEECH_BUBBLE_NAMES[bubble.id]).toBeTruthy();
    }
    expect(DEFAULT_BUBBLE_STYLE).toBe('b0');
    expect(getSpeechBubble('b0')?.paths.length).toBeGreaterThan(0);
    expect(getSpeechBubble('b39')).toBeUndefined();
  });

  it('leaves exactly b12, b17, b21, b32 and b35 without paths, and they are procedural', () => {
    const empty = SPEECH_BUBBLES.filter((b) => b.paths.length === 0).map((b) => b.id);
    expect(empty).toEqual(['b12', 'b17', 'b21', 'b32', 'b35']);
    for (const id of empty) expect(proceduralBubbleKind(id)).toBeDefined();
    expect(proceduralBubbleKind('b0')).toBe('ellipse');
    expect(proceduralBubbleKind('b1')).toBeUndefined();
    expect(proceduralBubbleKind('toString')).toBeUndefined();
    expect(Object.keys(PROCEDURAL_BUBBLE_KINDS).sort()).toEqual(['b0', ...empty].sort());
  });

  it('uses the widths of the spec: 800 except five shapes in b1–b23 and one portrait in b24–b38', () => {
    expect(firstGroup).toHaveLength(23);
    expect(secondGroup).toHaveLength(15);
    const odd1 = firstGroup.filter((b) => b.width !== 800).map((b) => b.width);
    expect(odd1.sort((a, b) => a - b)).toEqual([474.5, 549.3, 660.5, 702.9, 741.8]);
    const odd2 = secondGroup.filter((b) => b.width !== 800);
    expect(odd2.map((b) => [b.width, b.height])).toEqual([[514.2, 800]]);
  });

  it('keeps heights within about 167–800 (b1–b23) and 207–770 (b24–b38, besides the 800 high portrait)', () => {
    const h1 = firstGroup.map((b) => b.height);
    expect(Math.min(...h1)).toBeCloseTo(167, 0);
    expect(Math.max(...h1)).toBe(800);
    const h2 = secondGroup.filter((b) => b.width === 800).map((b) => b.height);
    expect(Math.min(...h2)).toBeCloseTo(207, 0);
    expect(Math.max(...h2)).toBeCloseTo(770, 0);
  });

  it('uses only the foreground and background slots in b24–b38, and all three slots in b1–b23', () => {
    const fills2 = new Set(secondGroup.flatMap((b) => b.paths.map((p) => p.fill)));
    expect([...fills2].sort()).toEqual(['FILL_BG', 'FILL_FG']);
    const fills1 = new Set(firstGroup.flatMap((b) => b.paths.map((p) => p.fill)));
    expect([...fills1].sort()).toEqual(['FILL_BG', 'FILL_FG', 'FILL_UNKNOWN']);
  });

  it('writes path data that parses to finite numbers inside the view box ±5 %', () => {
    for (const bubble of SPEECH_BUBBLES) {
      const mx = bubble.width * 0.05;
      const my = bubble.height * 0.05;
      for (const { path } of bubble.paths) {
        const commands = parsePathData(path);
        expect(commands[0]?.type).toBe('M');
        const points = flattenPathData(path).flat();
        expect(points.length).toBeGreaterThan(2);
        for (const p of points) {
          expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true);
          expect(p.x, `${bubble.id} x`).toBeGreaterThanOrEqual(-mx);
          expect(p.x, `${bubble.id} x`).toBeLessThanOrEqual(bubble.width + mx);
          expect(p.y, `${bubble.id} y`).toBeGreaterThanOrEqual(-my);
          expect(p.y, `${bubble.id} y`).toBeLessThanOrEqual(bubble.height + my);
        }
      }
    }
  });

  it('gives every drawn style a text area whose corners and edge midpoints lie inside its background fill', () => {
    for (const bubble of SPEECH_BUBBLES.filter((b) => b.paths.length > 0)) {
      const area = BUBBLE_TEXT_AREAS[bubble.id];
      expect(area, bubble.id).toBeDefined();
      const { x, y, width, height } = area!;
      expect(width).toBeGreaterThan(0.3);
      expect(height).toBeGreaterThan(0.3);
      const bg = bubble.paths.filter((p) => p.fill === 'FILL_BG').flatMap((p) => flattenPathData(p.path));
      const probes = [
        [x, y],
        [x + width, y],
        [x, y + height],
        [x + width, y + height],
        [x + width / 2, y],
        [x + width / 2, y + height],
        [x, y + height / 2],
        [x + width, y + height / 2],
      ].map(([fx, fy]) => ({ x: fx! * bubble.width, y: fy! * bubble.height }));
      for (const p of probes)
        expect(
          bg.some((poly) => inside(p, poly)),
          `${bubble.id} ${p.x},${p.y}`,
        ).toBe(true);
    }
  });
});

describe('parsePathData', () => {
  it('reads relative, horizontal, vertical and curve commands into absolute ones', () => {
    const cmds = parsePathData('m10 10 h20 v5 l-5 5 q 1 1 2 2 C 0 0 1,1 2e1 -3 z');
    expect(cmds).toEqual([
      { type: 'M', to: { x: 10, y: 10 } },
      { type: 'L', to: { x: 30, y: 10 } },
      { type: 'L', to: { x: 30, y: 15 } },
      { type: 'L', to: { x: 25, y: 20 } },
      { type: 'Q', c: { x: 26, y: 21 }, to: { x: 27, y: 22 } },
      { type: 'C', c1: { x: 0, y: 0 }, c2: { x: 1, y: 1 }, to: { x: 20, y: -3 } },
      { type: 'Z' },
    ]);
  });

  it('treats extra pairs after a moveto as linetos', () => {
    expect(parsePathData('M0 0 10 0 10 10Z').map((c) => c.type)).toEqual(['M', 'L', 'L', 'Z']);
  });

  it('rejects what it does not understand', () => {
    expect(() => parsePathData('M0 0 A 1 1 0 0 0 5 5')).toThrow();
    expect(() => parsePathData('M0')).toThrow();
    expect(() => parsePathData('10 10')).toThrow();
    expect(() => parsePathData('M0 0 L1 x')).toThrow();
  });
});
