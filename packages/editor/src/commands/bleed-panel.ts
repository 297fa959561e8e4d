import { boundsOf, type PxRect } from '@koma/domain';
import type { DocState } from '../store/state.ts';
import { CommandError, defineCommand } from './command.ts';
import { getLayerOf, rootOf } from './helpers.ts';
import { panelsUnder, setVertices } from './panel-helpers.ts';

/** Within this distance (canvas px) a vertex counts as lying on its panel's side. */
const ON_SIDE = 1;

/**
 * Makes a panel a bleed panel: each side of it with no other panel between it and the page edge (its outer sides)
 * moves out to the bleed line, the canvas edge. Sides facing another panel across a gutter stay.
 */
export const bleedPanel = defineCommand('Extend panel to bleed', (doc: DocState, args: { id: string }) => {
  const panel = getLayerOf(doc, args.id, 'PANEL');
  if (panel.locked) throw new CommandError('Layer is locked');
  const rootId = rootOf(doc, args.id);
  if (!doc.pages.some((p) => p.rootId === rootId)) throw new CommandError('Only a panel on a page can reach the bleed');
  const page = { width: doc.comicConfiguration.width, height: doc.comicConfiguration.height };
  const box = boundsOf(panel.data.vertices);
  const others = panelsUnder(doc, rootId)
    .filter((p) => p.id !== panel.id)
    .map((p) => boundsOf(p.data.vertices));
  const overlapsY = (o: PxRect) => o.y < box.y + box.height && o.y + o.height > box.y;
  const overlapsX = (o: PxRect) => o.x < box.x + box.width && o.x + o.width > box.x;
  const outer = {
    left: !others.some((o) => overlapsY(o) && o.x + o.width <= box.x + ON_SIDE),
    right: !others.some((o) => overlapsY(o) && o.x >= box.x + box.width - ON_SIDE),
    top: !others.some((o) => overlapsX(o) && o.y + o.height <= box.y + ON_SIDE),
    bottom: !others.some((o) => overlapsX(o) && o.y >= box.y + box.height - ON_SIDE),
  };
  if (!Object.values(outer).some(Boolean)) throw new CommandError('This panel has no side on the page margin');
  const vertices = panel.data.vertices.map((v) => ({
    x: outer.left && v.x <= box.x + ON_SIDE ? 0 : outer.right && v.x >= box.x + box.width - ON_SIDE ? page.width : v.x,
    y:
      outer.top && v.y <= box.y + ON_SIDE ? 0 : outer.bottom && v.y >= box.y + box.height - ON_SIDE ? page.height : v.y,
  }));
  setVertices(panel, vertices);
});
