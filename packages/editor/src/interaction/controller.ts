import { HANDLE_HIT_MARGIN, type Point, type ViewTransform } from '@koma/domain';
import { bubbleShape, tailFromTip } from '../text/tail.ts';
import { newBubbleData } from '../text/defaults.ts';
import { updateText } from '../commands/text.ts';
import type { Editor, Gesture } from '../editor.ts';
import type { UiStore, InteractionState } from '../ui/ui-state.ts';
import type { DocState, LayerNode } from '../store/state.ts';
import { addSketch, addText } from '../commands/layers.ts';
import { moveLayers, resizeLayer } from '../commands/transform.ts';
import { moveJoint } from '../commands/pose.ts';
import { movePanelVertices, splitPanel } from '../commands/panels.ts';
import { addSketchStroke } from '../commands/sketch.ts';
import { addMaskStroke } from '../commands/image.ts';
import { panelsUnder } from '../commands/panel-helpers.ts';
import type { Corner } from '../commands/transform.ts';
import { boxOf, cornerAt, edgeAt, hitLayer, jointAt, layersInRect, vertexAt } from './hit.ts';
import { pan, screenToCanvas } from '../view/view.ts';

/** A pointer event in both coordinate spaces. */
export interface CanvasPointer {
  screen: Point;
  button: number;
  shift?: boolean;
  alt?: boolean;
}

/** What the controller needs from the screen around it. */
export interface InteractionHost {
  editor: Editor;
  ui: UiStore;
  view(): ViewTransform;
  setView(view: ViewTransform): void;
  /** The root group being edited: the infinite canvas or the open page. */
  activeRoot(): string;
}

/** Moves smaller than this (screen px) count as a click, not a drag. */
const CLICK_SLOP = 3;
export const PAINT_REFUSED_CLIPPED = 'Please merge the layer before painting on it.';
export const PAINT_REFUSED_PROCESSING = 'The layer is still processing.';
export const NO_LAYER_SELECTED = 'No layer selected.';

type Active =
  | { kind: 'MOVE_VIEW'; start: Point; view: ViewTransform }
  | { kind: 'MOVE_LAYER'; start: Point; ids: string[]; gesture: Gesture<{ ids: string[]; dx: number; dy: number }> }
  | {
      kind: 'RESIZE_LAYER';
      start: Point;
      id: string;
      corner: Corner;
      keepAspect: boolean;
      gesture: Gesture<Parameters<typeof resizeLayer.run>[1]>;
    }
  | { kind: 'SELECTION'; start: Point }
  | { kind: 'PAINT'; id: string; points: number[] }
  | { kind: 'PAINT_CANVAS'; id: string; points: number[]; gesture: Gesture<Parameters<typeof addSketchStroke.run>[1]> }
  | { kind: 'MOVE_JOINT'; id: string; candidate: number; gesture: Gesture<Parameters<typeof moveJoint.run>[1]> }
  | {
      kind: 'MOVE_PANEL_VERTEX' | 'EXPAND_PANEL';
      start: Point;
      moves: { panelId: string; index: number }[];
      gesture: Gesture<Parameters<typeof movePanelVertices.run>[1]>;
    }
  | { kind: 'PANEL_CLICK'; start: Point; panelId: string; screen: Point }
  | { kind: 'MOVE_TAIL'; id: string; gesture: Gesture<Parameters<typeof updateText.run>[1]> };

/**
 * The pointer interactions of editor.md §4 as a state machine over the six tools. Every drag runs as one gesture,
 * so it lands in history as one entry when the pointer goes up.
 */
export class InteractionController {
  private active: Active | null = null;
  private downScreen: Point | null = null;

  constructor(private readonly host: InteractionHost) {}

  get state(): InteractionState {
    return this.host.ui.state.interaction;
  }

  private get doc(): DocState {
    return this.host.editor.doc;
  }

  private toCanvas(screen: Point): Point {
    return screenToCanvas(this.host.view(), screen);
  }

  private set(kind: InteractionState, active: Active | null): void {
    this.active = active;
    if (this.host.ui.state.interaction !== kind) this.host.ui.update({ interaction: kind });
  }

  pointerDown(e: CanvasPointer): void {
    this.cancel();
    this.downScreen = e.screen;
    const ui = this.host.ui.state;
    const p = this.toCanvas(e.screen);
    const root = this.host.activeRoot();
    if (e.button === 1 || ui.panArmed) {
      this.set('MOVE_VIEW', { kind: 'MOVE_VIEW', start: e.screen, view: this.host.view() });
      return;
    }
    if (e.button !== 0) return;
    switch (ui.tool) {
      case 'MOVE':
        return this.downMove(e, p, root);
      case 'SELECT':
        this.set('SELECTION', { kind: 'SELECTION', start: p });
        this.host.ui.update({ selectionRect: { x: p.x, y: p.y, width: 0, height: 0 } });
        return;
      case 'BRUSH':
        return this.downBrush(p, root);
      case 'POSE':
        return this.downPose(e, p, root);
      case 'PANEL':
        return this.downPanel(e, p, root);
      case 'TEXT':
        return this.downText(p, root);
    }
  }

  private select(ids: string[]): void {
    this.host.ui.update({ selection: ids });
  }

  private downMove(e: CanvasPointer, p: Point, root: string): void {
    const selection = this.host.ui.state.selection;
    const zoom = this.host.view().zoom;
    if (selection.length === 1) {
      const node = this.doc.layers[selection[0]!];
      if (node?.type === 'TEXT' && !node.locked && tailTipNear(node, p, zoom)) {
        // Dragging a speech bubble's tail tip re-aims the tail; one undo step per drag.
        this.set('MOVE_LAYER', { kind: 'MOVE_TAIL', id: node.id, gesture: this.host.editor.beginGesture(updateText) });
        return;
      }
      const corner = node && !node.locked ? cornerAt(node, p, zoom) : null;
      if (node && corner) {
        const gesture = this.host.editor.beginGesture(resizeLayer);
        const keepAspect = node.type === 'IMAGE' || !!e.shift;
        this.set('RESIZE_LAYER', { kind: 'RESIZE_LAYER', start: p, id: node.id, corner, keepAspect, gesture });
        return;
      }
    }
    const hit = hitLayer(this.doc, root, p);
    if (!hit) {
      this.select([]);
      this.set('MOVE_VIEW', { kind: 'MOVE_VIEW', start: e.screen, view: this.host.view() });
      return;
    }
    const ids = e.shift ? [...new Set([...selection, hit])] : selection.includes(hit) ? selection : [hit];
    this.select(ids);
    if (ids.every((id) => this.doc.layers[id]?.locked)) return;
    this.set('MOVE_LAYER', { kind: 'MOVE_LAYER', start: p, ids, gesture: this.host.editor.beginGesture(moveLayers) });
  }

  private canPaint(node: LayerNode): boolean {
    if (this.host.ui.state.processing[node.id]) {
      this.host.ui.notify(PAINT_REFUSED_PROCESSING, 'error');
      return false;
    }
    const target = node.clipTarget ? this.doc.layers[node.clipTarget] : null;
    if (target?.type === 'IMAGE') {
      this.host.ui.notify(PAINT_REFUSED_CLIPPED, 'error');
      return false;
    }
    return true;
  }

  private downBrush(p: Point, root: string): void {
    const ui = this.host.ui.state;
    const selected = ui.selection.length === 1 ? this.doc.layers[ui.selection[0]!] : undefined;
    const target =
      selected ??
      (() => {
        const hit = hitLayer(this.doc, root, p, (n) => n.type === 'IMAGE' || n.type === 'SKETCH');
        return hit ? this.doc.layers[hit] : undefined;
      })();
    if (target?.type === 'IMAGE') {
      if (!this.canPaint(target)) return;
      this.select([target.id]);
      this.set('PAINT', { kind: 'PAINT', id: target.id, points: [...this.toImageSpace(target, p)] });
      return;
    }
    let sketchId = target?.type === 'SKETCH' ? target.id : null;
    if (sketchId && !this.canPaint(this.doc.layers[sketchId]!)) return;
    if (!sketchId) {
      // A stroke on empty canvas starts a sketch layer covering the page (or the visible area on the infinite canvas).
      const page = this.doc.pages.some((pg) => pg.rootId === root);
      const transform = page
        ? { x: 0, y: 0, size: { width: this.doc.comicConfiguration.width, height: this.doc.comicConfiguration.height } }
        : { x: p.x - 512, y: p.y - 512, size: { width: 1024, height: 1024 } };
      const created = this.host.editor.execute(addSketch, { parentId: root, transform });
      if (!created.ok) return;
      sketchId = created.value;
    }
    const sketch = this.doc.layers[sketchId]!;
    this.select([sketchId]);
    const local = [p.x - sketch.transform.x, p.y - sketch.transform.y];
    const gesture = this.host.editor.beginGesture(addSketchStroke);
    const active: Active = { kind: 'PAINT_CANVAS', id: sketchId, points: local, gesture };
    this.set('PAINT_CANVAS', active);
    gesture.update(this.strokeArgs(active));
  }

  private strokeArgs(a: Extract<Active, { kind: 'PAINT_CANVAS' }>) {
    return { id: a.id, color: this.host.ui.state.brushColor, radius: this.host.ui.state.brushSize, points: a.points };
  }

  private toImageSpace(node: LayerNode, p: Point): [number, number] {
    const t = node.transform;
    const sx = node.originalSize.width / (t.size.width || 1);
    const sy = node.originalSize.height / (t.size.height || 1);
    return [(p.x - t.x) * sx, (p.y - t.y) * sy];
  }

  private downPose(e: CanvasPointer, p: Point, root: string): void {
    const hit = hitLayer(this.doc, root, p, (n) => n.type === 'POSE');
    if (!hit) {
      this.set('MOVE_VIEW', { kind: 'MOVE_VIEW', start: e.screen, view: this.host.view() });
      return;
    }
    const pose = this.doc.layers[hit] as LayerNode<'POSE'>;
    this.select([hit]);
    const candidate = jointAt(pose, p);
    if (candidate === null || pose.locked) return;
    const gesture = this.host.editor.beginGesture(moveJoint);
    this.set('MOVE_JOINT', { kind: 'MOVE_JOINT', id: hit, candidate, gesture });
  }

  private downPanel(e: CanvasPointer, p: Point, root: string): void {
    const panels = panelsUnder(this.doc, root).filter((n) => n.visible);
    const vertex = vertexAt(panels, p);
    if (vertex) {
      this.select([vertex.panelId]);
      const gesture = this.host.editor.beginGesture(movePanelVertices);
      this.set('MOVE_PANEL_VERTEX', { kind: 'MOVE_PANEL_VERTEX', start: p, moves: [vertex], gesture });
      return;
    }
    const edge = edgeAt(panels, p, this.host.view().zoom);
    if (edge) {
      this.select([edge.panelId]);
      const moves = edge.indices.map((index) => ({ panelId: edge.panelId, index }));
      const gesture = this.host.editor.beginGesture(movePanelVertices);
      this.set('EXPAND_PANEL', { kind: 'EXPAND_PANEL', start: p, moves, gesture });
      return;
    }
    const hit = hitLayer(this.doc, root, p, (n) => n.type === 'PANEL');
    if (hit) {
      this.select([hit]);
      this.active = { kind: 'PANEL_CLICK', start: p, panelId: hit, screen: e.screen };
      return;
    }
    this.set('MOVE_VIEW', { kind: 'MOVE_VIEW', start: e.screen, view: this.host.view() });
  }

  private downText(p: Point, root: string): void {
    const hit = hitLayer(this.doc, root, p, (n) => n.type === 'TEXT');
    if (hit) {
      this.select([hit]);
      this.set('EDIT_TEXT', null);
      this.host.ui.update({ editingTextId: hit });
      return;
    }
    const width = 360;
    const height = 240;
    const created = this.host.editor.execute(addText, {
      parentId: root,
      transform: { x: p.x - width / 2, y: p.y - height / 2, size: { width, height } },
      data: newBubbleData(),
    });
    if (!created.ok) return;
    this.select([created.value]);
    this.set('EDIT_TEXT', null);
    this.host.ui.update({ editingTextId: created.value });
  }

  pointerMove(e: CanvasPointer): void {
    const p = this.toCanvas(e.screen);
    this.host.ui.update({ pointer: p });
    const a = this.active;
    if (!a) return;
    switch (a.kind) {
      case 'MOVE_VIEW':
        this.host.setView(pan(a.view, e.screen.x - a.start.x, e.screen.y - a.start.y));
        return;
      case 'MOVE_LAYER':
        a.gesture.update({ ids: a.ids, dx: p.x - a.start.x, dy: p.y - a.start.y });
        return;
      case 'RESIZE_LAYER':
        a.gesture.update({
          id: a.id,
          corner: a.corner,
          dx: p.x - a.start.x,
          dy: p.y - a.start.y,
          keepAspect: a.keepAspect,
        });
        return;
      case 'SELECTION':
        this.host.ui.update({ selectionRect: normalizeRect(a.start, p) });
        return;
      case 'PAINT': {
        const node = this.doc.layers[a.id];
        if (node) a.points.push(...this.toImageSpace(node, p));
        return;
      }
      case 'PAINT_CANVAS': {
        const node = this.doc.layers[a.id];
        if (!node) return;
        a.points.push(p.x - node.transform.x, p.y - node.transform.y);
        a.gesture.update(this.strokeArgs(a));
        return;
      }
      case 'MOVE_JOINT': {
        const b = boxOf(this.doc.layers[a.id]!);
        a.gesture.update({ id: a.id, candidate: a.candidate, x: (p.x - b.x) / b.width, y: (p.y - b.y) / b.height });
        return;
      }
      case 'MOVE_PANEL_VERTEX':
      case 'EXPAND_PANEL':
        a.gesture.update({ moves: a.moves, dx: p.x - a.start.x, dy: p.y - a.start.y });
        return;
      case 'PANEL_CLICK':
        return;
      case 'MOVE_TAIL': {
        const node = this.doc.layers[a.id];
        if (node?.type !== 'TEXT') return;
        const aimed = tailFromTip(node.data, boxOf(node), p);
        if (aimed) a.gesture.update({ id: a.id, patch: aimed });
        return;
      }
    }
  }

  pointerUp(e: CanvasPointer): void {
    const a = this.active;
    const p = this.toCanvas(e.screen);
    this.active = null;
    if (!a) {
      this.downScreen = null;
      return;
    }
    switch (a.kind) {
      case 'MOVE_LAYER':
      case 'RESIZE_LAYER':
      case 'PAINT_CANVAS':
      case 'MOVE_JOINT':
      case 'MOVE_PANEL_VERTEX':
      case 'EXPAND_PANEL':
      case 'MOVE_TAIL':
        a.gesture.commit();
        break;
      case 'SELECTION': {
        const rect = normalizeRect(a.start, p);
        const ids = layersInRect(this.doc, this.host.activeRoot(), rect);
        this.host.ui.update({ selectionRect: null, selection: ids });
        if (ids.length === 0) this.host.ui.notify(NO_LAYER_SELECTED);
        break;
      }
      case 'PAINT': {
        const node = this.doc.layers[a.id];
        const radius =
          this.host.ui.state.brushSize * (node ? node.originalSize.width / (node.transform.size.width || 1) : 1);
        const result = this.host.editor.execute(addMaskStroke, { id: a.id, points: a.points, radius });
        // Releasing a mask stroke opens the editing (inpaint) window for the layer.
        if (result.ok) this.host.ui.update((s) => ({ toolStates: { ...s.toolStates, [a.id]: { tab: 5, window: 0 } } }));
        break;
      }
      case 'PANEL_CLICK': {
        const moved = this.downScreen ? Math.hypot(e.screen.x - this.downScreen.x, e.screen.y - this.downScreen.y) : 0;
        const panel = this.doc.layers[a.panelId];
        if (moved <= CLICK_SLOP && panel) {
          const b = boxOf(panel);
          const vertical = !!e.shift;
          const at = vertical ? (p.x - b.x) / b.width : (p.y - b.y) / b.height;
          const result = this.host.editor.execute(splitPanel, {
            id: a.panelId,
            direction: vertical ? 'vertical' : 'horizontal',
            at,
          });
          if (result.ok) this.select([a.panelId, result.value]);
        }
        break;
      }
      case 'MOVE_VIEW':
        break;
    }
    this.downScreen = null;
    this.set('NONE', null);
  }

  /** Abandons the current drag (Escape or a lost pointer): the document goes back to how it was. */
  cancel(): void {
    const a = this.active;
    if (a && 'gesture' in a) a.gesture.cancel();
    if (a?.kind === 'SELECTION') this.host.ui.update({ selectionRect: null });
    this.active = null;
    if (this.host.ui.state.interaction !== 'NONE' && this.host.ui.state.interaction !== 'EDIT_TEXT')
      this.set('NONE', null);
  }

  /** Leaves in-place text editing. */
  endTextEdit(): void {
    this.host.ui.update({ editingTextId: null });
    this.set('NONE', null);
  }
}

/** The tip of a text layer's speech-bubble tail, in canvas units, or null when it has none. */
export function tailTip(node: LayerNode<'TEXT'>): Point | null {
  if (node.data.backgroundType !== 'SPEECH_BUBBLE' || !node.data.hasTail) return null;
  return bubbleShape(node.data, boxOf(node)).tail?.tip ?? null;
}

function tailTipNear(node: LayerNode<'TEXT'>, p: Point, zoom: number): boolean {
  const tip = tailTip(node);
  return !!tip && Math.hypot(tip.x - p.x, tip.y - p.y) <= (HANDLE_HIT_MARGIN * 1.5) / zoom;
}

function normalizeRect(a: Point, b: Point) {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(b.x - a.x), height: Math.abs(b.y - a.y) };
}
