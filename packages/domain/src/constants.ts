/** Business constants of editor.md §9 and generation.md §9, one name each. */

export const COMIC_PAGE_WIDTH = 1700;
export const COMIC_PAGE_HEIGHT = 2400;
export const DEFAULT_PANEL_INSET = 110;
/** The alternative page canvas of the spec (1480×2180 inside a 110 px margin). */
export const PAGE_CANVAS_WIDTH = 1480;
export const PAGE_CANVAS_HEIGHT = 2180;
export const PAGE_CANVAS_MARGIN = 110;

export const AUTOSAVE_INTERVAL_MS = 10_000;
export const THUMBNAIL_EVERY_N_AUTOSAVES = 6;
export const THUMBNAIL_SIZE_INFINITE = { width: 768, height: 512 } as const;
export const THUMBNAIL_SIZE_COMIC = { width: 512, height: 720 } as const;
export const THUMBNAIL_WEBP_QUALITY = 0.8;

export const DEFAULT_IMAGE_SIZES = [
  { width: 832, height: 1216 },
  { width: 1024, height: 1024 },
  { width: 1216, height: 832 },
  { width: 640, height: 1536 },
] as const;

export const ZOOM_MIN = 0.01;
export const ZOOM_MAX = 4;
export const ZOOM_STEPS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1, 2, 4] as const;
export const WHEEL_ZOOM_FACTOR = 0.05;

export const BRUSH_SIZE_MIN = 1;
export const BRUSH_SIZE_MAX = 100;
export const BRUSH_SIZE_STEP = 5;

export const LIGHTNING_PRESETS = {
  'lightning-2': { steps: 2, cfg: 0 },
  'lightning-4': { steps: 4, cfg: 2 },
  'lightning-8': { steps: 8, cfg: 2 },
} as const;

export const DEFAULT_STEPS = 20;
export const DEFAULT_CFG = 7;
export const DEFAULT_STRENGTH = 0.7;
export const DEFAULT_BATCH_SIZE = 1;
export const RANDOM_SEED = -1;
export const MAX_SEED = 2_147_483_646;

export const RANDOM_LAYOUT = {
  rows: 3,
  columns: 3,
  minPanelsPerRow: 1,
  maxPanelsPerRow: 2,
  margin: 100,
  gap: 10,
  minSize: 500,
} as const;

export const DEFAULT_PANEL_SIZES = [
  { width: 512, height: 512 },
  { width: 512, height: 1024 },
  { width: 1024, height: 512 },
] as const;

export const BUBBLE_WRAP_CHARACTERS = 15;
export const DIALOGUE_FONT_SIZE = 30;
export const DIALOGUE_FONT_SIZE_VERTICAL = 35;
export const BUBBLE_LINE_SPACING_FACTOR = 0.3;
export const BUBBLE_LINE_SPACING_FACTOR_VERTICAL = 0.1;

export const FPS_BASE_CAP = 20;
export const FPS_PREFERRED_DEFAULT = 60;
export const FPS_RESTRICTED_CAP = 30;

export const EXPORT_LOAD_TIMEOUT_MS = 10_000;
export const EXPORT_LOAD_POLL_MS = 500;
/**
 * How long the browser keeps its export worker after a PSD or PNG export, for the next one: meanwhile it holds the
 * pixel buffers of the last page it wrote (docs/decisions/export.md, "The export worker between exports").
 */
export const EXPORT_WORKER_IDLE_MS = 60_000;
export const PSD_EXPORT_WIDTH = 1700;
export const PSD_EXPORT_HEIGHT = 2400;
export const PSD_PANEL_STROKE_PX = 5;
export const PSD_PANEL_STROKE_COLOR = '#000000';
export const TEXT_EXPORT_PADDING = 300;
export const PSD_MAX_SIDE = 30_000;
export const PSD_THUMBNAIL_LONGEST_SIDE = 160;
export const DOWNLOAD_URL_RELEASE_MS = 40_000;

export const HANDLE_HIT_MARGIN = 10;
export const VERTEX_HIT_RADIUS = 30;
/** Joint hit radius, as a fraction of the pose layer's size. */
export const JOINT_HIT_RADIUS = 0.05;
export const GRID_SPACING = 32;

export const PROCESSING_ESTIMATE_MS = 10_000;
export const GENERATION_ESTIMATE_PER_IMAGE_MS = 3_000;

export const FACE_MODEL_INPUT_SIZE = 640;
export const FACE_MODEL_CANDIDATES = 8400;
export const FACE_SCORE_THRESHOLD = 0.25;
export const FACE_NMS_IOU_THRESHOLD = 0.7;
export const FACE_CROP_THUMBNAIL_SIZE = 512;
export const FACE_ENHANCE_CROP_SIZE = 1024;
export const FACE_ENHANCE_MASK_BLUR = 50;
export const FACE_ENHANCE_MASK_FEATHERING = 0.1;
export const FACE_FIX_STEPS = 15;
export const FACE_FIX_STRENGTH = 0.5;

export const OUTPAINT_MIN_STEPS = 30;
export const OUTPAINT_STRENGTH = 1;
export const OUTPAINT_DEFAULT_OVERLAP = 0.05;
export const OUTPAINT_BLUR = 20;
export const INPAINT_MASK_DEFAULT_BLUR = 10;
export const INPAINT_DIMENSION_MULTIPLE = 8;

export const UPSCALE_FACTOR = 2;
export const VARIATIONS_STRENGTH = 0.5;
export const VARIATIONS_NUM_IMAGES = 4;
export const PANEL_GENERATE_KEEP_VARIATIONS = 4;

export const DEFAULT_LINEART_BASE_PROMPT = 'black and white, lineart';
export const SKETCH_MAP_BRUSH_RADIUS = 80;
export const SKETCH_BRUSH_RADIUS = 30;
export const SKETCH_BRUSH_COLOR = '#666';

export const PHONE_MAX_SHORT_SIDE = 480;
export const PHONE_MAX_LONG_SIDE = 896;

export const DUPLICATE_OFFSET = 10;
export const PANEL_SPLIT_GAP = 15;
/** Resize steps of Ctrl+- and Ctrl+=. */
export const LAYER_SCALE_STEP = 0.1;

export const MAX_LORAS = 10;
export const IMAGE_DOWNLOAD_ATTEMPTS = 5;
export const IMAGE_DOWNLOAD_RETRY_MS = 2_000;
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 500;
export const THUMBNAIL_CROP_SIZE = 256;
/**
 * Longest sides of the scaled copies the server keeps of every stored picture (GET /api/images/{id}/scaled/{side}):
 * what a page seen whole draws, downloaded and decoded instead of the whole picture.
 */
export const SCALED_IMAGE_SIDES = [256, 512] as const;
export type ScaledImageSide = (typeof SCALED_IMAGE_SIDES)[number];

export const POSE_KEYPOINTS = 18;
export const POSE_LINE_WIDTH = 4;
export const POSE_DOT_RADIUS = 8;

export const VIEW_EASE_TO_TARGET_MS = 500;
export const VIEW_EASE_ZOOM_MS = 300;
