import { boundsOf, pageSetupBoxes } from '@koma/domain';
import type { DocState } from '../store/state.ts';
import { pageBoundsFor } from '../commands/helpers.ts';
import { panelsUnder } from '../commands/panel-helpers.ts';
import { pageSnapTargets, type SnapTargets } from './snap.ts';

/** What a drag on a page snaps to, leaving out the panels being dragged; null off a comic page (nothing to snap to). */
export function docSnapTargets(doc: DocState, rootId: string, exclude: ReadonlySet<string>): SnapTargets | null {
  const page = pageBoundsFor(doc, rootId);
  if (!page) return null;
  const gutter = doc.pages.find((p) => p.rootId === rootId)?.gutter;
  const panels = panelsUnder(doc, rootId)
    .filter((p) => p.visible && !exclude.has(p.id))
    .map((p) => boundsOf(p.data.vertices));
  // The setup's safe line is the page margin (a new page's first panel covers the safe area), its bleed the
  // canvas edge with the trim line inside it; the spec's page has no bleed and its 110 px margin as the safe area.
  const { bleedPx, safe } = pageSetupBoxes(doc.comicConfiguration.setup);
  return pageSnapTargets({ page, panels, margin: safe.x, bleed: bleedPx, ...(gutter ? { gutter } : {}) });
}
