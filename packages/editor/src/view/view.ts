import { WHEEL_ZOOM_FACTOR, ZOOM_MAX, ZOOM_MIN, ZOOM_STEPS, type Point, type ViewTransform } from '@koma/domain';

/** screen = canvas × zoom + (x, y). */
export function canvasToScreen(view: ViewTransform, p: Point): Point {
  return { x: p.x * view.zoom + view.x, y: p.y * view.zoom + view.y };
}

export function screenToCanvas(view: ViewTransform, p: Point): Point {
  return { x: (p.x - view.x) / view.zoom, y: (p.y - view.y) / view.zoom };
}

export function clampZoom(zoom: number): number {
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom));
}

/** Zooms about a screen point, keeping the canvas point under it fixed. */
export function zoomAbout(view: ViewTransform, screen: Point, zoom: number): ViewTransform {
  const z = clampZoom(zoom);
  const c = screenToCanvas(view, screen);
  return { zoom: z, x: screen.x - c.x * z, y: screen.y - c.y * z };
}

/** One wheel tick with Ctrl or Cmd: 5 % in or out about the cursor. */
export function wheelZoom(view: ViewTransform, screen: Point, deltaY: number): ViewTransform {
  const factor = deltaY < 0 ? 1 + WHEEL_ZOOM_FACTOR : 1 / (1 + WHEEL_ZOOM_FACTOR);
  return zoomAbout(view, screen, view.zoom * factor);
}

/** The next zoom step above (+1) or below (-1) the current zoom, for the - and = keys. */
export function stepZoom(zoom: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOM_STEPS.find((s) => s > zoom + 1e-9) ?? ZOOM_MAX;
  return [...ZOOM_STEPS].reverse().find((s) => s < zoom - 1e-9) ?? ZOOM_MIN;
}

export function pan(view: ViewTransform, dx: number, dy: number): ViewTransform {
  return { ...view, x: view.x + dx, y: view.y + dy };
}

/** The view that centres a canvas rectangle in a viewport, fitted with a margin. */
export function fitRect(
  rect: { x: number; y: number; width: number; height: number },
  viewport: { width: number; height: number },
  margin = 40,
): ViewTransform {
  const zoom = clampZoom(
    Math.min(
      (viewport.width - 2 * margin) / Math.max(rect.width, 1),
      (viewport.height - 2 * margin) / Math.max(rect.height, 1),
    ),
  );
  return {
    zoom,
    x: viewport.width / 2 - (rect.x + rect.width / 2) * zoom,
    y: viewport.height / 2 - (rect.y + rect.height / 2) * zoom,
  };
}

export function easeOutCubic(t: number): number {
  const u = 1 - Math.min(1, Math.max(0, t));
  return 1 - u * u * u;
}

/** The view part way (t in 0..1) through an eased move from `from` to `to`. */
export function interpolateView(from: ViewTransform, to: ViewTransform, t: number): ViewTransform {
  const k = easeOutCubic(t);
  return {
    x: from.x + (to.x - from.x) * k,
    y: from.y + (to.y - from.y) * k,
    zoom: from.zoom + (to.zoom - from.zoom) * k,
  };
}
