import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closeVision,
  visionCallsInFlight,
  cropFace,
  detectFaces,
  estimatePose,
  faceAt,
  OPENPOSE_JOINTS,
  VisionInputError,
  type Bbox,
  type PoseResult,
} from '../../src/vision/index.ts';
import { fixture } from './images.ts';

// Real models on CPU, in a worker thread: the first call loads tfjs-wasm and the weights.
describe('face detection and pose (face-api SSD, MoveNet on tfjs-wasm)', { timeout: 120_000 }, () => {
  afterAll(closeVision);

  const contains = (box: Bbox, x: number, y: number) => box[0] <= x && x <= box[2] && box[1] <= y && y <= box[3];

  it('finds the three faces of the group photo with face-sized boxes', async () => {
    const faces = await detectFaces(fixture('photo-three-faces.jpg'));
    expect(faces).toHaveLength(3);
    // Hand-measured face centres of the 960×640 fixture (left, middle, right person).
    for (const [x, y] of [
      [250, 235],
      [465, 265],
      [790, 160],
    ] as const) {
      const face = faces.find((f) => contains(f.bbox, x, y));
      expect(face, `a face around (${x}, ${y})`).toBeDefined();
      const w = (face?.bbox[2] ?? 0) - (face?.bbox[0] ?? 0);
      expect(w).toBeGreaterThan(60);
      expect(w).toBeLessThan(160);
      expect(face?.score).toBeGreaterThan(0.9);
      expect(face?.label).toBe('face');
    }
  });

  it('finds the drawn anime-style face', async () => {
    const faces = await detectFaces(fixture('anime-full-body.jpg'));
    expect(faces.length).toBeGreaterThanOrEqual(1);
    const best = faces[0];
    // The face (eyes at y ≈ 90–100) sits in x 115–175, y 65–140 of the 260×633 figure.
    expect(best && contains(best.bbox, 145, 100)).toBe(true);
    expect(best?.score).toBeGreaterThanOrEqual(0.25);
  });

  it('finds the face of the flat manga-style drawing made for these tests (SVG rasterised by sharp)', async () => {
    const png = await sharp(fixture('drawn-face.svg')).png().toBuffer();
    const faces = await detectFaces(png);
    expect(faces).toHaveLength(1);
    // The drawn face spans x 160–352, y 118–380 (eyes at y 245, mouth at y 335) of the 512×512 canvas.
    const [face] = faces;
    expect(face && contains(face.bbox, 256, 270)).toBe(true);
    expect((face?.bbox[2] ?? 0) - (face?.bbox[0] ?? 0)).toBeLessThan(300);
  });

  it('answers an empty list for an image with no face', async () => {
    const flat = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#3a7bd5' } })
      .png()
      .toBuffer();
    await expect(detectFaces(flat)).resolves.toEqual([]);
  });

  it('crops a face to 512 and 1024 squares centred on it', async () => {
    const image = fixture('photo-three-faces.jpg');
    const [face] = await detectFaces(image);
    if (!face) throw new Error('no face');
    for (const size of [512, 1024] as const) {
      const crop = await cropFace(image, face.bbox, size);
      const meta = await sharp(crop.image).metadata();
      expect([meta.width, meta.height, meta.format]).toEqual([size, size, 'png']);
      const cx = (face.bbox[0] + face.bbox[2]) / 2;
      expect(Math.abs((crop.region[0] + crop.region[2]) / 2 - cx)).toBeLessThanOrEqual(1);
    }
    await expect(cropFace(image, [10, 10, 5, 5], 512)).rejects.toThrow('Invalid face box [10, 10, 5, 5].');
  });

  it('picks a face by index with the spec messages', () => {
    expect(() => faceAt([], 0)).toThrow('No faces detected');
    expect(() => faceAt([{ bbox: [0, 0, 1, 1], label: 'face', score: 1 }], 1)).toThrow('Face not detected');
  });

  /** Every one of the 18 joints present, and the body reads top to bottom. */
  function expectFullBody(pose: PoseResult) {
    const { candidate, subset } = pose.bodies;
    expect(subset).toHaveLength(1);
    const row = subset[0] ?? [];
    expect(row.slice(0, 18).every((id) => id >= 0)).toBe(true);
    expect(row[19]).toBe(18);
    const y = (joint: (typeof OPENPOSE_JOINTS)[number]) =>
      candidate[row[OPENPOSE_JOINTS.indexOf(joint)] ?? -1]?.[1] ?? NaN;
    expect(y('nose')).toBeLessThan(y('neck'));
    expect(y('neck')).toBeLessThan(y('right_hip'));
    expect(y('right_hip')).toBeLessThan(y('right_knee'));
    expect(y('left_knee')).toBeLessThan(y('left_ankle'));
    for (const [x, yy] of candidate) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(pose.width);
      expect(yy).toBeGreaterThanOrEqual(0);
      expect(yy).toBeLessThanOrEqual(pose.height);
    }
  }

  it('gives 18 OpenPose points for a full-body photo-real figure', async () => {
    const pose = await estimatePose(fixture('photo-full-body.jpg'));
    expect([pose.width, pose.height]).toEqual([160, 165]);
    expectFullBody(pose);
  });

  it('gives 18 OpenPose points for the full-body anime figure, ankles near its feet', async () => {
    const pose = await estimatePose(fixture('anime-full-body.jpg'));
    expectFullBody(pose);
    const row = pose.bodies.subset[0] ?? [];
    const ankle = pose.bodies.candidate[row[OPENPOSE_JOINTS.indexOf('left_ankle')] ?? -1];
    // The feet of the 633-px-tall figure are at y ≈ 590–620.
    expect(ankle?.[1]).toBeGreaterThan(540);
  });

  it('refuses bad input with a typed error, and keeps working afterwards', async () => {
    for (const bad of [Buffer.alloc(0), Buffer.from('not an image at all')]) {
      await expect(detectFaces(bad)).rejects.toBeInstanceOf(VisionInputError);
      await expect(estimatePose(bad)).rejects.toBeInstanceOf(VisionInputError);
    }
    await expect(detectFaces(fixture('photo-full-body.jpg'))).resolves.toHaveLength(1);
  });

  it('fails calls in flight when the threads are closed, then starts afresh', async () => {
    const pending = estimatePose(fixture('photo-full-body.jpg'));
    // Attach the expectation first: the call fails while closeVision() runs, before the next line would see it.
    const failed = expect(pending).rejects.toThrow(/Vision worker faces-pose was closed/);
    // Close once the call has reached the thread; close() fails it synchronously, before any answer can land.
    const deadline = Date.now() + 10_000;
    while (visionCallsInFlight() === 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    expect(visionCallsInFlight()).toBe(1);
    await closeVision();
    await failed;
    const pose = await estimatePose(fixture('photo-full-body.jpg'));
    expect(pose.bodies.subset).toHaveLength(1);
  });

  it('reports an ONNX face model that cannot load with the spec message', async () => {
    await expect(
      detectFaces(fixture('photo-full-body.jpg'), { onnxModelPath: '/nonexistent/face.onnx' }),
    ).rejects.toThrow(/^Could not load ONNX model: /);
  });
});
