import sharp from 'sharp';
import type { ControlNetInput } from '../types.ts';
import { EngineError } from '../errors.ts';
import type { RawImage } from './artwork.ts';

/**
 * The builtin engine cannot follow a pose or a sketch; it overlays the control image so the user can see it was
 * received: pose skeletons (bright lines on black) are screened on, sketches (dark lines on white) multiplied.
 */
export async function overlayControlNets(img: RawImage, controlnets: ControlNetInput[] | undefined): Promise<RawImage> {
  let data = img.data;
  for (const cn of controlnets ?? []) {
    let control: Buffer;
    try {
      control = await sharp(cn.image)
        .resize(img.width, img.height, { fit: 'fill' })
        .flatten()
        .removeAlpha()
        .raw()
        .toBuffer();
    } catch (err) {
      throw new EngineError('validation', `The ${cn.model} image could not be read as an image`, err);
    }
    const s = Math.min(1, Math.max(0, cn.strength));
    const out = Buffer.alloc(data.length);
    for (let i = 0; i < data.length; i++) {
      const base = data[i] ?? 0;
      const c = (control[i] ?? 0) * s + (cn.model === 'controlnet-openpose' ? 0 : 255 * (1 - s));
      out[i] =
        cn.model === 'controlnet-openpose'
          ? Math.round(255 - ((255 - base) * (255 - c)) / 255)
          : Math.round((base * c) / 255);
    }
    data = out;
  }
  return { ...img, data };
}

/** Hue (degrees) of an image's dominant colour; used to pull the palette towards an IP-Adapter reference. */
export async function dominantHue(image: Buffer): Promise<number> {
  let dominant: { r: number; g: number; b: number };
  try {
    dominant = (await sharp(image).stats()).dominant;
  } catch (err) {
    throw new EngineError('validation', 'The IP-Adapter image could not be read as an image', err);
  }
  const r = dominant.r / 255;
  const g = dominant.g / 255;
  const b = dominant.b / 255;
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}
