import type {
  ComicConfiguration,
  Gutter,
  LayerAppearance,
  LayerDataByType,
  LayerType,
  RegionalPrompt,
  SketchMap,
  Size,
  Transform,
  ViewTransform,
  WorkspaceType,
} from '@koma/domain';

/** A layer in the editor's normalised store: links by id instead of nesting. */
export type LayerNode<T extends LayerType = LayerType> = {
  [K in T]: {
    id: string;
    type: K;
    name: string;
    transform: Transform;
    originalSize: Size;
    visible: boolean;
    locked: boolean;
    clippedLayers: string[];
    /** The layer this one is clipped to; derived from the target's clippedLayers and kept in step by commands. */
    clipTarget: string | null;
    parent: string | null;
    children: string[];
    data: LayerDataByType[K];
  } & LayerAppearance;
}[T];

export interface PageState {
  uuid: string;
  rootId: string;
  viewTransform: ViewTransform;
  generatedStory: string;
  thumbnailUrl: string | null;
  /** The page's gutters; absent, the spec's gaps apply (15 px splits and presets, 10 px random layout). */
  gutter?: Gutter;
}

/** The undoable document: everything that is saved except the view, which changes outside history. */
export interface DocState {
  type: WorkspaceType;
  comicConfiguration: ComicConfiguration;
  rootId: string;
  pages: PageState[];
  lastPage: number;
  viewTransform: ViewTransform;
  layers: Record<string, LayerNode>;
  /** The regional prompts of the generation tabs (regions as fractions of the generation frame). */
  regionalPrompts: RegionalPrompt[];
  /** The sketch map of the generation tabs (stroke points as fractions of the generation frame). */
  sketchMap: SketchMap;
}
