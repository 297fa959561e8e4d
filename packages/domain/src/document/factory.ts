import type { GroupLayer, Layer, LayerDataByType, LayerOf, LayerType } from './layer.ts';
import type { Transform } from './geometry.ts';
import { zImageData, type ImageData } from './layers/image.ts';
import { zTextData, type TextData } from './layers/text.ts';
import { zPanelData, type PanelData } from './layers/panel.ts';
import { zPoseData } from './layers/pose.ts';
import { zSketchData } from './layers/sketch.ts';
import { zFillData } from './layers/fill.ts';
import { defaultPoseBody } from './pose-presets.ts';
import { defaultPageSetup, pageSetupBoxes, type PageSetup, type PxRect } from './page-setup.ts';
import { DOCUMENT_VERSION, type Page, type ReadingOrder, type WorkspaceData, type WorkspaceType } from './workspace.ts';
import { DEFAULT_VIEW_TRANSFORM } from './geometry.ts';
import { COMIC_PAGE_HEIGHT, COMIC_PAGE_WIDTH, DEFAULT_PANEL_INSET } from '../constants.ts';

/** Makes fresh ids; injected so that tests and the server choose how ids are drawn. */
export type IdSource = () => string;

const DEFAULT_NAMES: Record<LayerType, string> = {
  GROUP: 'Group',
  IMAGE: 'Image',
  TEXT: 'Text',
  PANEL: 'Panel',
  POSE: 'Pose',
  SKETCH: 'Sketch',
  FILL: 'Fill',
};

/** A layer of any type with the common fields filled in. */
export function createLayer<T extends LayerType>(
  type: T,
  id: string,
  transform: Transform,
  data: LayerDataByType[T],
  name: string = DEFAULT_NAMES[type],
): LayerOf<T> {
  return {
    id,
    type,
    name,
    transform: structuredClone(transform),
    originalSize: { ...transform.size },
    visible: true,
    locked: false,
    clippedLayers: [],
    opacity: 1,
    blendMode: 'normal',
    rotation: 0,
    flipX: false,
    flipY: false,
    children: [],
    data,
  };
}

export function createGroupLayer(id: string, children: Layer[] = []): GroupLayer {
  return { ...createLayer('GROUP', id, { x: 0, y: 0, size: { width: 0, height: 0 } }, {}, 'Root'), children };
}

export function createImageLayer(id: string, transform: Transform, data: Partial<ImageData> = {}): LayerOf<'IMAGE'> {
  return createLayer('IMAGE', id, transform, zImageData.parse(data));
}

export function createTextLayer(id: string, transform: Transform, data: Partial<TextData> = {}): LayerOf<'TEXT'> {
  return createLayer('TEXT', id, transform, zTextData.parse(data));
}

/** A rectangular panel; its vertices run top-left, top-right, bottom-right, bottom-left. */
export function createPanelLayer(id: string, transform: Transform, data: Partial<PanelData> = {}): LayerOf<'PANEL'> {
  const { x, y, size } = transform;
  const vertices = data.vertices ?? [
    { x, y },
    { x: x + size.width, y },
    { x: x + size.width, y: y + size.height },
    { x, y: y + size.height },
  ];
  return createLayer('PANEL', id, transform, zPanelData.parse({ position: 1, ...data, vertices }));
}

export function createPoseLayer(id: string, transform: Transform, fullBody = true): LayerOf<'POSE'> {
  return createLayer(
    'POSE',
    id,
    transform,
    zPoseData.parse({ body: defaultPoseBody(fullBody), forceFullBody: fullBody }),
  );
}

export function createSketchLayer(
  id: string,
  transform: Transform,
  imgLayerId: string | null = null,
): LayerOf<'SKETCH'> {
  return createLayer('SKETCH', id, transform, zSketchData.parse({ imgLayerId }));
}

export function createFillLayer(id: string, transform: Transform, color = '#ffffff'): LayerOf<'FILL'> {
  return createLayer('FILL', id, transform, zFillData.parse({ color }));
}

/**
 * A comic page holding one default panel: over `panelBox` when given (a page setup's safe area), else inside the
 * standard inset.
 */
export function createComicPage(
  ids: IdSource,
  width = COMIC_PAGE_WIDTH,
  height = COMIC_PAGE_HEIGHT,
  panelBox?: PxRect,
): Page {
  const inset = DEFAULT_PANEL_INSET;
  const box = panelBox ?? { x: inset, y: inset, width: width - 2 * inset, height: height - 2 * inset };
  const panel = createPanelLayer(ids(), { x: box.x, y: box.y, size: { width: box.width, height: box.height } });
  return {
    uuid: ids(),
    viewTransform: { ...DEFAULT_VIEW_TRANSFORM },
    rootLayer: createGroupLayer(ids(), [panel]),
    generatedStory: '',
    thumbnailUrl: null,
  };
}

/** The document of a new workspace: an empty infinite canvas, or a comic with one page. */
export function createWorkspaceData(
  type: WorkspaceType,
  ids: IdSource,
  readingOrder: ReadingOrder = 'LEFT_TO_RIGHT',
  setup: PageSetup = defaultPageSetup(),
): WorkspaceData {
  const boxes = pageSetupBoxes(setup);
  const { width, height } = boxes.media;
  return {
    version: DOCUMENT_VERSION,
    viewTransform: { ...DEFAULT_VIEW_TRANSFORM },
    rootLayer: createGroupLayer(ids()),
    pages: type === 'COMIC' ? [createComicPage(ids, width, height, boxes.safe)] : [],
    comicConfiguration: { width, height, readingOrder, setup },
    lastPage: 0,
    regionalPrompts: [],
    sketchMap: { brushes: [], backgroundPrompt: '' },
  };
}
