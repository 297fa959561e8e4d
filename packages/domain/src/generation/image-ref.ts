import { z } from 'zod';

const DATA_URL = /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/;
const IMAGE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * An image in a request: a stored image id, or an inline base64 data URL (png, jpeg or webp) that the server
 * stores first. Raw base64 without the data-URL header is refused because its type cannot be known.
 */
export const zImageRef = z
  .string()
  .refine((s) => IMAGE_ID.test(s) || DATA_URL.test(s), 'must be an image id or a base64 data URL (png, jpeg, webp)');
export type ImageRef = z.infer<typeof zImageRef>;

/** True when the reference carries the image inline rather than naming a stored image. */
export function isInlineImage(ref: string): boolean {
  return ref.startsWith('data:');
}
