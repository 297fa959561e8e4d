import { useEffect, useRef, useState } from 'react';
import { THUMBNAIL_SIZE_COMIC, THUMBNAIL_SIZE_INFINITE, THUMBNAIL_WEBP_QUALITY } from '@koma/domain';
import { canvasToScreen, hitLayer, pan, tailTip, updateText, wheelZoom, zoomAbout } from '@koma/editor';
import type { EditorSession } from '../editor/session.ts';
import { useDoc, useUi } from '../editor/hooks.ts';
import { useT } from '../i18n/index.ts';
import { SceneRenderer } from './scene.ts';
import { fittedSize } from './text-measure.ts';

interface Props {
  session: EditorSession;
  /** A right click on a layer: where (viewport pixels) and which layer. */
  onContextMenu?: (menu: { x: number; y: number; layerId: string }) => void;
  fps?: number;
  restricted?: boolean;
  onRenderer?: (renderer: SceneRenderer | null) => void;
}

/** The canvas: a Konva stage driven by the session, with pointer, wheel, pinch and drop input. */
export function CanvasView({ session, fps, restricted, onRenderer, onContextMenu }: Props) {
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const menuRef = useRef(onContextMenu);
  menuRef.current = onContextMenu;
  const [renderer, setRenderer] = useState<SceneRenderer | null>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const scene = new SceneRenderer(element, session, fps, restricted);
    setRenderer(scene);
    onRenderer?.(scene);
    // Benchmarks and tests drive the renderer directly (see bench/canvas.bench.ts).
    (window as { __komaScene?: SceneRenderer }).__komaScene = scene;
    (window as { __komaTailTip?: typeof tailTip }).__komaTailTip = tailTip;
    session.thumbnail = () =>
      scene.thumbnail(
        session.type === 'COMIC' ? THUMBNAIL_SIZE_COMIC : THUMBNAIL_SIZE_INFINITE,
        THUMBNAIL_WEBP_QUALITY,
      );
    const resize = () => scene.resize(element.clientWidth, element.clientHeight);
    const observer = new ResizeObserver(resize);
    observer.observe(element);
    resize();
    if (session.view().zoom === 1 && session.view().x === 0 && session.view().y === 0) session.recenter(false);
    return () => {
      observer.disconnect();
      session.thumbnail = null;
      onRenderer?.(null);
      scene.dispose();
    };
    // The scene lives as long as the session; fps changes are applied below without rebuilding it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session]);

  useEffect(() => {
    if (fps) renderer?.setFps(fps, !!restricted);
  }, [renderer, fps, restricted]);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const pointers = new Map<number, { x: number; y: number }>();
    let pinch: {
      distance: number;
      zoom: number;
      mid: { x: number; y: number };
      view: ReturnType<EditorSession['view']>;
    } | null = null;
    const local = (e: { clientX: number; clientY: number }) => {
      const r = element.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };
    const down = (e: PointerEvent) => {
      try {
        element.setPointerCapture(e.pointerId);
      } catch {
        // A pointer the browser no longer tracks cannot be captured; the gesture still works without capture.
      }
      pointers.set(e.pointerId, local(e));
      if (pointers.size === 2) {
        // Two fingers: leave any one-finger gesture and pinch-zoom instead.
        session.controller.cancel();
        const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
        pinch = {
          distance: Math.hypot(a.x - b.x, a.y - b.y),
          zoom: session.view().zoom,
          mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
          view: session.view(),
        };
        return;
      }
      if (pointers.size > 2) return;
      e.preventDefault();
      // preventDefault keeps the focus where it was; take it, so a prompt box left focused stops eating shortcuts.
      element.focus({ preventScroll: true });
      session.controller.pointerDown({ screen: local(e), button: e.button, shift: e.shiftKey, alt: e.altKey });
    };
    const move = (e: PointerEvent) => {
      if (pointers.has(e.pointerId)) pointers.set(e.pointerId, local(e));
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
        const distance = Math.hypot(a.x - b.x, a.y - b.y);
        const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
        const zoomed = zoomAbout(pinch.view, pinch.mid, (pinch.zoom * distance) / Math.max(pinch.distance, 1));
        session.setView(pan(zoomed, mid.x - pinch.mid.x, mid.y - pinch.mid.y));
        return;
      }
      session.controller.pointerMove({ screen: local(e), button: e.button, shift: e.shiftKey });
    };
    const up = (e: PointerEvent) => {
      const wasPinch = pinch !== null;
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (wasPinch) return;
      session.controller.pointerUp({ screen: local(e), button: e.button, shift: e.shiftKey });
    };
    const cancel = (e: PointerEvent) => {
      pointers.delete(e.pointerId);
      pinch = null;
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
      void session.dropFiles(files, { x: (p.x - view.x) / view.zoom, y: (p.y - view.y) / view.zoom });
    };
    const menu = (e: MouseEvent) => {
      e.preventDefault();
      const view = session.view();
      const p = local(e);
      const hit = hitLayer(session.editor.doc, session.activeRoot(), {
        x: (p.x - view.x) / view.zoom,
        y: (p.y - view.y) / view.zoom,
      });
      if (!hit) return;
      session.ui.update({ selection: [hit] });
      menuRef.current?.({ x: e.clientX, y: e.clientY, layerId: hit });
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
      element.removeEventListener('contextmenu', menu);
      element.removeEventListener('pointerdown', down);
      element.removeEventListener('pointermove', move);
      element.removeEventListener('pointerup', up);
      element.removeEventListener('pointercancel', cancel);
      element.removeEventListener('wheel', wheel);
      element.removeEventListener('dragover', over);
      element.removeEventListener('drop', drop);
    };
  }, [session]);

  const tool = useUi(session, (s) => s.tool);
  const panArmed = useUi(session, (s) => s.panArmed);
  const cursor = panArmed ? 'grab' : tool === 'MOVE' ? 'default' : tool === 'TEXT' ? 'text' : 'crosshair';
  return (
    <div
      className="canvas-host"
      ref={host}
      style={{ cursor }}
      data-testid="canvas"
      aria-label={t('editor.canvasLabel')}
      role="application"
      tabIndex={0}
    >
      <TextEditor session={session} />
    </div>
  );
}

/** In-place text editing: a textarea over the text layer; IME composition works as in any textarea. */
function TextEditor({ session }: { session: EditorSession }) {
  const editingId = useUi(session, (s) => s.editingTextId);
  const doc = useDoc(session);
  const node = editingId ? doc.layers[editingId] : undefined;
  const [draft, setDraft] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (node?.type === 'TEXT') {
      setDraft(node.data.text);
      requestAnimationFrame(() => ref.current?.select());
    }
    // Only when another layer starts editing; typing must not reset the draft.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editingId]);

  if (node?.type !== 'TEXT') return null;
  const view = session.view();
  const p = canvasToScreen(view, node.transform);
  const commit = () => {
    if (draft !== node.data.text) {
      session.editor.execute(updateText, {
        id: node.id,
        patch: { text: draft },
        fit: fittedSize({ ...node.data, text: draft }),
      });
    }
    session.controller.endTextEdit();
  };
  return (
    <textarea
      ref={ref}
      className="canvas-text-editor"
      data-testid="text-editor"
      value={draft}
      style={{
        left: p.x,
        top: p.y,
        width: Math.max(120, node.transform.size.width * view.zoom),
        height: Math.max(60, node.transform.size.height * view.zoom),
        writingMode: node.data.vertical ? 'vertical-rl' : 'horizontal-tb',
        fontSize: Math.max(12, node.data.fontSize * view.zoom),
      }}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') session.controller.endTextEdit();
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) commit();
      }}
      onPointerDown={(e) => e.stopPropagation()}
    />
  );
}
