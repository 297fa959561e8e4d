import { describe, expect, it } from 'vitest';
import { iou, nonMaxSuppression, type Bbox } from '../../src/vision/boxes.ts';
import { decodeYoloFaces, letterboxFor, YOLO_CANDIDATES } from '../../src/vision/yolo-decode.ts';

interface Candidate {
  index: number;
  cx: number;
  cy: number;
  w: number;
  h: number;
  score: number;
}

/** A synthetic YOLOv8 head output, channel-major [1, channels, 8400], zero except for the given candidates. */
function head(candidates: Candidate[], channels = 5): Float32Array {
  const data = new Float32Array(channels * YOLO_CANDIDATES);
  for (const c of candidates) {
    data[0 * YOLO_CANDIDATES + c.index] = c.cx;
    data[1 * YOLO_CANDIDATES + c.index] = c.cy;
    data[2 * YOLO_CANDIDATES + c.index] = c.w;
    data[3 * YOLO_CANDIDATES + c.index] = c.h;
    data[4 * YOLO_CANDIDATES + c.index] = c.score;
    // Landmark channels (yolov8-face has 15) must not be read as scores.
    for (let k = 5; k < channels; k++) data[k * YOLO_CANDIDATES + c.index] = 0.99;
  }
  return data;
}

function transpose(data: Float32Array, channels: number): Float32Array {
  const out = new Float32Array(data.length);
  for (let c = 0; c < channels; c++)
    for (let i = 0; i < YOLO_CANDIDATES; i++) out[i * channels + c] = data[c * YOLO_CANDIDATES + i] ?? 0;
  return out;
}

const square = letterboxFor(640, 640);

describe('letterboxFor', () => {
  it('scales the long side to 640 and centres the short side', () => {
    expect(letterboxFor(1280, 640)).toEqual({ scale: 0.5, padX: 0, padY: 160, width: 1280, height: 640 });
    expect(letterboxFor(320, 640)).toEqual({ scale: 1, padX: 160, padY: 0, width: 320, height: 640 });
  });
});

describe('decodeYoloFaces', () => {
  it('decodes centre-size boxes to corners in source pixels', () => {
    const out = decodeYoloFaces(
      head([{ index: 17, cx: 100, cy: 200, w: 40, h: 60, score: 0.9 }]),
      [1, 5, 8400],
      square,
    );
    expect(out).toHaveLength(1);
    expect(out[0]?.bbox).toEqual([80, 170, 120, 230]);
    expect(out[0]?.label).toBe('face');
    expect(out[0]?.score).toBeCloseTo(0.9, 5);
  });

  it('drops scores under 0.25 and keeps 0.25 itself', () => {
    const out = decodeYoloFaces(
      head([
        { index: 1, cx: 100, cy: 100, w: 20, h: 20, score: 0.2499 },
        { index: 2, cx: 300, cy: 300, w: 20, h: 20, score: 0.25 },
      ]),
      [1, 5, 8400],
      square,
    );
    expect(out.map((d) => d.bbox)).toEqual([[290, 290, 310, 310]]);
  });

  it('suppresses a box overlapping a better one by more than 0.7, keeps one overlapping by less', () => {
    // IoU([100,100,200,200], [105,100,205,200]) = 95/105 ≈ 0.905; with [140,100,240,200] = 60/140 ≈ 0.43.
    const out = decodeYoloFaces(
      head([
        { index: 10, cx: 150, cy: 150, w: 100, h: 100, score: 0.8 },
        { index: 11, cx: 155, cy: 150, w: 100, h: 100, score: 0.95 },
        { index: 12, cx: 190, cy: 150, w: 100, h: 100, score: 0.6 },
      ]),
      [1, 5, 8400],
      square,
    );
    expect(out.map((d) => [d.bbox[0], d.score])).toEqual([
      [105, expect.closeTo(0.95, 5) as number],
      [140, expect.closeTo(0.6, 5) as number],
    ]);
  });

  it('maps boxes back through the letterbox of a wide image', () => {
    // 1280×640 → scale 0.5, padY 160: input box (100..140, 260..300) is source (200..280, 200..280).
    const box = letterboxFor(1280, 640);
    const out = decodeYoloFaces(head([{ index: 0, cx: 120, cy: 280, w: 40, h: 40, score: 0.7 }]), [1, 5, 8400], box);
    expect(out[0]?.bbox).toEqual([200, 200, 280, 280]);
  });

  it('reads the [1, 8400, C] layout and ignores landmark channels of a 20-channel head', () => {
    const c = [{ index: 8399, cx: 320, cy: 320, w: 64, h: 64, score: 0.5 }];
    const major = decodeYoloFaces(head(c, 20), [1, 20, 8400], square);
    const minor = decodeYoloFaces(transpose(head(c, 20), 20), [1, 8400, 20], square);
    expect(major).toEqual(minor);
    expect(major.map((d) => d.bbox)).toEqual([[288, 288, 352, 352]]);
  });

  it('clamps boxes to the image and drops empty ones', () => {
    const out = decodeYoloFaces(
      head([
        { index: 3, cx: 10, cy: 10, w: 40, h: 40, score: 0.9 },
        { index: 4, cx: 700, cy: 700, w: 20, h: 20, score: 0.9 },
      ]),
      [1, 5, 8400],
      square,
    );
    expect(out.map((d) => d.bbox)).toEqual([[0, 0, 30, 30]]);
  });

  it('answers an empty list when nothing passes', () => {
    expect(decodeYoloFaces(head([]), [1, 5, 8400], square)).toEqual([]);
  });

  it('refuses shapes it cannot read', () => {
    expect(() => decodeYoloFaces(new Float32Array(4 * 8400), [1, 4, 8400], square)).toThrow(/at least 5 channels/);
    expect(() => decodeYoloFaces(new Float32Array(10), [5, 8400], square)).toThrow(/Unexpected YOLO output shape/);
    expect(() => decodeYoloFaces(new Float32Array(10), [1, 5, 8400], square)).toThrow(/shorter than its shape/);
  });
});

describe('iou and nonMaxSuppression', () => {
  const a: Bbox = [0, 0, 10, 10];
  it('computes intersection over union', () => {
    expect(iou(a, a)).toBe(1);
    expect(iou(a, [5, 0, 15, 10])).toBeCloseTo(50 / 150, 10);
    expect(iou(a, [10, 0, 20, 10])).toBe(0);
  });
  it('keeps the best of each overlapping group, best first', () => {
    const kept = nonMaxSuppression(
      [
        { bbox: a, score: 0.5 },
        { bbox: [1, 0, 11, 10] as Bbox, score: 0.9 },
        { bbox: [50, 50, 60, 60] as Bbox, score: 0.7 },
      ],
      0.7,
    );
    expect(kept.map((k) => k.score)).toEqual([0.9, 0.7]);
  });
});
