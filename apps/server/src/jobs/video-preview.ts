import sharp from 'sharp';
import { throwIfAborted } from '../engines/errors.ts';
import type { Report } from './kinds/handler.ts';

export const VIDEO_PREVIEW_NOTE =
  'Builtin preview, not a video model: a slow zoom over the input image as an animated WebP, labelled PREVIEW.';

const FPS = 4;
const SIDE = 320;

/** The PREVIEW caption with a bar showing how far into the clip the frame is (so no two frames are alike). */
function label(width: number, height: number, fraction: number): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect x="0" y="${height - 26}" width="${width}" height="26" fill="black" fill-opacity="0.6"/>` +
      `<rect x="0" y="${height - 4}" width="${Math.round(width * fraction)}" height="4" fill="#ffcc00"/>` +
      `<text x="6" y="${height - 10}" font-family="sans-serif" font-size="13" fill="white">PREVIEW - builtin, not a video model</text></svg>`,
  );
}

/**
 * The builtin engine's stand-in for image-to-video: `duration` seconds of a slow zoom into the image at 4 fps,
 * with a visible "PREVIEW" label, as an animated WebP. Honest about what it is (see the note in the output).
 */
export async function builtinVideoPreview(
  image: Buffer,
  durationSeconds: number,
  report: Report,
  signal: AbortSignal,
): Promise<{ bytes: Buffer; mime: string; note: string }> {
  const base = await sharp(image).resize(SIDE, SIDE, { fit: 'inside' }).png().toBuffer({ resolveWithObject: true });
  const { width, height } = base.info;
  const frames = Math.max(2, Math.round(durationSeconds * FPS));
  const out: Buffer[] = [];
  for (let i = 0; i < frames; i++) {
    throwIfAborted(signal);
    const zoom = 1 + (0.25 * i) / (frames - 1);
    const w = Math.round(width / zoom);
    const h = Math.round(height / zoom);
    const frame = await sharp(base.data)
      .extract({ left: Math.floor((width - w) / 2), top: Math.floor((height - h) / 2), width: w, height: h })
      .resize(width, height, { fit: 'fill' })
      .composite([{ input: label(width, height, (i + 1) / frames) }])
      .png()
      .toBuffer();
    out.push(frame);
    report({ logs: [`Progress: ${i + 1}/${frames}`], progress: (i + 1) / frames });
  }
  const bytes = await sharp(out, { join: { animated: true } })
    .webp({ quality: 70, delay: Array(frames).fill(1000 / FPS) as number[], loop: 0 })
    .toBuffer();
  return { bytes, mime: 'image/webp', note: VIDEO_PREVIEW_NOTE };
}
