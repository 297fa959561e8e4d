import { describe, expect, it } from 'vitest';
import { createRaster, unturnPixels, type Raster } from '../../src/export/index.ts';

/** The upright picture, analytic: red grows along its width, green down its height (any turn or mirror shows). */
const picture = (u: number, v: number): [number, number, number] => [40 + 4 * u, 30 + 4 * v, 128];

interface Case {
  box: { x: number; y: number; width: number; height: number };
  turn: { rotation: number; flipX: boolean; flipY: boolean };
  page: { area: { x: number; y: number }; scaleX: number; scaleY: number };
}

/**
 * The turned picture as the canvas would hand it to the export, written out here with plain trigonometry (not the
 * editor's matrix): each page pixel's centre taken to the document, back about the box centre by the turn, then
 * mirrored, giving the point of the upright picture it shows; coverage of the box's edge as alpha.
 */
function turnedLayer({ box, turn, page }: Case): { raster: Raster; left: number; top: number } {
  const t = (turn.rotation * Math.PI) / 180;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const half = Math.hypot(box.width, box.height) / 2 + 1;
  const left = Math.floor((cx - half - page.area.x) * page.scaleX);
  const top = Math.floor((cy - half - page.area.y) * page.scaleY);
  const right = Math.ceil((cx + half - page.area.x) * page.scaleX);
  const bottom = Math.ceil((cy + half - page.area.y) * page.scaleY);
  const raster = createRaster(right - left, bottom - top);
  for (let y = 0; y < raster.height; y++) {
    for (let x = 0; x < raster.width; x++) {
      const dx = (left + x + 0.5) / page.scaleX + page.area.x - cx;
      const dy = (top + y + 0.5) / page.scaleY + page.area.y - cy;
      let u = dx * Math.cos(t) + dy * Math.sin(t);
      let v = -dx * Math.sin(t) + dy * Math.cos(t);
      if (turn.flipX) u = -u;
      if (turn.flipY) v = -v;
      u += box.width / 2;
      v += box.height / 2;
      const inside = Math.min(u, box.width - u, v, box.height - v) * page.scaleX;
      const alpha = Math.round(Math.max(0, Math.min(1, inside + 0.5)) * 255);
      if (alpha === 0) continue;
      const [r, g, b] = picture(Math.min(box.width, Math.max(0, u)), Math.min(box.height, Math.max(0, v)));
      raster.data.set([r, g, b, alpha], (y * raster.width + x) * 4);
    }
  }
  return { raster, left, top };
}

/** The largest difference from the analytic picture over the pixels at least `margin` pixels inside the box. */
function worstError(c: Case, margin: number): { colour: number; alpha: number; size: [number, number] } {
  const { raster, left, top } = turnedLayer(c);
  const upright = unturnPixels(raster, left, top, c.box, c.turn, c.page);
  let colour = 0;
  let alpha = 0;
  for (let j = margin; j < upright.height - margin; j++) {
    for (let i = margin; i < upright.width - margin; i++) {
      const o = (j * upright.width + i) * 4;
      const want = picture(((i + 0.5) / upright.width) * c.box.width, ((j + 0.5) / upright.height) * c.box.height);
      for (let k = 0; k < 3; k++) colour = Math.max(colour, Math.abs(upright.data[o + k]! - Math.round(want[k]!)));
      alpha = Math.max(alpha, 255 - upright.data[o + 3]!);
    }
  }
  return { colour, alpha, size: [upright.width, upright.height] };
}

const atOne = { area: { x: 0, y: 0 }, scaleX: 1, scaleY: 1 };

describe('unturnPixels', () => {
  it('takes a picture turned 30° back upright, within a level or two of the original inside its edge', () => {
    const c: Case = {
      box: { x: 12, y: 18, width: 40, height: 30 },
      turn: { rotation: 30, flipX: false, flipY: false },
      page: atOne,
    };
    const error = worstError(c, 2);
    expect(error.size).toEqual([40, 30]);
    expect(error.alpha).toBe(0);
    expect(error.colour).toBeLessThanOrEqual(2);
  });

  it('copies a quarter turn that sits on whole pixels exactly, mirror included', () => {
    // Centre (30, 35): the turned 30×40 box runs from (15, 15) to (45, 55), on whole pixels.
    const c: Case = {
      box: { x: 10, y: 20, width: 40, height: 30 },
      turn: { rotation: 90, flipX: true, flipY: false },
      page: atOne,
    };
    const error = worstError(c, 0);
    expect(error.alpha).toBe(0);
    expect(error.colour).toBe(0);
  });

  it('follows the page mapping (area and scale) and a mirror on the other axis', () => {
    const c: Case = {
      box: { x: 110, y: 220, width: 40, height: 30 },
      turn: { rotation: -30, flipX: false, flipY: true },
      page: { area: { x: 100, y: 200 }, scaleX: 2, scaleY: 2 },
    };
    const error = worstError(c, 2);
    expect(error.size).toEqual([80, 60]);
    expect(error.alpha).toBe(0);
    expect(error.colour).toBeLessThanOrEqual(2);
  });

  it('leaves clear what the export cut off at the page edge', () => {
    const c: Case = {
      box: { x: -20, y: 5, width: 40, height: 30 },
      turn: { rotation: 30, flipX: false, flipY: false },
      page: atOne,
    };
    const whole = turnedLayer(c);
    // Cut the layer at page x = 0, as the export's rect is.
    const cut = createRaster(whole.raster.width + whole.left, whole.raster.height);
    for (let y = 0; y < cut.height; y++) {
      const from = (y * whole.raster.width - whole.left) * 4;
      cut.data.set(whole.raster.data.subarray(from, from + cut.width * 4), y * cut.width * 4);
    }
    const upright = unturnPixels(cut, 0, whole.top, c.box, c.turn, c.page);
    const alphaAt = (u: number, v: number) => upright.data[(v * upright.width + u) * 4 + 3]!;
    // The box's top-left corner was off the page; its bottom-right corner was on it.
    expect(alphaAt(2, 2)).toBe(0);
    expect(alphaAt(37, 27)).toBe(255);
  });
});
