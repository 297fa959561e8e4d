import sharp from 'sharp';
import type { InferenceSession } from 'onnxruntime-node';
import type { Detection } from './boxes.ts';
import { VisionModelError } from './errors.ts';
import { orientedSize } from './input.ts';
import { decodeYoloFaces, letterboxFor, YOLO_INPUT_SIZE, type Letterbox } from './yolo-decode.ts';

const sessions = new Map<string, Promise<InferenceSession>>();

/** One session per model file per process, created on first use and kept warm. */
function sessionFor(modelPath: string): Promise<InferenceSession> {
  let s = sessions.get(modelPath);
  if (!s) {
    s = (async () => {
      try {
        const ort = await import('onnxruntime-node');
        return await ort.InferenceSession.create(modelPath, { intraOpNumThreads: 2 });
      } catch (cause) {
        // The spec's error catalogue shows exactly this prefix to the user.
        throw new VisionModelError(
          `Could not load ONNX model: ${cause instanceof Error ? cause.message : String(cause)}`,
          {
            cause,
          },
        );
      }
    })();
    sessions.set(modelPath, s);
    s.catch(() => sessions.delete(modelPath));
  }
  return s;
}

/** Letterboxes the image into the model's square input (grey 114 padding, as the YOLO exports were trained with). */
async function toInput(image: Buffer): Promise<{ chw: Float32Array; box: Letterbox }> {
  const { width, height } = orientedSize(await sharp(image).metadata());
  const box = letterboxFor(width, height);
  const w = Math.round(width * box.scale);
  const h = Math.round(height * box.scale);
  const grey = { r: 114, g: 114, b: 114 };
  const { data } = await sharp(image)
    .rotate()
    .flatten({ background: grey })
    .removeAlpha()
    .resize(w, h, { fit: 'fill' })
    .extend({
      left: box.padX,
      top: box.padY,
      right: YOLO_INPUT_SIZE - w - box.padX,
      bottom: YOLO_INPUT_SIZE - h - box.padY,
      background: grey,
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = YOLO_INPUT_SIZE * YOLO_INPUT_SIZE;
  const chw = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    chw[i] = (data[i * 3] ?? 0) / 255;
    chw[plane + i] = (data[i * 3 + 1] ?? 0) / 255;
    chw[2 * plane + i] = (data[i * 3 + 2] ?? 0) / 255;
  }
  return { chw, box };
}

/** Runs a YOLOv8-style ONNX face model (input 1×3×640×640, output 1×C×8400) on CPU. */
export async function detectFacesYolo(image: Buffer, modelPath: string): Promise<Detection[]> {
  const session = await sessionFor(modelPath);
  const ort = await import('onnxruntime-node');
  const { chw, box } = await toInput(image);
  const inputName = session.inputNames[0];
  const outputName = session.outputNames[0];
  if (!inputName || !outputName) throw new VisionModelError('Could not load ONNX model: it has no input or output');
  const feeds = { [inputName]: new ort.Tensor('float32', chw, [1, 3, YOLO_INPUT_SIZE, YOLO_INPUT_SIZE]) };
  const out = (await session.run(feeds))[outputName];
  if (!out || out.type !== 'float32') throw new VisionModelError('The ONNX face model did not return a float32 tensor');
  return decodeYoloFaces(out.data as Float32Array, out.dims, box);
}
