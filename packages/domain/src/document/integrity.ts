import type { Layer } from './layer.ts';
import type { WorkspaceData } from './workspace.ts';
import { formatPath, type DocumentError } from './errors.ts';
import { pageCanvasSize } from './page-setup.ts';

type Path = (string | number)[];

/**
 * Checks what a schema cannot: ids are unique, clip targets are siblings that exist, nothing is clipped twice or
 * clipped to something itself clipped, and panel neighbours are panels on the same page.
 */
export function checkIntegrity(data: WorkspaceData, fmt: (path: Path) => string = formatPath): DocumentError | null {
  const seen = new Set<string>();
  const roots: [Layer, Path][] = [[data.rootLayer, ['rootLayer']]];
  data.pages.forEach((page, i) => roots.push([page.rootLayer, ['pages', i, 'rootLayer']]));
  for (const [root, rootPath] of roots) {
    const error = checkLayerTree(root, rootPath, seen, fmt);
    if (error) return error;
  }
  return checkDocumentFields(data);
}

/**
 * The checks of one layer tree (a page's, or the workspace root's): ids unique (also against `seen`, which
 * collects them), clip lists, panel neighbours on the same page.
 */
export function checkLayerTree(
  root: Layer,
  rootPath: Path,
  seen: Set<string>,
  fmt: (path: Path) => string = formatPath,
): DocumentError | null {
  const panels = new Set<string>();
  const panelPaths: [Layer, Path][] = [];
  const error = checkGroup(root, rootPath, seen, panels, panelPaths, fmt);
  if (error) return error;
  for (const [panel, path] of panelPaths) {
    if (panel.type !== 'PANEL') continue;
    for (const side of ['left', 'right', 'top', 'bottom'] as const) {
      const list = panel.data.neighborPanels[side];
      for (let k = 0; k < list.length; k++) {
        const id = list[k]!;
        if (!panels.has(id) || id === panel.id) {
          const at = fmt([...path, 'data', 'neighborPanels', side, k]);
          return {
            code: 'BROKEN_REFERENCE',
            message: `Neighbour panel "${id}" does not exist on this page`,
            path: at,
          };
        }
      }
    }
  }
  return null;
}

/** The checks of the document's own fields: the last page exists, the page canvas matches its setup. */
export function checkDocumentFields(data: WorkspaceData): DocumentError | null {
  if (data.pages.length > 0 && data.lastPage >= data.pages.length) {
    return { code: 'INVALID_FIELD', message: `lastPage must be below ${data.pages.length}`, path: 'lastPage' };
  }
  // The page canvas is the setup's trim plus bleed in pixels; a document whose size disagrees was edited by hand.
  const comic = data.comicConfiguration;
  const canvas = pageCanvasSize(comic.setup);
  for (const side of ['width', 'height'] as const) {
    if (comic[side] !== canvas[side]) {
      return {
        code: 'INVALID_FIELD',
        message: `comicConfiguration.${side} must be ${canvas[side]}, the page setup's trim plus bleed in pixels`,
        path: `comicConfiguration.${side}`,
      };
    }
  }
  return null;
}

function checkGroup(
  layer: Layer,
  path: Path,
  seen: Set<string>,
  panels: Set<string>,
  panelPaths: [Layer, Path][],
  fmt: (path: Path) => string,
): DocumentError | null {
  if (seen.has(layer.id)) {
    return {
      code: 'INVALID_FIELD',
      message: `Layer id "${layer.id}" is used twice`,
      path: fmt([...path, 'id']),
    };
  }
  seen.add(layer.id);
  if (layer.type === 'PANEL') {
    panels.add(layer.id);
    panelPaths.push([layer, path]);
  }
  const siblings = new Map(layer.children.map((c) => [c.id, c]));
  const clippedTo = new Map<string, string>();
  for (let i = 0; i < layer.children.length; i++) {
    const child = layer.children[i]!;
    for (let k = 0; k < child.clippedLayers.length; k++) {
      const id = child.clippedLayers[k]!;
      const at = fmt([...path, 'children', i, 'clippedLayers', k]);
      const clipped = siblings.get(id);
      if (!clipped || id === child.id) {
        return {
          code: 'BROKEN_REFERENCE',
          message: `Clipped layer "${id}" is not a sibling of "${child.id}"`,
          path: at,
        };
      }
      if (clippedTo.has(id)) {
        return { code: 'BROKEN_REFERENCE', message: `Layer "${id}" is clipped to two layers`, path: at };
      }
      if (clipped.clippedLayers.length > 0) {
        return {
          code: 'BROKEN_REFERENCE',
          message: `Layer "${id}" has clipped layers and cannot be clipped`,
          path: at,
        };
      }
      clippedTo.set(id, child.id);
    }
  }
  for (let i = 0; i < layer.children.length; i++) {
    const error = checkGroup(layer.children[i]!, [...path, 'children', i], seen, panels, panelPaths, fmt);
    if (error) return error;
  }
  return null;
}
