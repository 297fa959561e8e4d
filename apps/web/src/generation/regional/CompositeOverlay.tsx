// The generation frame over the canvas while the Regions or Sketch map section is open: region boxes to draw, move
// and resize, or the sketch-map brushes to paint and erase. Pointer input inside the frame is taken here, so the
// editor's tools never see it; outside the frame the canvas works as usual (select a panel, pan).
import { useEffect, useRef, useState } from 'react';
import type { PointerEvent as ReactPointerEvent, ReactNode } from 'react';
import {
  MAX_BRUSHES,
  MAX_REGIONS,
  SKETCH_MAP_BRUSH_RADIUS,
  cornerNear,
  movedRect,
  nextCompositeColor,
  rectContains,
  rectFromPoints,
  rectOnCanvas,
  resizedRect,
  toFrame,
  type GenerationFrame,
  type Point,
  type RectCorner,
  type RegionRect,
  type SketchMapBrush,
} from '@koma/domain';
import { addSketchMapStroke, drawRegion, pan, screenToCanvas, wheelZoom, type Gesture } from '@koma/editor';
import { useDoc, useUi } from '../../editor/hooks.ts';
import type { EditorSession } from '../../editor/session.ts';
import { useT } from '../../i18n/index.ts';
import { useController, useSettings } from '../hooks.ts';
import { currentFrame } from './frame.ts';
import { useComposite, type CompositeStore } from './store.ts';
import '../i18n.ts';
import './regional.css';

/** Screen pixels around a corner of the chosen region that grab it for resizing. */
const CORNER_GRAB_PX = 10;
/** A box drawn smaller than this (screen pixels) either way was a click, not a region. */
const MIN_BOX_PX = 4;

type DrawArgs = Parameters<typeof drawRegion.run>[1];
type StrokeArgs = Parameters<typeof addSketchMapStroke.run>[1];

type Drag =
  | {
      kind: 'draw';
      frame: GenerationFrame;
      index: number;
      start: Point;
      color: string;
      negativePrompt: string;
      gesture: Gesture<DrawArgs>;
    }
  | {
      kind: 'move' | 'resize';
      frame: GenerationFrame;
      index: number;
      start: Point;
      rect: RegionRect;
      corner: RectCorner | null;
      color: string;
      gesture: Gesture<DrawArgs>;
    }
  | { kind: 'paint'; frame: GenerationFrame; args: StrokeArgs; gesture: Gesture<StrokeArgs> };

export function CompositeOverlay({ session }: { session: EditorSession }): ReactNode {
  const t = useT();
  const [ui, store] = useComposite(session);
  const doc = useDoc(session);
  useUi(session, (s) => s.selection); // the frame follows the selected panel
  const settings = useSettings(useController(session));
  const host = useRef<HTMLDivElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const [hover, setHover] = useState<Point | null>(null);
  const mode = ui.mode;

  useEffect(() => {
    const element = frameRef.current;
    if (!mode || !element) return;
    // Wheel over the frame pans and zooms like the canvas under it (a passive React listener could not stop scrolling).
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      const local = localPoint(host.current, e);
      const view = session.view();
      if (e.ctrlKey || e.metaKey) session.setView(wheelZoom(view, local, e.deltaY));
      else session.setView(pan(view, -e.deltaX, -e.deltaY));
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !drag.current) store.update({ mode: null });
    };
    element.addEventListener('wheel', wheel, { passive: false });
    window.addEventListener('keydown', key);
    return () => {
      element.removeEventListener('wheel', wheel);
      window.removeEventListener('keydown', key);
    };
  }, [mode, session, store]);

  if (!mode) return null;
  const frame = currentFrame(session, settings.diffusion.dimension);
  const view = session.view();
  const screen = {
    left: frame.box.x * view.zoom + view.x,
    top: frame.box.y * view.zoom + view.y,
    width: frame.box.width * view.zoom,
    height: frame.box.height * view.zoom,
  };
  const toCanvas = (e: { clientX: number; clientY: number }) =>
    screenToCanvas(session.view(), localPoint(host.current, e));

  const down = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    e.currentTarget.setPointerCapture(e.pointerId);
    const p = toCanvas(e);
    drag.current =
      mode === 'regions'
        ? startRegionDrag(session, store, frame, p, settings.diffusion.negativePrompt)
        : startStroke(session, store, frame, p);
  };
  const move = (e: ReactPointerEvent<HTMLDivElement>) => {
    const p = toCanvas(e);
    if (mode === 'sketch') setHover(p);
    const d = drag.current;
    if (!d) return;
    if (d.kind === 'paint') {
      const f = toFrame(p, d.frame.box);
      d.args = { ...d.args, points: [...d.args.points, f.x, f.y] };
      d.gesture.update(d.args);
      return;
    }
    const box = d.frame.box;
    const rect =
      d.kind === 'draw'
        ? rectFromPoints(d.start, p, box)
        : d.kind === 'move'
          ? movedRect(d.rect, p.x - d.start.x, p.y - d.start.y, box)
          : resizedRect(d.rect, d.corner ?? 'se', p, box);
    d.gesture.update({
      index: d.index,
      rect,
      color: d.color,
      ...(d.kind === 'draw' ? { negativePrompt: d.negativePrompt } : {}),
    });
  };
  const up = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    if (d.kind === 'draw') {
      const r = rectFromPoints(d.start, toCanvas(e), d.frame.box);
      const zoom = session.view().zoom;
      const tiny =
        (r.x1 - r.x0) * d.frame.box.width * zoom < MIN_BOX_PX || (r.y1 - r.y0) * d.frame.box.height * zoom < MIN_BOX_PX;
      if (tiny) {
        d.gesture.cancel();
        return;
      }
      d.gesture.update({ index: d.index, rect: r, color: d.color, negativePrompt: d.negativePrompt });
    }
    d.gesture.commit();
  };
  const cancel = () => {
    drag.current?.gesture.cancel();
    drag.current = null;
  };

  const label = frame.panelId
    ? t('generation.composite.framePanel', { width: frame.pixels.width, height: frame.pixels.height })
    : t('generation.composite.frame', { width: frame.pixels.width, height: frame.pixels.height });
  const brush = doc.sketchMap.brushes[ui.brush];
  const cursorRadius = (brush?.radius ?? SKETCH_MAP_BRUSH_RADIUS) * (screen.width / frame.pixels.width);
  return (
    <div className="gen-composite" ref={host} data-testid="composite-overlay" data-mode={mode}>
      <div
        ref={frameRef}
        className={`gen-composite__frame gen-composite__frame--${mode}`}
        style={screen}
        data-testid="composite-frame"
        data-panel-id={frame.panelId ?? ''}
        data-pixels={`${frame.pixels.width}x${frame.pixels.height}`}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={cancel}
        onPointerLeave={() => setHover(null)}
      >
        <span className="gen-composite__label">{label}</span>
        {mode === 'regions' &&
          doc.regionalPrompts.map((region, index) =>
            region.rect ? (
              <RegionBox
                key={index}
                index={index}
                color={region.color}
                rect={region.rect}
                selected={index === ui.region}
              />
            ) : null,
          )}
        {mode === 'sketch' &&
          doc.sketchMap.brushes.map((b, index) => (
            <BrushCanvas key={index} brush={b} frame={frame} width={screen.width} height={screen.height} />
          ))}
        {mode === 'sketch' && hover && (
          <span
            className={`gen-composite__cursor${ui.erase ? ' gen-composite__cursor--erase' : ''}`}
            style={{
              left: (hover.x - frame.box.x) * view.zoom - cursorRadius,
              top: (hover.y - frame.box.y) * view.zoom - cursorRadius,
              width: cursorRadius * 2,
              height: cursorRadius * 2,
              borderColor: ui.erase ? undefined : brush?.color,
            }}
          />
        )}
      </div>
    </div>
  );
}

function localPoint(host: HTMLElement | null, e: { clientX: number; clientY: number }): Point {
  const r = host?.getBoundingClientRect();
  return { x: e.clientX - (r?.left ?? 0), y: e.clientY - (r?.top ?? 0) };
}

/**
 * A press on the chosen region's corner resizes it; on a region's box moves it (the top one, which becomes the
 * chosen one); elsewhere draws a box: for the chosen region while it has none, else for a new region, which starts
 * with the prompt tab's negative prompt (the server needs one per region).
 */
function startRegionDrag(
  session: EditorSession,
  store: CompositeStore,
  frame: GenerationFrame,
  p: Point,
  negativePrompt: string,
): Drag | null {
  const regions = session.editor.doc.regionalPrompts;
  const box = frame.box;
  const zoom = session.view().zoom;
  const chosen = regions[store.state.region];
  if (chosen?.rect) {
    const corner = cornerNear(rectOnCanvas(chosen.rect, box), p, CORNER_GRAB_PX / zoom);
    if (corner) {
      const gesture = session.editor.beginGesture(drawRegion);
      const index = store.state.region;
      return { kind: 'resize', frame, index, start: p, rect: chosen.rect, corner, color: chosen.color, gesture };
    }
  }
  for (let index = regions.length - 1; index >= 0; index--) {
    const region = regions[index]!;
    if (region.rect && rectContains(rectOnCanvas(region.rect, box), p)) {
      store.update({ region: index });
      const gesture = session.editor.beginGesture(drawRegion);
      return { kind: 'move', frame, index, start: p, rect: region.rect, corner: null, color: region.color, gesture };
    }
  }
  const index = chosen && !chosen.rect ? store.state.region : regions.length;
  if (index >= MAX_REGIONS) return null;
  const color = regions[index]?.color ?? nextCompositeColor(regions.map((r) => r.color));
  store.update({ region: index });
  const gesture = session.editor.beginGesture(drawRegion);
  return { kind: 'draw', frame, index, start: p, color, negativePrompt, gesture };
}

/** A stroke of the chosen brush (a new brush when there is none yet), or of the eraser on the chosen brush. */
function startStroke(session: EditorSession, store: CompositeStore, frame: GenerationFrame, p: Point): Drag | null {
  const brushes = session.editor.doc.sketchMap.brushes;
  const chosen = brushes[store.state.brush];
  if (!chosen && store.state.erase) return null;
  const index = chosen ? store.state.brush : brushes.length;
  if (index >= MAX_BRUSHES) return null;
  const f = toFrame(p, frame.box);
  const args: StrokeArgs = {
    index,
    points: [f.x, f.y],
    radius: chosen?.radius ?? SKETCH_MAP_BRUSH_RADIUS,
    erase: store.state.erase,
    color: chosen?.color ?? nextCompositeColor(brushes.map((b) => b.color)),
  };
  const gesture = session.editor.beginGesture(addSketchMapStroke);
  if (!gesture.update(args)) {
    gesture.cancel();
    return null;
  }
  store.update({ brush: index });
  return { kind: 'paint', frame, args, gesture };
}

function RegionBox(props: { index: number; color: string; rect: RegionRect; selected: boolean }): ReactNode {
  const { rect, color, selected } = props;
  return (
    <div
      className={`gen-composite__region${selected ? ' gen-composite__region--selected' : ''}`}
      data-testid="region-box"
      data-index={props.index}
      style={{
        left: `${rect.x0 * 100}%`,
        top: `${rect.y0 * 100}%`,
        width: `${(rect.x1 - rect.x0) * 100}%`,
        height: `${(rect.y1 - rect.y0) * 100}%`,
        borderColor: color,
        background: `color-mix(in srgb, ${color} 22%, transparent)`,
      }}
    >
      <span className="gen-composite__region-number" style={{ background: color }}>
        {props.index + 1}
      </span>
      {selected &&
        (['nw', 'ne', 'se', 'sw'] as const).map((c) => (
          <span
            key={c}
            className={`gen-composite__handle gen-composite__handle--${c}`}
            style={{ borderColor: color }}
          />
        ))}
    </div>
  );
}

/** One brush's strokes, in order (an erasing stroke clears what the brush painted before it), at screen size. */
function BrushCanvas(props: { brush: SketchMapBrush; frame: GenerationFrame; width: number; height: number }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const { brush, width, height } = props;
  const pixelsWide = props.frame.pixels.width;
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    // Sharp on a high-density screen, but never a huge bitmap when zoomed far in.
    const density = Math.min(window.devicePixelRatio || 1, 2048 / Math.max(width, height, 1));
    canvas.width = Math.max(1, Math.round(width * density));
    canvas.height = Math.max(1, Math.round(height * density));
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    const perPixel = canvas.width / pixelsWide;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    for (const stroke of brush.strokes) {
      ctx.globalCompositeOperation = stroke.erase ? 'destination-out' : 'source-over';
      ctx.strokeStyle = brush.color;
      ctx.fillStyle = brush.color;
      ctx.lineWidth = stroke.radius * 2 * perPixel;
      const pts = stroke.points;
      ctx.beginPath();
      if (pts.length === 2) {
        ctx.arc(pts[0]! * canvas.width, pts[1]! * canvas.height, stroke.radius * perPixel, 0, Math.PI * 2);
        ctx.fill();
        continue;
      }
      ctx.moveTo(pts[0]! * canvas.width, pts[1]! * canvas.height);
      for (let i = 2; i + 1 < pts.length; i += 2) ctx.lineTo(pts[i]! * canvas.width, pts[i + 1]! * canvas.height);
      ctx.stroke();
    }
  }, [brush, width, height, pixelsWide]);
  return <canvas ref={ref} className="gen-composite__brush" data-testid="sketch-brush-canvas" />;
}
