import { useEffect, useRef, useState } from 'react';
import { THUMBNAIL_SIZE_COMIC, THUMBNAIL_SIZE_INFINITE, THUMBNAIL_WEBP_QUALITY } from '@koma/domain';
import type { TextData } from '@koma/domain';
import { currentSplitPreview, layoutText, pan, tailTip } from '@koma/editor';
import type { EditorSession } from '../editor/session.ts';
import { useUi } from '../editor/hooks.ts';
import { useT } from '../i18n/index.ts';
import { SceneRenderer } from './scene.ts';
import { TextEditor } from './TextEditor.tsx';
import { FONT_LOADED_EVENT } from '../fonts.ts';
import { measurerFor } from './text-measure.ts';
import { attachPointerInput, layerAt } from './pointer-input.ts';

interface Props {
  session: EditorSession;
  /** A right click on a layer: where (viewport pixels) and which layer. */
  onContextMenu?: (menu: { x: number; y: number; layerId: string }) => void;
  fps?: number;
  restricted?: boolean;
  onRenderer?: (renderer: SceneRenderer | null) => void;
  /** A read-only preview beside the editor's own canvas: it leaves the page-wide test hooks to that one. */
  preview?: boolean;
}

/** The canvas: a Konva stage driven by the session, with pointer, wheel, pinch and drop input. */
export function CanvasView({ session, fps, restricted, onRenderer, onContextMenu, preview }: Props) {
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
    if (!preview) (window as { __komaScene?: SceneRenderer }).__komaScene = scene;
    (window as { __komaTailTip?: typeof tailTip }).__komaTailTip = tailTip;
    // Browser specs read how a text layer is set (glyph kinds, ruby) with the browser's own font metrics.
    (window as { __komaLayoutText?: unknown }).__komaLayoutText = (data: TextData) =>
      layoutText(data, measurerFor(data.vertical));
    session.thumbnail = () =>
      scene.thumbnail(
        session.type === 'COMIC' ? THUMBNAIL_SIZE_COMIC : THUMBNAIL_SIZE_INFINITE,
        THUMBNAIL_WEBP_QUALITY,
      );
    let last: { width: number; height: number } | null = null;
    const resize = () => {
      const width = element.clientWidth;
      const height = element.clientHeight;
      if (last && last.width > 0 && last.height > 0 && width > 0 && height > 0) {
        // The view keeps its centre when the canvas area changes size (a sidebar folds, a tablet turns).
        const dx = (width - last.width) / 2;
        const dy = (height - last.height) / 2;
        if (dx !== 0 || dy !== 0) session.setView(pan(session.view(), dx, dy));
      }
      last = { width, height };
      scene.resize(width, height);
    };
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
    if (!renderer) return;
    // Text drawn before its font arrived is drawn again in it.
    const redraw = () => renderer.sync(true);
    window.addEventListener(FONT_LOADED_EVENT, redraw);
    return () => window.removeEventListener(FONT_LOADED_EVENT, redraw);
  }, [renderer]);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    // A double click on a text layer with the Move tool edits it where it stands.
    const doubleClick = (e: MouseEvent) => {
      if (session.ui.state.tool !== 'MOVE') return;
      const hit = layerAt(element, session, e.clientX, e.clientY);
      if (hit && session.editor.doc.layers[hit]?.type === 'TEXT') session.controller.beginTextEdit(hit);
    };
    element.addEventListener('dblclick', doubleClick);
    const detach = attachPointerInput(element, session, (clientX, clientY) => {
      const hit = layerAt(element, session, clientX, clientY);
      if (!hit) return false;
      session.ui.update({ selection: [hit] });
      menuRef.current?.({ x: clientX, y: clientY, layerId: hit });
      return true;
    });
    return () => {
      element.removeEventListener('dblclick', doubleClick);
      detach();
    };
  }, [session]);

  const tool = useUi(session, (s) => s.tool);
  // The split hint shows while the Panel tool's preview does (a drag: what lifting will cut). A finger has no hover
  // and no Shift, so on a touch screen the tool says how to cut while it is chosen.
  const [touchScreen] = useState(() => window.matchMedia?.('(hover: none)').matches ?? false);
  const splitHint = useUi(session, (s) => {
    const preview = currentSplitPreview(session.editor.doc, session.activeRoot(), s, session.view().zoom);
    if (s.splitCut && preview) return preview.direction === 'vertical' ? 'releaseDown' : 'releaseAcross';
    if (touchScreen) return s.tool === 'PANEL' && s.interaction === 'NONE' ? 'touch' : null;
    return preview?.direction ?? null;
  });
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
      {splitHint && (
        <div className="canvas-hint" data-testid="split-hint" role="status">
          {t(`editor.splitHint.${splitHint}`)}
        </div>
      )}
    </div>
  );
}
