import { createComicPage, pageSetupBoxes, type Layer } from '@koma/domain';
import type { DocState } from '../store/state.ts';
import { CommandError, defineCommand } from './command.ts';
import { deleteLayer, getLayer } from './helpers.ts';

/** Adds a page with one default panel; returns its uuid. */
export const addPage = defineCommand('Add page', (doc: DocState, args: { index?: number }, ctx) => {
  if (doc.type !== 'COMIC') throw new CommandError('Only comics have pages');
  const { width, height, setup } = doc.comicConfiguration;
  const page = createComicPage(ctx.ids, width, height, pageSetupBoxes(setup).safe);
  const add = (layer: Layer, parent: string | null): void => {
    const { children, ...rest } = layer;
    doc.layers[layer.id] = { ...rest, parent, clipTarget: null, children: children.map((c) => c.id) };
    for (const child of children) add(child, layer.id);
  };
  add(page.rootLayer, null);
  const index = Math.min(Math.max(args.index ?? doc.pages.length, 0), doc.pages.length);
  doc.pages.splice(index, 0, {
    uuid: page.uuid,
    rootId: page.rootLayer.id,
    viewTransform: page.viewTransform,
    generatedStory: '',
    thumbnailUrl: null,
  });
  if (doc.lastPage >= index && doc.pages.length > 1) doc.lastPage = Math.min(doc.lastPage + 1, doc.pages.length - 1);
  return page.uuid;
});

export const removePage = defineCommand('Delete page', (doc: DocState, args: { uuid: string }) => {
  const index = doc.pages.findIndex((p) => p.uuid === args.uuid);
  if (index < 0) throw new CommandError('Page not found');
  if (doc.pages.length === 1) throw new CommandError('A comic keeps at least one page');
  const [page] = doc.pages.splice(index, 1);
  const root = getLayer(doc, page!.rootId);
  for (const child of [...root.children]) deleteLayer(doc, child);
  delete doc.layers[root.id];
  doc.lastPage = Math.min(doc.lastPage, doc.pages.length - 1);
});

export const movePage = defineCommand('Move page', (doc: DocState, args: { uuid: string; to: number }) => {
  const from = doc.pages.findIndex((p) => p.uuid === args.uuid);
  if (from < 0) throw new CommandError('Page not found');
  const to = Math.min(Math.max(args.to, 0), doc.pages.length - 1);
  if (to === from) return;
  const [page] = doc.pages.splice(from, 1);
  doc.pages.splice(to, 0, page!);
});

export const setGeneratedStory = defineCommand('Edit story', (doc: DocState, args: { uuid: string; story: string }) => {
  const page = doc.pages.find((p) => p.uuid === args.uuid);
  if (!page) throw new CommandError('Page not found');
  page.generatedStory = args.story;
});
