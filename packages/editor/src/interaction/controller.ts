import type { Point, TextData, ViewTransform } from '@koma/domain';
import type { Editor } from '../editor.ts';
import type { UiStore, InteractionState } from '../ui/ui-state.ts';
import type { DocState, LayerNode } from '../store/state.ts';
import { moveLayers, resizeLayer } from '../commands/transform.ts';
import { rotateLayers } from '../commands/appearance.ts';
import { draggedRotation, onRotateHandle, rotationCentre } from './rotate.ts';
import { kindForTool, kindOf, registeredKinds } from '../kinds/lookup.ts';
import { boxOf, cornerAt, hitLayer, layersInRect } from './hit.ts';
import {
  gestureDrag,
  pressureRadius,
  withGuidesCleared,
  type CanvasPointer,
  type Drag,
  type ToolHost,
  type ToolStart,
} from './drag.ts';
import { pan, screenToCanvas } from '../view/view.ts';
import { boxOfPoints } from '../kinds/geometry.ts';
import { placementOf } from '../kinds/placement.ts';
import { SNAP_DISTANCE_PX, snapBox, snapCorner } from './snap.ts';
import { docSnapTargets } from './snap-targets.ts';
import { newBubbleData } from '../text/defaults.ts';

export type { CanvasPointer } from './drag.ts';
export { pressureRadius } from './drag.ts';

/** What the controller needs from the screen around it. */
export interface InteractionHost {
  editor: Editor;
  ui: UiStore;
  view(): ViewTransform;
  setView(view: ViewTransform): void;
  /** The root group being edited: the infinite canvas or the open page. */
  activeRoot(): string;
  /** A new bubble's data (the app makes it in the interface's language); the spec's default when absent. */
  newBubble?(): TextData;
}

export const PAINT_REFUSED_CLIPPED = 'Please merge the layer before painting on it.';
export const PAINT_REFUSED_PROCESSING = 'The layer is still processing.';
export const NO_LAYER_SELECTED = 'No layer selected.';

/**
 * The pointer interactions of editor.md §4 as a state machine over the six tools. The common ones (pan, move,
 * resize, rubber-band selection, choosing what a brush paints) live here; a kind's own tool, handles and brush
 * come from its definition (kinds/*.ts) as drags. Every drag that changes the document runs as one gesture, so it
 * lands in history as one entry when the pointer goes up.
 */
export class InteractionController {
  private active: Drag | null = null;
  private down: Point | null = null;
  /** A pen's pressures since pointer-down (none for a mouse or a finger). */
  private pressures: number[] = [];
  private readonly tools: ToolHost;

  constructor(private readonly host: InteractionHost) {
    this.tools = {
      editor: host.editor,
      ui: host.ui,
      get doc() {
        return host.editor.doc;
      },
      zoom: () => host.view().zoom,
      activeRoot: () => host.activeRoot(),
      select: (ids) => this.select(ids),
      enter: (state) => this.set(state, null),
      hitAt: (p, accept) => hitLayer(host.editor.doc, host.activeRoot(), p, accept),
      downScreen: () => this.down,
      brushRadius: () => pressureRadius(host.ui.state.brushSize, this.pressures),
      newBubble: () => host.newBubble?.() ?? newBubbleData(),
    };
  }

  get state(): InteractionState {
    return this.host.ui.state.interaction;
  }

  private get doc(): DocState {
    return this.host.editor.doc;
  }

  private toCanvas(screen: Point): Point {
    return screenToCanvas(this.host.view(), screen);
  }

  private set(state: InteractionState, active: Drag | null): void {
    this.active = active;
    if (this.host.ui.state.interaction !== state) this.host.ui.update({ interaction: state });
  }

  /** Takes what a pointer-down asked for: a drag (in its state), panning, or nothing. */
  private begin(start: ToolStart, e: CanvasPointer): void {
    if (start === 'pan') this.set('MOVE_VIEW', this.panDrag(e));
    else if (start?.state) this.set(start.state, start);
    else if (start) this.active = start;
  }

  pointerDown(e: CanvasPointer): void {
    this.cancel();
    this.down = e.screen;
    this.pressures = e.pressure === undefined ? [] : [e.pressure];
    const ui = this.host.ui.state;
    const p = this.toCanvas(e.screen);
    if (e.button === 1 || ui.panArmed) return this.begin('pan', e);
    if (e.button !== 0) return;
    switch (ui.tool) {
      case 'MOVE':
        return this.begin(this.downMove(e, p), e);
      case 'SELECT':
        return this.begin(this.selectionDrag(p), e);
      case 'BRUSH':
        return this.begin(this.downBrush(p), e);
      default:
        return this.begin(kindForTool(ui.tool)?.tool?.down(this.tools, e, p) ?? null, e);
    }
  }

  private select(ids: string[]): void {
    this.host.ui.update({ selection: ids });
  }

  private panDrag(e: CanvasPointer): Drag {
    const start = e.screen;
    const view = this.host.view();
    return {
      state: 'MOVE_VIEW',
      move: (_p, m) => this.host.setView(pan(view, m.screen.x - start.x, m.screen.y - start.y)),
      up() {},
      cancel() {},
    };
  }

  private selectionDrag(start: Point): Drag {
    const ui = this.host.ui;
    ui.update({ selectionRect: { x: start.x, y: start.y, width: 0, height: 0 } });
    return {
      state: 'SELECTION',
      move: (p) => ui.update({ selectionRect: normalizeRect(start, p) }),
      up: (p) => {
        const ids = layersInRect(this.doc, this.host.activeRoot(), normalizeRect(start, p));
        ui.update({ selectionRect: null, selection: ids });
        if (ids.length === 0) ui.notify(NO_LAYER_SELECTED);
      },
      cancel: () => ui.update({ selectionRect: null }),
    };
  }

  private downMove(e: CanvasPointer, p: Point): ToolStart {
    const selection = this.host.ui.state.selection;
    const zoom = this.host.view().zoom;
    if (selection.length === 1) {
      const node = this.doc.layers[selection[0]!];
      const grabbed = node && !node.locked ? kindOf(node).grab?.(this.tools, node, p) : null;
      if (grabbed) return grabbed;
      if (node && onRotateHandle(node, p, zoom)) return this.rotateDrag(node, p);
      const corner = node && !node.locked ? cornerAt(node, p, zoom) : null;
      if (node && corner) {
        const keepAspect = kindOf(node).keepAspect || !!e.shift;
        const id = node.id;
        // The dragged corner snaps like a moved box does (Alt resizes freely); a turned or flipped layer resizes in
        // its own frame, where the page's lines are not straight, so it does not snap.
        const [a, b, c, d] = placementOf(node).matrix;
        const upright = a === 1 && b === 0 && c === 0 && d === 1;
        const targets = upright ? docSnapTargets(this.doc, this.host.activeRoot(), new Set([id])) : null;
        const box = boxOf(node);
        const ui = this.host.ui;
        const drag = gestureDrag('RESIZE_LAYER', this.host.editor.beginGesture(resizeLayer), (q, ev) => {
          let dx = q.x - p.x;
          let dy = q.y - p.y;
          if (targets && !ev.alt) {
            const threshold = SNAP_DISTANCE_PX / this.host.view().zoom;
            const snapped = snapCorner(box, corner, dx, dy, keepAspect, targets, threshold);
            ({ dx, dy } = snapped);
            ui.update({ snapGuides: snapped.guides.xs.length + snapped.guides.ys.length > 0 ? snapped.guides : null });
          } else if (ui.state.snapGuides) ui.update({ snapGuides: null });
          return { id, corner, dx, dy, keepAspect };
        });
        return withGuidesCleared(drag, ui);
      }
    }
    const hit = hitLayer(this.doc, this.host.activeRoot(), p);
    if (!hit) {
      this.select([]);
      return 'pan';
    }
    const ids = e.shift ? [...new Set([...selection, hit])] : selection.includes(hit) ? selection : [hit];
    this.select(ids);
    if (ids.every((id) => this.doc.layers[id]?.locked)) return null;
    // Snapping (issue 17): the moved layers' box snaps to the page's lines; Alt moves freely.
    const targets = docSnapTargets(this.doc, this.host.activeRoot(), new Set(ids));
    const corners = ids.flatMap((id) => {
      const node = this.doc.layers[id];
      if (!node) return [];
      const b = boxOf(node);
      return [
        { x: b.x, y: b.y },
        { x: b.x + b.width, y: b.y + b.height },
      ];
    });
    const box = corners.length > 0 ? boxOfPoints(corners) : null;
    const ui = this.host.ui;
    const drag = gestureDrag('MOVE_LAYER', this.host.editor.beginGesture(moveLayers), (q, ev) => {
      let dx = q.x - p.x;
      let dy = q.y - p.y;
      if (targets && box && !ev.alt) {
        const snapped = snapBox(box, dx, dy, targets, SNAP_DISTANCE_PX / this.host.view().zoom);
        ({ dx, dy } = snapped);
        const shown = snapped.guides.xs.length + snapped.guides.ys.length > 0 ? snapped.guides : null;
        ui.update({ snapGuides: shown });
      } else if (ui.state.snapGuides) ui.update({ snapGuides: null });
      return { ids, dx, dy };
    });
    return withGuidesCleared(drag, ui);
  }

  /**
   * Turns a layer about its centre by the angle the pointer sweeps (Shift, pressed at any moment of the drag: 15°
   * steps); one undo entry when the pointer goes up.
   */
  private rotateDrag(node: LayerNode, from: Point): Drag {
    const id = node.id;
    const start = node.rotation ?? 0;
    const centre = rotationCentre(node);
    return gestureDrag('ROTATE_LAYER', this.host.editor.beginGesture(rotateLayers), (q, ev) => ({
      ids: [id],
      to: draggedRotation(start, centre, from, q, !!ev.shift),
    }));
  }

  /** Painting is refused while the layer is processing, or onto a layer clipped to a picture (merge it first). */
  private canPaint(node: LayerNode): boolean {
    if (this.host.ui.state.processing[node.id]) {
      this.host.ui.notify(PAINT_REFUSED_PROCESSING, 'error');
      return false;
    }
    const target = node.clipTarget ? this.doc.layers[node.clipTarget] : null;
    if (target && kindOf(target).raster) {
      this.host.ui.notify(PAINT_REFUSED_CLIPPED, 'error');
      return false;
    }
    return true;
  }

  /** The brush paints the selected layer, else the one under it; elsewhere it starts a new layer to paint in. */
  private downBrush(p: Point): ToolStart {
    const ui = this.host.ui.state;
    const root = this.host.activeRoot();
    const selected = ui.selection.length === 1 ? this.doc.layers[ui.selection[0]!] : undefined;
    const target =
      selected ??
      (() => {
        const hit = hitLayer(this.doc, root, p, (n) => !!kindOf(n).brush);
        return hit ? this.doc.layers[hit] : undefined;
      })();
    const brush = target && kindOf(target).brush;
    if (target && brush) {
      if (!this.canPaint(target)) return null;
      this.select([target.id]);
      return brush.start(this.tools, target, p);
    }
    for (const kind of registeredKinds()) {
      if (!kind.createForBrush || !kind.brush) continue;
      const created = kind.createForBrush(this.tools, p, root);
      if (!created) return null;
      this.select([created.id]);
      return kind.brush.start(this.tools, created, p);
    }
    return null;
  }

  pointerMove(e: CanvasPointer): void {
    const p = this.toCanvas(e.screen);
    const shift = !!e.shift;
    this.host.ui.update(shift === this.host.ui.state.shiftHeld ? { pointer: p } : { pointer: p, shiftHeld: shift });
    if (this.active && e.pressure !== undefined) this.pressures.push(e.pressure);
    this.active?.move(p, e);
  }

  pointerUp(e: CanvasPointer): void {
    const a = this.active;
    const p = this.toCanvas(e.screen);
    this.active = null;
    if (!a) {
      this.down = null;
      return;
    }
    a.up(p, e);
    this.down = null;
    this.set('NONE', null);
  }

  /** Abandons the current drag (Escape or a lost pointer): the document goes back to how it was. */
  cancel(): void {
    this.active?.cancel();
    this.active = null;
    if (this.host.ui.state.interaction !== 'NONE' && this.host.ui.state.interaction !== 'EDIT_TEXT')
      this.set('NONE', null);
  }

  /** Starts in-place editing of a text layer (a double click with the Move tool): selects it and opens the editor. */
  beginTextEdit(id: string): void {
    if (this.host.editor.doc.layers[id]?.type !== 'TEXT') return;
    this.active?.cancel();
    this.active = null;
    this.select([id]);
    this.set('EDIT_TEXT', null);
    this.host.ui.update({ editingTextId: id });
  }

  /** Leaves in-place text editing. */
  endTextEdit(): void {
    this.host.ui.update({ editingTextId: null });
    this.set('NONE', null);
  }
}

function normalizeRect(a: Point, b: Point) {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(b.x - a.x), height: Math.abs(b.y - a.y) };
}
