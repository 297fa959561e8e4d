import type { Point, TextData } from '@koma/domain';
import type { Editor, Gesture } from '../editor.ts';
import type { DocState, LayerNode } from '../store/state.ts';
import { clampBrush, type InteractionState, type UiStore } from '../ui/ui-state.ts';

/** A pointer event in screen pixels, with the buttons and modifiers that change what a drag does. */
export interface CanvasPointer {
  screen: Point;
  button: number;
  shift?: boolean;
  alt?: boolean;
  /** A pen's pressure, 0 to 1, where the browser reports it; absent for a mouse or a finger. */
  pressure?: number;
}

/**
 * The brush radius for a stroke drawn with these pen pressures: a normal press (0.5) draws at the brush size, full
 * pressure at 1.75 times it, the lightest touch at a quarter. A stroke has one radius in the document, so the mean
 * pressure of the stroke decides it.
 */
export function pressureRadius(size: number, pressures: readonly number[]): number {
  if (pressures.length === 0) return size;
  const mean = pressures.reduce((sum, p) => sum + Math.min(1, Math.max(0, p)), 0) / pressures.length;
  return clampBrush(size * (0.25 + 1.5 * mean));
}

/**
 * One pointer interaction in progress (a state of the controller's machine): it lives from pointer-down to
 * pointer-up, and a cancelled one leaves the document as it was.
 */
export interface Drag {
  /** The interaction state shown while it lasts; null keeps the current one. */
  readonly state: InteractionState | null;
  /** Pointer moved; `p` is in canvas units. */
  move(p: Point, e: CanvasPointer): void;
  /** Pointer released; `p` is in canvas units. */
  up(p: Point, e: CanvasPointer): void;
  /** Escape or a lost pointer. */
  cancel(): void;
}

/** What a layer kind's tool or handle may use of the editor around it. */
export interface ToolHost {
  readonly editor: Editor;
  readonly ui: UiStore;
  readonly doc: DocState;
  zoom(): number;
  /** The root group being edited: the infinite canvas or the open page. */
  activeRoot(): string;
  select(ids: string[]): void;
  /** Enters a state that has no drag (in-place text editing). */
  enter(state: InteractionState): void;
  /** The topmost visible layer under a canvas point in the active root that `accept` takes, if any. */
  hitAt(p: Point, accept?: (node: LayerNode) => boolean): string | null;
  /** Screen position of the pointer-down that started the current interaction. */
  downScreen(): Point | null;
  /** The brush size for the stroke being drawn: the brush setting, scaled by a pen's pressure so far. */
  brushRadius(): number;
  /** Data for a bubble the Text tool makes (vertical Japanese in the Japanese interface). */
  newBubble(): TextData;
}

/** What a tool's pointer-down asks for: a drag, panning the view, or nothing more. */
export type ToolStart = Drag | 'pan' | null;

/** A drag that feeds one history gesture: one undo entry on pointer-up, nothing on cancel. */
export function gestureDrag<A>(
  state: InteractionState | null,
  gesture: Gesture<A>,
  argsAt: (p: Point, e: CanvasPointer) => A | null,
): Drag {
  return {
    state,
    move(p, e) {
      const args = argsAt(p, e);
      if (args !== null) gesture.update(args);
    },
    up() {
      gesture.commit();
    },
    cancel() {
      gesture.cancel();
    },
  };
}

/** A drag that takes its snap guides away when it ends. */
export function withGuidesCleared(drag: Drag, ui: UiStore): Drag {
  const clear = () => ui.state.snapGuides && ui.update({ snapGuides: null });
  return {
    state: drag.state,
    move: (p, e) => drag.move(p, e),
    up(p, e) {
      drag.up(p, e);
      clear();
    },
    cancel() {
      drag.cancel();
      clear();
    },
  };
}
