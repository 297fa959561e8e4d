// Image to video in the editor: the request the form sends, and how a kept clip is shown.
import { findVideoModel, type VideoModel } from '@koma/domain';

/** What the image-to-video form chose; the end frame is another image layer's shown image. */
export interface VideoChoice {
  model: string;
  duration: number;
  prompt: string;
  endLayerId: string | null;
}

/**
 * The POST /api/video body: the shown image, the model, a duration the model offers (its first otherwise), the
 * prompt when one was written, and the end frame only for a model that takes one. Null for an unknown model.
 */
export function videoRequest(
  image: string,
  endImage: string | undefined,
  choice: VideoChoice,
  seed: number,
): Record<string, unknown> | null {
  const model = findVideoModel(choice.model);
  if (!model) return null;
  const duration = model.durations.includes(choice.duration) ? choice.duration : model.durations[0];
  const prompt = choice.prompt.trim();
  return {
    image,
    model: model.id,
    ...(prompt === '' ? {} : { prompt }),
    ...(duration === undefined ? {} : { duration }),
    ...(endImage && model.supports_end_frame ? { end_image: endImage } : {}),
    seed,
  };
}

/** The duration the form shows for a model: the one chosen when the model offers it, else its default. */
export function durationFor(model: VideoModel, chosen: number): number {
  return model.durations.includes(chosen) ? chosen : (model.durations[0] ?? chosen);
}

/** A real video plays in a <video>; the builtin engine's animated WebP preview is an image. */
export function playsAsVideo(mime: string): boolean {
  return mime.startsWith('video/');
}

/** Where the clip's bytes are: the user's own, behind the session cookie the page already sends. */
export function videoUrl(id: string): string {
  return `/api/videos/${encodeURIComponent(id)}`;
}
