import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFaces, YOLO_CANDIDATES } from '../../src/vision/index.ts';
import { constantYoloModel } from './onnx-model.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'koma-yolo-'));

describe('YOLO face path on onnxruntime-node (hand-built constant model)', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the model at 640×640 and maps its boxes back through the letterbox', async () => {
    // In letterbox space of a 1280×640 image (scale 0.5, 160 px bars top and bottom): one strong face, one
    // duplicate overlapping it by more than 0.7, one under the 0.25 threshold.
    const head = new Float32Array(5 * YOLO_CANDIDATES);
    const put = (i: number, cx: number, cy: number, w: number, h: number, score: number) =>
      [cx, cy, w, h, score].forEach((v, c) => (head[c * YOLO_CANDIDATES + i] = v));
    put(100, 120, 280, 40, 40, 0.9);
    put(101, 121, 280, 40, 40, 0.8);
    put(102, 500, 300, 30, 30, 0.1);
    const model = path.join(dir, 'face.onnx');
    writeFileSync(model, constantYoloModel(head));
    const image = await sharp({ create: { width: 1280, height: 640, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const faces = await detectFaces(image, { onnxModelPath: model });
    expect(faces).toEqual([{ bbox: [200, 200, 280, 280], label: 'face', score: expect.closeTo(0.9, 5) as number }]);
  });
});
