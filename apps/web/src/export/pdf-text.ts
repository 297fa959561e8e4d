// The PDF's lettering as vector text (issue 23 item 2): each eligible text layer is painted by the canvas's own text
// painter into a recording context, which keeps every glyph call (text, place, transform, font size, colour) in page
// pixels; the PDF writer then sets them with the bundled fonts, each layer with its turn and flip, outline, slant,
// opacity and blend mode, clipped to its panel. A layer the PDF cannot show exactly stays in the page image: one
// clipped to something other than a panel, one with something drawn over its lettering (the vector text lies over
// the whole page image), synthetic bold, a glyph no bundled file has, or an appearance the one-ink screen cannot take.
import {
  drawnFont,
  multiplyMatrix,
  placementOf,
  type DocState,
  type LayerNode,
  type PagePlan,
  type PdfMatrix,
  type PdfTextLayer,
  type PdfTextRun,
  type PlanNode,
  type PlanRaster,
} from '@koma/editor';
import { textPainter } from '../canvas/adapters/text.ts';

// Every regular and bold WOFF file of the bundled @fontsource packages (fontkit reads WOFF, not WOFF2), by file
// name, and each package's unicode ranges per slice. Vite emits the files (most are already there as the CSS's
// fallback) and hands their URLs; this module is loaded only when a PDF is exported.
// Bold and italic files only for the faces whose bold and italic the app loads (fonts.ts); the canvas fakes the
// others (a slant we reproduce, an emboldening we do not: such layers stay in the image).
const FILES = import.meta.glob<string>(
  [
    '../../../../node_modules/@fontsource/*/files/*-400-normal.woff',
    '../../../../node_modules/@fontsource/{comic-neue,noto-sans-jp}/files/*-700-normal.woff',
    '../../../../node_modules/@fontsource/comic-neue/files/*-{400,700}-italic.woff',
  ],
  { query: '?url', import: 'default', eager: true },
);
const RANGES = import.meta.glob<Record<string, string>>('../../../../node_modules/@fontsource/*/unicode.json', {
  import: 'default',
  eager: true,
});

const fileUrl = new Map(Object.entries(FILES).map(([path, url]) => [path.slice(path.lastIndexOf('/') + 1), url]));

interface Slice {
  name: string;
  ranges: [number, number][];
}

function parseRanges(text: string): [number, number][] {
  return text.split(',').flatMap((part) => {
    const m = /U\+([0-9a-f?]+)(?:-([0-9a-f]+))?/i.exec(part.trim());
    if (!m) return [];
    const from = Number.parseInt(m[1]!.replace(/\?/g, '0'), 16);
    const to = m[2] ? Number.parseInt(m[2], 16) : Number.parseInt(m[1]!.replace(/\?/g, 'f'), 16);
    return [[from, to] as [number, number]];
  });
}

const slicesByPackage = new Map<string, Slice[]>();
for (const [path, table] of Object.entries(RANGES)) {
  const pkg = /@fontsource\/([^/]+)\//.exec(path)?.[1];
  if (!pkg) continue;
  const slices = Object.entries(table).map(([key, ranges]) => ({
    name: key.replace(/^\[(\d+)\]$/, '$1'),
    ranges: parseRanges(ranges),
  }));
  slicesByPackage.set(pkg, slices);
}

const packageOf = (family: string) => family.toLowerCase().replace(/\s+/g, '-');

/**
 * How Chrome slants a face that has no italic file (Blink sets Skia's text skew to -1/4 for synthetic italic): x
 * moves right by a quarter of the height above the baseline.
 */
const SYNTHETIC_ITALIC_SKEW = 0.25;

/**
 * The file of `family` that holds `codePoint` as the canvas draws it — bold and italic when asked — and the slant
 * the browser adds when the face has no italic file; null when the face has no file with the glyph, 'fake bold' when
 * it has the glyph but not in bold.
 */
function fontFileFor(
  family: string,
  bold: boolean,
  italic: boolean,
  codePoint: number,
): { url: string; skew: number } | 'fake bold' | null {
  const pkg = packageOf(family);
  const slice = slicesByPackage.get(pkg)?.find((s) => s.ranges.some(([a, b]) => codePoint >= a && codePoint <= b));
  if (!slice) return null;
  const file = (style: string) => fileUrl.get(`${pkg}-${slice.name}-${bold ? 700 : 400}-${style}.woff`);
  const url = italic ? file('italic') : undefined;
  if (url) return { url, skew: 0 };
  const upright = file('normal');
  if (upright) return { url: upright, skew: italic ? SYNTHETIC_ITALIC_SKEW : 0 };
  // The face has the glyph but no bold file: the canvas emboldens the regular one (not another face's bold).
  return bold ? 'fake bold' : null;
}

/** Splits text into pieces each set in one file: the layer's face, else the Japanese gothic (as the CSS stack does). */
function segmentsOf(text: string, family: string, bold: boolean, italic: boolean): PdfTextRun['segments'] | null {
  const out: PdfTextRun['segments'] = [];
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    const file = fontFileFor(family, bold, italic, cp) ?? fontFileFor('Noto Sans JP', bold, italic, cp);
    if (file === 'fake bold') return null;
    if (!file) {
      if (/\s/.test(char) && out.length > 0) {
        out[out.length - 1]!.text += char;
        continue;
      }
      return null;
    }
    const last = out.at(-1);
    if (last?.font === file.url && (last.skew ?? 0) === file.skew) last.text += char;
    else out.push({ text: char, font: file.url, ...(file.skew ? { skew: file.skew } : {}) });
  }
  return out;
}

/** Whether the layer itself can be vector text under the PDF's ink (its place on the page is checked apart). */
function eligible(node: LayerNode<'TEXT'>, ink: 'colour' | 'grey' | 'screentone'): boolean {
  const d = node.data;
  const opacity = node.opacity ?? 1;
  const blend = node.blendMode ?? 'normal';
  return (
    node.visible &&
    d.text.trim() !== '' &&
    drawnFont(d) !== undefined &&
    // Grey is taken after compositing: a blend of greys is not the grey of the blend. The one-ink screen turns a
    // translucent raster into dots, which flat vector text could not.
    (ink === 'colour' || blend === 'normal') &&
    (ink !== 'screentone' || opacity === 1)
  );
}

/** A stand-in for Canvas2D that keeps the transform and the glyph calls and ignores every other drawing call. */
function recorder(
  base: PdfMatrix,
  onText: (text: string, m: PdfMatrix, state: Record<string, unknown>, stroke: boolean) => void,
) {
  let matrix = base;
  const stack: { matrix: PdfMatrix; state: Record<string, unknown> }[] = [];
  let state: Record<string, unknown> = {
    font: '10px sans-serif',
    fillStyle: '#000000',
    strokeStyle: '#000000',
    lineWidth: 1,
    textAlign: 'start',
    textBaseline: 'alphabetic',
  };
  const methods: Record<string, (...args: unknown[]) => void> = {
    save: () => {
      stack.push({ matrix, state: { ...state } });
    },
    restore: () => {
      const top = stack.pop();
      if (top) ({ matrix, state } = top);
    },
    translate: (x, y) => {
      matrix = multiplyMatrix(matrix, [1, 0, 0, 1, Number(x), Number(y)]);
    },
    rotate: (a) => {
      const [c, s] = [Math.cos(Number(a)), Math.sin(Number(a))];
      matrix = multiplyMatrix(matrix, [c, s, -s, c, 0, 0]);
    },
    scale: (x, y) => {
      matrix = multiplyMatrix(matrix, [Number(x), 0, 0, Number(y), 0, 0]);
    },
    fillText: (text, x, y) => {
      onText(String(text), multiplyMatrix(matrix, [1, 0, 0, 1, Number(x), Number(y)]), state, false);
    },
    strokeText: (text, x, y) => {
      onText(String(text), multiplyMatrix(matrix, [1, 0, 0, 1, Number(x), Number(y)]), state, true);
    },
  };
  const noop = () => undefined;
  return new Proxy({} as CanvasRenderingContext2D, {
    get: (_t, key: string) => methods[key] ?? (key in state ? state[key] : noop),
    set: (_t, key: string, value: unknown) => {
      state[key] = value;
      return true;
    },
  });
}

const grey = (hex: string): string => {
  const n = Number.parseInt(hex.replace('#', '').slice(0, 6).padEnd(6, '0'), 16);
  const y = Math.round(0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255));
  const h = y.toString(16).padStart(2, '0');
  return `#${h}${h}${h}`;
};

type Box = { left: number; top: number; right: number; bottom: number };

/** A raster of the plan in drawing order, with what decides whether lettering may lie over the page image. */
interface Drawn {
  node: PlanRaster;
  hidden: boolean;
  /** For a clipped raster: the panel it is clipped to (outline and border), or null when its base is no panel. */
  panel?: { polygon: { x: number; y: number }[]; border: PlanRaster | null } | null;
}

function drawingOrder(nodes: readonly PlanNode[]): Drawn[] {
  const out: Drawn[] = [];
  const visit = (list: readonly PlanNode[], hidden: boolean) => {
    list.forEach((n, i) => {
      if (n.kind === 'group') return visit(n.children, hidden || n.hidden);
      const entry: Drawn = { node: n, hidden: hidden || n.hidden };
      if (n.clipping) {
        // The clipping base is the nearest raster below that does not clip itself (as the composite reads it).
        const base = list.slice(0, i).findLast((m) => m.kind === 'raster' && !m.clipping);
        const border = list.find((m): m is PlanRaster => m.kind === 'raster' && m.role === 'panelBorder');
        entry.panel =
          base?.kind === 'raster' && base.role === 'panelArea' && base.polygon
            ? { polygon: base.polygon, border: border && !border.hidden ? border : null }
            : null;
      }
      out.push(entry);
    });
  };
  visit(nodes, false);
  return out;
}

const overlaps = (a: Box, r: { x: number; y: number; width: number; height: number }) =>
  r.width > 0 && r.height > 0 && a.left < r.x + r.width && r.x < a.right && a.top < r.y + r.height && r.y < a.bottom;

let measuring: CanvasRenderingContext2D | null = null;
function textWidth(font: string, text: string): number {
  if (typeof document !== 'undefined') measuring ??= document.createElement('canvas').getContext('2d');
  if (!measuring) return text.length * Number(/([\d.]+)px/.exec(font)?.[1] ?? 16);
  measuring.font = font;
  return measuring.measureText(text).width;
}

/** Where a run can put ink, in page pixels: its em box, widened for outlines, slant and overhang. */
function inkBox(run: PdfTextRun, font: string, text: string): Box {
  const w = textWidth(font, text);
  const pad = (run.stroke ? run.stroke.lineWidth / 2 : 0) + run.size * 0.3;
  const left = (run.align === 'center' ? -w / 2 : 0) - pad;
  const top = (run.baseline === 'top' ? 0 : -run.size / 2) - pad;
  const [a, b, c, d, e, f] = run.matrix;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [left, top],
    [left + w + 2 * pad, top],
    [left, top + run.size + 2 * pad],
    [left + w + 2 * pad, top + run.size + 2 * pad],
  ] as const) {
    xs.push(a * x + c * y + e);
    ys.push(b * x + d * y + f);
  }
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

/**
 * The vector lettering of one page: the runs to draw, and the text layers whose glyph rasters must be left out of
 * the page image. `ink` follows the PDF's tone: greys for greyscale, black or white for a one-ink screen.
 */
export function pageTextRuns(
  doc: DocState,
  plan: PagePlan,
  ink: 'colour' | 'grey' | 'screentone',
): { runs: PdfTextRun[]; layerIds: Set<string> } {
  const layerIds = new Set<string>();
  const runsOf = new Map<string, PdfTextRun[]>();
  const shade = (colour: string) =>
    ink === 'colour'
      ? colour
      : ink === 'grey'
        ? grey(colour)
        : Number.parseInt(grey(colour).slice(1, 3), 16) < 128
          ? '#000000'
          : '#ffffff';
  const order = drawingOrder(plan.nodes);
  // Top layer first: whether a layer's lettering may lie over the page image depends on what is drawn above it,
  // and a text above that is itself vector text is drawn after it in the PDF too.
  for (let i = order.length - 1; i >= 0; i--) {
    const { node: n, hidden, panel } = order[i]!;
    const layer = n.layerId === null ? undefined : doc.layers[n.layerId];
    if (n.role !== 'text' || hidden || layer?.type !== 'TEXT' || !eligible(layer, ink)) continue;
    if (panel === null) continue;
    const d = layer.data;
    const family = drawnFont(d)!.family;
    const scale: PdfMatrix = [plan.scaleX, 0, 0, plan.scaleY, -plan.area.x * plan.scaleX, -plan.area.y * plan.scaleY];
    const base = multiplyMatrix(scale, [...placementOf(layer).matrix]);
    const border = panel?.border;
    const group: PdfTextLayer = {
      id: layer.id,
      opacity: layer.opacity ?? 1,
      blendMode: layer.blendMode ?? 'normal',
      ...(panel ? { clip: panel.polygon } : {}),
      ...(border
        ? { border: { width: border.stroke?.width ?? 5, color: shade(border.stroke?.color ?? '#000000') } }
        : {}),
    };
    const mine: PdfTextRun[] = [];
    let box: Box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    let ok = true;
    const ctx = recorder(base, (text, matrix, state, stroke) => {
      const lineWidth = Number(state.lineWidth);
      if (stroke && !(lineWidth > 0)) return;
      const size = Number(/([\d.]+)px/.exec(String(state.font))?.[1] ?? d.fontSize);
      const segments = segmentsOf(text, family, d.fontBold, d.fontItalic);
      if (!segments) {
        ok = false;
        return;
      }
      const run: PdfTextRun = {
        segments,
        matrix,
        size,
        color: shade(String(stroke ? state.strokeStyle : state.fillStyle)),
        align: state.textAlign === 'center' ? 'center' : 'left',
        baseline: state.textBaseline === 'middle' ? 'middle' : 'top',
        ...(stroke ? { stroke: { lineWidth } } : {}),
        layer: group,
      };
      const ink = inkBox(run, String(state.font), text);
      box = {
        left: Math.min(box.left, ink.left),
        top: Math.min(box.top, ink.top),
        right: Math.max(box.right, ink.right),
        bottom: Math.max(box.bottom, ink.bottom),
      };
      mine.push(run);
    });
    textPainter(layer, doc)(ctx);
    if (!ok || mine.length === 0) continue;
    // Anything drawn above the lettering in the page image would end up under the vector text: keep the raster.
    // The panel's own border is stroked again over clipped text by the writer.
    const covered = order.slice(i + 1).some((above) => {
      if (above.hidden || above.node === border) return false;
      if (above.node.role === 'text' && above.node.layerId !== null && layerIds.has(above.node.layerId)) return false;
      return overlaps(box, above.node.rect);
    });
    if (covered) continue;
    runsOf.set(layer.id, mine);
    layerIds.add(layer.id);
  }
  const runs = order.flatMap(({ node }) =>
    node.role === 'text' && node.layerId !== null ? (runsOf.get(node.layerId) ?? []) : [],
  );
  return { runs, layerIds };
}

/** The plan with the glyph rasters of `layerIds` hidden, so the page image keeps only their bubbles. */
export function withoutGlyphs(plan: PagePlan, layerIds: ReadonlySet<string>): PagePlan {
  const strip = (nodes: PagePlan['nodes']): PagePlan['nodes'] =>
    nodes.map((n) =>
      n.kind === 'group'
        ? { ...n, children: strip(n.children) }
        : n.role === 'text' && n.layerId !== null && layerIds.has(n.layerId)
          ? { ...n, hidden: true }
          : n,
    );
  return { ...plan, nodes: strip(plan.nodes) };
}
