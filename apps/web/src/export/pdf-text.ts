// The PDF's lettering as vector text (issue 23 item 2): each eligible text layer is painted by the canvas's own text
// painter into a recording context, which keeps every glyph call (text, place, transform, font size, colour) in page
// pixels; the PDF writer then sets them with the bundled fonts. Layers the PDF's text model cannot show exactly —
// turned, flipped, translucent, blended, clipped, or outlined glyphs — stay in the page image.
import {
  drawnFont,
  multiplyMatrix,
  type DocState,
  type LayerNode,
  type PagePlan,
  type PdfMatrix,
  type PdfTextRun,
} from '@koma/editor';
import { textPainter } from '../canvas/adapters/text.ts';

// Every regular and bold WOFF file of the bundled @fontsource packages (fontkit reads WOFF, not WOFF2), by file
// name, and each package's unicode ranges per slice. Vite emits the files (most are already there as the CSS's
// fallback) and hands their URLs; this module is loaded only when a PDF is exported.
// Bold files only for the faces whose bold the app loads (fonts.ts); the canvas emboldens the others itself.
const FILES = import.meta.glob<string>(
  [
    '../../../../node_modules/@fontsource/*/files/*-400-normal.woff',
    '../../../../node_modules/@fontsource/{comic-neue,noto-sans-jp}/files/*-700-normal.woff',
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

/** The URL of the file of `family` that holds `codePoint`, bold when asked and shipped, or null. */
function fontFileFor(family: string, bold: boolean, codePoint: number): string | null {
  const pkg = packageOf(family);
  const slice = slicesByPackage.get(pkg)?.find((s) => s.ranges.some(([a, b]) => codePoint >= a && codePoint <= b));
  if (!slice) return null;
  for (const weight of bold ? [700, 400] : [400]) {
    const url = fileUrl.get(`${pkg}-${slice.name}-${weight}-normal.woff`);
    if (url) return url;
  }
  return null;
}

/** Splits text into pieces each set in one file: the layer's face, else the Japanese gothic (as the CSS stack does). */
function segmentsOf(text: string, family: string, bold: boolean): PdfTextRun['segments'] | null {
  const out: PdfTextRun['segments'] = [];
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    const url = fontFileFor(family, bold, cp) ?? fontFileFor('Noto Sans JP', bold, cp);
    if (!url) {
      if (/\s/.test(char) && out.length > 0) {
        out[out.length - 1]!.text += char;
        continue;
      }
      return null;
    }
    const last = out.at(-1);
    if (last?.font === url) last.text += char;
    else out.push({ text: char, font: url });
  }
  return out;
}

/** Whether the PDF's text can show this layer exactly as the page image would. */
function eligible(node: LayerNode<'TEXT'>): boolean {
  const d = node.data;
  return (
    node.visible &&
    node.clipTarget === null &&
    (node.rotation ?? 0) === 0 &&
    !node.flipX &&
    !node.flipY &&
    (node.opacity ?? 1) === 1 &&
    (node.blendMode ?? 'normal') === 'normal' &&
    !(d.fontStroke && d.fontStrokeSize > 0) &&
    // Only upright files are indexed: italic lettering keeps its raster.
    !d.fontItalic &&
    d.text.trim() !== '' &&
    drawnFont(d) !== undefined
  );
}

/** A stand-in for Canvas2D that keeps the transform and the glyph calls and ignores every other drawing call. */
function recorder(base: PdfMatrix, onText: (text: string, m: PdfMatrix, state: Record<string, unknown>) => void) {
  let matrix = base;
  const stack: { matrix: PdfMatrix; state: Record<string, unknown> }[] = [];
  let state: Record<string, unknown> = {
    font: '10px sans-serif',
    fillStyle: '#000000',
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
      onText(String(text), multiplyMatrix(matrix, [1, 0, 0, 1, Number(x), Number(y)]), state);
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

/**
 * The vector lettering of one page: the runs to draw, and the text layers whose glyph rasters must be left out of
 * the page image. `ink` follows the PDF's tone: greys for greyscale, black or white for a one-ink screen.
 */
export function pageTextRuns(
  doc: DocState,
  plan: PagePlan,
  ink: 'colour' | 'grey' | 'screentone',
): { runs: PdfTextRun[]; layerIds: Set<string> } {
  const runs: PdfTextRun[] = [];
  const layerIds = new Set<string>();
  const visit = (nodes: PagePlan['nodes']) => {
    for (const n of nodes) {
      if (n.kind === 'group') {
        visit(n.children);
        continue;
      }
      const layer = n.layerId === null ? undefined : doc.layers[n.layerId];
      if (n.role !== 'text' || n.hidden || layer?.type !== 'TEXT' || !eligible(layer)) continue;
      const d = layer.data;
      const family = drawnFont(d)!.family;
      const t = layer.transform;
      const base: PdfMatrix = [
        plan.scaleX,
        0,
        0,
        plan.scaleY,
        (t.x - plan.area.x) * plan.scaleX,
        (t.y - plan.area.y) * plan.scaleY,
      ];
      const mine: PdfTextRun[] = [];
      let ok = true;
      const ctx = recorder(base, (text, matrix, state) => {
        const size = Number(/([\d.]+)px/.exec(String(state.font))?.[1] ?? d.fontSize);
        const segments = segmentsOf(text, family, d.fontBold);
        if (!segments) {
          ok = false;
          return;
        }
        const colour = String(state.fillStyle);
        const shade =
          ink === 'colour'
            ? colour
            : ink === 'grey'
              ? grey(colour)
              : Number.parseInt(grey(colour).slice(1, 3), 16) < 128
                ? '#000000'
                : '#ffffff';
        mine.push({
          segments,
          matrix,
          size,
          color: shade,
          align: state.textAlign === 'center' ? 'center' : 'left',
          baseline: state.textBaseline === 'middle' ? 'middle' : 'top',
        });
      });
      textPainter(layer, doc)(ctx);
      if (!ok || mine.length === 0) continue;
      runs.push(...mine);
      layerIds.add(layer.id);
    }
  };
  visit(plan.nodes);
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
