import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  ellipseInRegion,
  ellipseMask,
  faceEllipse,
  faceMaskBlur,
  pasteFace,
  type Ellipse,
} from '../../src/jobs/kinds/face-patch.ts';
import type { Bbox } from '../../src/vision/index.ts';
import { gradientPng, raw } from '../engines/helpers.ts';

const solid = (size: number, rgb: [number, number, number]) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();

/** Distance in ellipse radii: 1 on the outline. */
const radii = (e: Ellipse, x: number, y: number) => Math.hypot((x + 0.5 - e.cx) / e.rx, (y + 0.5 - e.cy) / e.ry);

async function pasted(region: Bbox, bbox: Bbox, blur: number) {
  const source = await gradientPng(200, 120);
  const ellipse = faceEllipse(bbox);
  const out = await pasteFace(source, await solid(64, [255, 0, 0]), region, ellipse, blur);
  return { before: await raw(source), after: await raw(out), ellipse };
}

describe('face patch', () => {
  it('reads the spec blur 50 and feathering 0.1 at the 1024 working size as 50 + 0.1 × 512', () => {
    expect(faceMaskBlur(1024, 1024)).toBeCloseTo(101.2);
  });

  it('places the ellipse around the box (1.1 wide, 1.2 tall) and moves it into the scaled crop', () => {
    const e = faceEllipse([100, 50, 140, 100]);
    expect(e).toEqual({ cx: 120, cy: 75, rx: 22, ry: 30 });
    const inCrop = ellipseInRegion(e, [60, 15, 180, 135], 1024, 1024);
    expect(inCrop.cx).toBeCloseTo((60 * 1024) / 120);
    expect(inCrop.cy).toBeCloseTo((60 * 1024) / 120);
    expect(inCrop.rx).toBeCloseTo((22 * 1024) / 120);
    expect(inCrop.ry).toBeCloseTo((30 * 1024) / 120);
  });

  it('draws the mask white inside the ellipse and black outside', async () => {
    const e = { cx: 32, cy: 32, rx: 20, ry: 10 };
    const m = await raw(await ellipseMask(e, 64, 64));
    expect(m.data[(32 * 64 + 32) * m.channels]).toBe(255);
    expect(m.data[(32 * 64 + 2) * m.channels]).toBe(0);
    expect(m.data[(4 * 64 + 32) * m.channels]).toBe(0);
  });

  it('keeps every byte of the source outside the ellipse and takes the crop in its middle', async () => {
    const { before, after, ellipse } = await pasted([40, 10, 120, 90], [65, 35, 95, 65], 6);
    expect([after.width, after.height]).toEqual([200, 120]);
    let outside = 0;
    for (let y = 0; y < 120; y++) {
      for (let x = 0; x < 200; x++) {
        const d = radii(ellipse, x, y);
        const i = (y * 200 + x) * after.channels;
        const j = (y * 200 + x) * before.channels;
        // Past the anti-aliased rim of the drawn ellipse (a pixel and a half).
        if (d > 1 + 1.5 / Math.min(ellipse.rx, ellipse.ry)) {
          outside++;
          for (let c = 0; c < 3; c++) expect(after.data[i + c]).toBe(before.data[j + c]);
        } else if (d < 0.3) {
          expect(after.data[i]).toBeGreaterThan(240);
          expect(after.data[i + 1]).toBeLessThan(15);
        }
      }
    }
    expect(outside).toBeGreaterThan(20_000);
  });

  it('pastes a face whose crop reaches past the image edge, clipped, the rest untouched', async () => {
    const { before, after, ellipse } = await pasted([-20, -20, 60, 60], [5, 5, 35, 35], 4);
    expect([after.width, after.height]).toEqual([200, 120]);
    const at = (img: typeof after, x: number, y: number) => [
      ...img.data.subarray((y * 200 + x) * img.channels, (y * 200 + x) * img.channels + 3),
    ];
    expect(at(after, 20, 20)[0]).toBeGreaterThan(200);
    expect(radii(ellipse, 150, 100)).toBeGreaterThan(1);
    expect(at(after, 150, 100)).toEqual(at(before, 150, 100));
    expect(at(after, 55, 55)).toEqual(at(before, 55, 55));
  });
});
