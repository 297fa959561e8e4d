import { zLayerVideo, type LayerVideo } from '@koma/domain';
import { CommandError, defineCommand } from './command.ts';
import { getLayerOf } from './helpers.ts';

/** The fields a new clip needs; the optional ones get the schema's defaults. */
export type NewLayerVideo = Pick<LayerVideo, 'id' | 'mime' | 'model' | 'duration'> & Partial<LayerVideo>;

/** Keeps a clip made from the image by image-to-video on the layer (newest last); undo forgets it again. */
export const addVideo = defineCommand('Add video', (doc, args: { id: string; video: NewLayerVideo }) => {
  const node = getLayerOf(doc, args.id, 'IMAGE');
  const parsed = zLayerVideo.safeParse(args.video);
  if (!parsed.success) throw new CommandError(`Video: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  if (node.data.videos.some((v) => v.id === parsed.data.id)) return; // a job landing twice adds it once
  node.data.videos.push(parsed.data);
});

/** Drops a clip from the layer (the bytes stay with the user's account). */
export const removeVideo = defineCommand('Remove video', (doc, args: { id: string; videoId: string }) => {
  const node = getLayerOf(doc, args.id, 'IMAGE');
  const index = node.data.videos.findIndex((v) => v.id === args.videoId);
  if (index < 0) throw new CommandError(`Video ${args.videoId} is not on this image`);
  node.data.videos.splice(index, 1);
});
