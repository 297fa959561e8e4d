// Mouse, pen and touch on the canvas, all through pointer events (editor.md §2 "Keyboard, mouse and touch"):
// - one pointer acts as the mouse with the current tool (which pans where the tool has nothing to act on);
// - two fingers pan and pinch-zoom about their midpoint, leaving any one-finger gesture undone;
// - a finger or pen held still opens the layer menu, as a right click does;
// - a pen's pressure goes to the brush;
// - the wheel scrolls, Ctrl/Cmd with the wheel zooms; dropped files go to the import path.
import { hitLayer, pan, wheelZoom, zoomAbout } from '@koma/editor';
import type { EditorSession } from '../editor/session.ts';
import { importFiles } from '../editor/import/import-images.ts';

/** How long a finger or pen must rest to open the layer menu. */
export const LONG_PRESS_MS = 500;
/** A press that moves further than this (screen px) is a drag, not a long press. */
export const LONG_PRESS_SLOP = 10;

type Point = { x: number; y: number };

/** Opens the layer menu for the layer at a viewport point; returns false when no layer is there. */
export type OpenMenu = (clientX: number, clientY: number) => boolean;

export function attachPointerInput(element: HTMLElement, session: EditorSession, openMenu: OpenMenu): () => void {
  const pointers = new Map<number, Point>();
  let pinch: { distance: number; mid: Point; view: ReturnType<EditorSession['view']> } | null = null;
  let press: { id: number; start: Point; client: Point; timer: number } | null = null;
  // After a long press opened the menu, the lifting finger must not also click the canvas.
  let swallowUp: number | null = null;

  const local = (e: { clientX: number; clientY: number }): Point => {
    const r = element.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const endPress = () => {
    if (press) window.clearTimeout(press.timer);
    press = null;
  };
  const twoPointers = (): [Point, Point] => [...pointers.values()] as [Point, Point];

  const down = (e: PointerEvent) => {
    try {
      element.setPointerCapture(e.pointerId);
    } catch {
      // A pointer the browser no longer tracks cannot be captured; the gesture still works without capture.
    }
    pointers.set(e.pointerId, local(e));
    if (pointers.size === 2) {
      // Two fingers: undo whatever the first finger started, and pinch instead.
      endPress();
      session.controller.cancel();
      const [a, b] = twoPointers();
      pinch = {
        distance: Math.max(Math.hypot(a.x - b.x, a.y - b.y), 1),
        mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
        view: session.view(),
      };
      return;
    }
    if (pointers.size > 2) return;
    e.preventDefault();
    // preventDefault keeps the focus where it was; take it, so a prompt box left focused stops eating shortcuts.
    element.focus({ preventScroll: true });
    if (e.pointerType !== 'mouse') {
      const id = e.pointerId;
      const client = { x: e.clientX, y: e.clientY };
      press = {
        id,
        start: local(e),
        client,
        timer: window.setTimeout(() => {
          if (press?.id !== id || pointers.size !== 1) return;
          press = null;
          // The held finger may have begun moving a layer: put it back before the menu opens.
          session.controller.cancel();
          if (openMenu(client.x, client.y)) swallowUp = id;
        }, LONG_PRESS_MS),
      };
    }
    session.controller.pointerDown({
      screen: local(e),
      button: e.button,
      shift: e.shiftKey,
      alt: e.altKey,
      ...(e.pointerType === 'pen' ? { pressure: e.pressure } : {}),
    });
  };

  const move = (e: PointerEvent) => {
    if (pointers.has(e.pointerId)) pointers.set(e.pointerId, local(e));
    if (press?.id === e.pointerId) {
      const p = local(e);
      if (Math.hypot(p.x - press.start.x, p.y - press.start.y) > LONG_PRESS_SLOP) endPress();
    }
    if (pinch && pointers.size === 2) {
      const [a, b] = twoPointers();
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      const zoomed = zoomAbout(pinch.view, pinch.mid, (pinch.view.zoom * distance) / pinch.distance);
      session.setView(pan(zoomed, mid.x - pinch.mid.x, mid.y - pinch.mid.y));
      return;
    }
    if (swallowUp === e.pointerId) return;
    session.controller.pointerMove({
      screen: local(e),
      button: e.button,
      shift: e.shiftKey,
      alt: e.altKey,
      ...(e.pointerType === 'pen' && pointers.has(e.pointerId) ? { pressure: e.pressure } : {}),
    });
  };

  const up = (e: PointerEvent) => {
    const wasPinch = pinch !== null;
    pointers.delete(e.pointerId);
    if (press?.id === e.pointerId) endPress();
    if (pointers.size < 2) pinch = null;
    if (swallowUp === e.pointerId) {
      swallowUp = null;
      return;
    }
    // The finger left after a pinch has nothing to finish.
    if (wasPinch || pointers.size > 0) return;
    session.controller.pointerUp({ screen: local(e), button: e.button, shift: e.shiftKey });
  };

  const cancel = (e: PointerEvent) => {
    pointers.delete(e.pointerId);
    endPress();
    pinch = null;
    if (swallowUp === e.pointerId) swallowUp = null;
    session.controller.cancel();
  };

  const wheel = (e: WheelEvent) => {
    e.preventDefault();
    const view = session.view();
    if (e.ctrlKey || e.metaKey) session.setView(wheelZoom(view, local(e), e.deltaY));
    else session.setView(pan(view, -e.deltaX, -e.deltaY));
  };

  const over = (e: DragEvent) => {
    if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
  };
  const drop = (e: DragEvent) => {
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    e.preventDefault();
    const p = local(e);
    const view = session.view();
    // Alt (Option) keeps the picture's own size instead of fitting it to the panel under the drop.
    // Dropped files take the same path as Upload and paste, placed at the drop point.
    const at = { x: (p.x - view.x) / view.zoom, y: (p.y - view.y) / view.zoom };
    void importFiles(session, files, { at, natural: e.altKey });
  };

  // A right click, the menu key, or the browser's own long-press menu on touch.
  const menu = (e: MouseEvent) => {
    e.preventDefault();
    if (pointers.size > 1) return;
    endPress();
    openMenu(e.clientX, e.clientY);
  };

  element.addEventListener('contextmenu', menu);
  element.addEventListener('pointerdown', down);
  element.addEventListener('pointermove', move);
  element.addEventListener('pointerup', up);
  element.addEventListener('pointercancel', cancel);
  element.addEventListener('wheel', wheel, { passive: false });
  element.addEventListener('dragover', over);
  element.addEventListener('drop', drop);
  return () => {
    endPress();
    element.removeEventListener('contextmenu', menu);
    element.removeEventListener('pointerdown', down);
    element.removeEventListener('pointermove', move);
    element.removeEventListener('pointerup', up);
    element.removeEventListener('pointercancel', cancel);
    element.removeEventListener('wheel', wheel);
    element.removeEventListener('dragover', over);
    element.removeEventListener('drop', drop);
  };
}

/** The layer under a viewport point of the canvas element, or null. */
export function layerAt(element: HTMLElement, session: EditorSession, clientX: number, clientY: number): string | null {
  const r = element.getBoundingClientRect();
  const view = session.view();
  return hitLayer(session.editor.doc, session.activeRoot(), {
    x: (clientX - r.left - view.x) / view.zoom,
    y: (clientY - r.top - view.y) / view.zoom,
  });
}
