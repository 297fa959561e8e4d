import { boundsOf, pageSetupBoxes, pageSetupProblem, type PageSetup, type PxRect } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { kindOf } from '../kinds/lookup.ts';
import { CommandError, defineCommand } from './command.ts';
import { getLayer } from './helpers.ts';

/** Every layer under a root (not the root itself), parents before children. */
function layersUnder(doc: DocState, rootId: string): LayerNode[] {
  const out: LayerNode[] = [];
  const visit = (id: string) => {
    const node = getLayer(doc, id);
    for (const child of node.children) {
      out.push(getLayer(doc, child));
      visit(child);
    }
  };
  visit(rootId);
  return out;
}

const clampBox = (b: PxRect, page: { width: number; height: number }): PxRect => {
  const x = Math.min(Math.max(b.x, 0), page.width - 1);
  const y = Math.min(Math.max(b.y, 0), page.height - 1);
  return { x, y, width: Math.min(b.width, page.width - x), height: Math.min(b.height, page.height - y) };
};

/**
 * Changes the comic's page setup (from the Page tab; one undo step). Every page's content is mapped from the old trim
 * to the new one with separate x and y factors — as the PSD export has always scaled a page to its canvas — so art
 * keeps its place relative to the cut; text sizes follow the smaller factor. Panels stay on the page.
 */
export const setPageSetup = defineCommand('Change page setup', (doc: DocState, args: { setup: PageSetup }) => {
  if (doc.type !== 'COMIC') throw new CommandError('Only comics have a page setup');
  const problem = pageSetupProblem(args.setup);
  if (problem) throw new CommandError(problem);
  const before = pageSetupBoxes(doc.comicConfiguration.setup).trim;
  const after = pageSetupBoxes(args.setup);
  const sx = after.trim.width / before.width;
  const sy = after.trim.height / before.height;
  const page = { width: after.media.width, height: after.media.height };
  doc.comicConfiguration.setup = structuredClone(args.setup);
  doc.comicConfiguration.width = page.width;
  doc.comicConfiguration.height = page.height;
  const map = (b: PxRect): PxRect => ({
    x: after.trim.x + (b.x - before.x) * sx,
    y: after.trim.y + (b.y - before.y) * sy,
    width: b.width * sx,
    height: b.height * sy,
  });
  for (const { rootId } of doc.pages) {
    for (const node of layersUnder(doc, rootId)) {
      const kind = kindOf(node);
      const { x, y, size } = node.transform;
      const mapped = map({ x, y, width: size.width, height: size.height });
      if (kind.outline && kind.placeBox) {
        // A polygon kind (a panel) places its outline's bounds, which must stay inside the page.
        kind.placeBox(doc, node, clampBox(map(boundsOf([...kind.outline(node)])), page));
      } else if (kind.placeBox) kind.placeBox(doc, node, mapped);
      else
        node.transform = {
          ...node.transform,
          x: mapped.x,
          y: mapped.y,
          size: { width: mapped.width, height: mapped.height },
        };
      kind.rescale?.(node, Math.min(sx, sy));
    }
  }
});
