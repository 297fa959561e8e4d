import { z } from 'zod';
import { zViewTransform, DEFAULT_VIEW_TRANSFORM } from './geometry.ts';
import { zGroupLayer } from './layer.ts';
import { zRegionalPrompt, zSketchMap } from './settings.ts';
import { COMIC_PAGE_HEIGHT, COMIC_PAGE_WIDTH } from '../constants.ts';
import { defaultPageSetup, zPageSetup } from './page-setup.ts';

export const WORKSPACE_TYPES = ['INFINITE', 'COMIC'] as const;
export type WorkspaceType = (typeof WORKSPACE_TYPES)[number];

export const READING_ORDERS = ['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT'] as const;
export type ReadingOrder = (typeof READING_ORDERS)[number];

/** The document format version written by this code; older versions are migrated on load. */
export const DOCUMENT_VERSION = 3;

export const zComicConfiguration = z.object({
  width: z.number().positive().default(COMIC_PAGE_WIDTH),
  height: z.number().positive().default(COMIC_PAGE_HEIGHT),
  readingOrder: z.enum(READING_ORDERS).default('LEFT_TO_RIGHT'),
  /** The physical page (version 3): width and height are its trim plus bleed in pixels at its resolution. */
  setup: zPageSetup.default(() => defaultPageSetup()),
});
export type ComicConfiguration = z.infer<typeof zComicConfiguration>;

/**
 * A page's gutters in page units: `horizontal` is the gap between panels side by side (across a vertical cut),
 * `vertical` the gap between tiers (across a horizontal cut). Absent, splits and presets use the spec's 15 px and
 * the random layout its 10 px (editor.md §9).
 */
export const zGutter = z.object({
  horizontal: z
    .number()
    .finite()
    .min(0, 'gutter.horizontal must be 0 or more')
    .max(500, 'gutter.horizontal must be at most 500 px'),
  vertical: z
    .number()
    .finite()
    .min(0, 'gutter.vertical must be 0 or more')
    .max(500, 'gutter.vertical must be at most 500 px'),
});
export type Gutter = z.infer<typeof zGutter>;

export const zPage = z.object({
  uuid: z.string().min(1),
  viewTransform: zViewTransform.default(() => ({ ...DEFAULT_VIEW_TRANSFORM })),
  rootLayer: zGroupLayer,
  generatedStory: z.string().default(''),
  thumbnailUrl: z.string().nullable().default(null),
  gutter: zGutter.optional(),
});
export type Page = z.infer<typeof zPage>;

/**
 * Workspace data in its saved form. An INFINITE workspace keeps its layers in `rootLayer` and has no pages;
 * a COMIC workspace keeps each page's layers in that page's `rootLayer` and an empty workspace `rootLayer`.
 */
export const zWorkspaceData = z.object({
  version: z.literal(DOCUMENT_VERSION),
  viewTransform: zViewTransform.default(() => ({ ...DEFAULT_VIEW_TRANSFORM })),
  rootLayer: zGroupLayer,
  pages: z.array(zPage).default([]),
  comicConfiguration: zComicConfiguration.default({
    width: COMIC_PAGE_WIDTH,
    height: COMIC_PAGE_HEIGHT,
    readingOrder: 'LEFT_TO_RIGHT',
    setup: defaultPageSetup(),
  }),
  /** Index into `pages` of the page shown last. */
  lastPage: z.number().int().min(0).default(0),
  /** The regional prompts of the generation tabs, kept with the document so they are saved and undoable. */
  regionalPrompts: z.array(zRegionalPrompt).default(() => []),
  /** The sketch map (brushes with their strokes, background prompt), kept like the regional prompts. */
  sketchMap: zSketchMap.default(() => ({ brushes: [], backgroundPrompt: '' })),
});
export type WorkspaceData = z.infer<typeof zWorkspaceData>;

export const zWorkspace = z.object({
  id: z.string().min(1),
  name: z.string(),
  type: z.enum(WORKSPACE_TYPES),
  data: zWorkspaceData,
  thumbnail: z.string().nullable().default(null),
  thumbnailUrls: z.array(z.string()).default([]),
});
export type Workspace = z.infer<typeof zWorkspace>;

/** The workspace type a document implies when none is stored beside it. */
export function inferWorkspaceType(data: Pick<WorkspaceData, 'pages'>): WorkspaceType {
  return data.pages.length > 0 ? 'COMIC' : 'INFINITE';
}
