import { BRUSH_SIZE_MAX, BRUSH_SIZE_MIN, SKETCH_BRUSH_COLOR, SKETCH_BRUSH_RADIUS } from '@koma/domain';

export const TOOLS = ['MOVE', 'SELECT', 'BRUSH', 'POSE', 'PANEL', 'TEXT'] as const;
export type ToolId = (typeof TOOLS)[number];

export const INTERACTIONS = [
  'NONE',
  'MOVE_VIEW',
  'SELECTION',
  'PAINT',
  'PAINT_CANVAS',
  'MOVE_LAYER',
  'RESIZE_LAYER',
  'ROTATE_LAYER',
  'MOVE_JOINT',
  'MOVE_PANEL_VERTEX',
  'EXPAND_PANEL',
  'EDIT_TEXT',
] as const;
export type InteractionState = (typeof INTERACTIONS)[number];

export type ProcessingStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
export interface ProcessingState {
  status: ProcessingStatus;
  queuePosition?: number;
  /** 0..1 */
  progress?: number;
  previewUrl?: string;
  startedAt?: number;
  estimateMs?: number;
}

/** Per layer: the open right-panel tab and floating window (-1 for none). */
export interface LayerToolState {
  tab: number;
  window: number;
}

/** What the editor shows and how it is being used; none of it enters history. */
export interface UiState {
  tool: ToolId;
  selection: string[];
  hovered: string | null;
  brushSize: number;
  brushColor: string;
  activePage: number;
  interaction: InteractionState;
  selectionRect: { x: number; y: number; width: number; height: number } | null;
  editingTextId: string | null;
  /** The speech bubble whose tail menu (pin to a face) is open: the faces it can point at are outlined meanwhile. */
  faceMenuFor: string | null;
  panArmed: boolean;
  showReadingOrder: boolean;
  processing: Record<string, ProcessingState>;
  toolStates: Record<string, LayerToolState>;
  /** The last message for the user (a toast); `seq` changes with every message so repeats show again. */
  message: { text: string; kind: 'info' | 'error'; seq: number } | null;
  pointer: { x: number; y: number } | null;
  /** The lines a drag is snapped to right now (drawn as guides); null when it is not snapping. */
  snapGuides: { xs: number[]; ys: number[] } | null;
  /** Shift is held: the Panel tool's split (and its preview) turns vertical. */
  shiftHeld: boolean;
  /**
   * A Panel-tool drag across a panel: the cut it makes when the pointer lifts, through the point where the drag
   * began and along the drag (a finger has no Shift and no hover, so this is how touch chooses and previews).
   */
  splitCut: { at: { x: number; y: number }; vertical: boolean } | null;
}

export function initialUiState(activePage = 0): UiState {
  return {
    tool: 'MOVE',
    selection: [],
    hovered: null,
    brushSize: SKETCH_BRUSH_RADIUS,
    brushColor: SKETCH_BRUSH_COLOR,
    activePage,
    interaction: 'NONE',
    selectionRect: null,
    editingTextId: null,
    faceMenuFor: null,
    panArmed: false,
    showReadingOrder: false,
    processing: {},
    toolStates: {},
    message: null,
    pointer: null,
    snapGuides: null,
    shiftHeld: false,
    splitCut: null,
  };
}

export function clampBrush(size: number): number {
  return Math.min(BRUSH_SIZE_MAX, Math.max(BRUSH_SIZE_MIN, Math.round(size)));
}

/** A minimal observable store for UI state: shallow updates, synchronous listeners. */
export class UiStore {
  private value: UiState;
  private readonly listeners = new Set<(state: UiState, prev: UiState) => void>();
  private seq = 0;

  constructor(initial: UiState = initialUiState()) {
    this.value = initial;
  }

  get state(): UiState {
    return this.value;
  }

  update(patch: Partial<UiState> | ((s: UiState) => Partial<UiState>)): void {
    const prev = this.value;
    const change = typeof patch === 'function' ? patch(prev) : patch;
    this.value = { ...prev, ...change };
    for (const listener of this.listeners) listener(this.value, prev);
  }

  notify(text: string, kind: 'info' | 'error' = 'info'): void {
    this.update({ message: { text, kind, seq: ++this.seq } });
  }

  setProcessing(layerId: string, state: ProcessingState | null): void {
    this.update((s) => {
      const processing = { ...s.processing };
      if (state) processing[layerId] = state;
      else delete processing[layerId];
      return { processing };
    });
  }

  subscribe(listener: (state: UiState, prev: UiState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
