import { createTextLayer, type Layer } from '@koma/domain';
import type { Layer as PsdLayer, LayerTextData } from 'ag-psd';
import { FONT_CATALOGUE } from '../text/font-catalogue.ts';

/** Document units per PSD pixel, and where the PSD's origin lands. */
export interface PsdToDoc {
  scale: number;
  x: number;
  y: number;
}

/**
 * Another tool's type layer as an editable TEXT layer (no background): its text (ruby notation stays text), font,
 * size, colour, alignment and orientation, in the box the PSD sets it in — turned as the PSD turns it — or, for
 * point text, the layer's bounds.
 */
export function textLayerOf(key: string, psd: PsdLayer, text: LayerTextData, place: PsdToDoc): Layer {
  const m = text.transform && text.transform.length >= 6 ? text.transform : [1, 0, 0, 1, psd.left ?? 0, psd.top ?? 0];
  const [a, b, c, d, e, f] = m.map((v) => (Number.isFinite(v) ? v : 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const scale = Math.sqrt(Math.abs(a * d - b * c)) || 1;
  const bounds = text.boxBounds && text.boxBounds.length >= 4 ? text.boxBounds : null;
  let box: { x: number; y: number; width: number; height: number };
  let rotation = 0;
  if (bounds && bounds[2]! > bounds[0]! && bounds[3]! > bounds[1]!) {
    const [l, t, r, bt] = bounds as [number, number, number, number];
    const cx = (l + r) / 2;
    const cy = (t + bt) / 2;
    const centre = { x: a * cx + c * cy + e, y: b * cx + d * cy + f };
    const width = (r - l) * Math.hypot(a, b);
    const height = (bt - t) * Math.hypot(c, d);
    box = { x: centre.x - width / 2, y: centre.y - height / 2, width, height };
    rotation = (Math.atan2(b, a) * 180) / Math.PI;
  } else {
    const left = psd.left ?? 0;
    const top = psd.top ?? 0;
    box = {
      x: left,
      y: top,
      width: Math.max(1, (psd.right ?? left + 1) - left),
      height: Math.max(1, (psd.bottom ?? top + 1) - top),
    };
  }
  const style = text.style ?? {};
  const fill = style.fillColor && 'r' in style.fillColor ? style.fillColor : null;
  const fontSize = (style.fontSize ?? 50) * scale * place.scale;
  const justification = text.paragraphStyle?.justification;
  const layer = createTextLayer(
    key,
    {
      x: place.x + box.x * place.scale,
      y: place.y + box.y * place.scale,
      size: { width: Math.max(1, box.width * place.scale), height: Math.max(1, box.height * place.scale) },
    },
    {
      text: text.text,
      fontName: fontNameOf(style.font?.name),
      fontSize: Number.isFinite(fontSize) && fontSize > 0 ? fontSize : 50,
      fontBold: style.fauxBold ?? false,
      fontItalic: style.fauxItalic ?? false,
      fontColor: fill ? hex(fill.r, fill.g, fill.b) : '#000000',
      textAlign: justification === 'left' || justification === 'right' ? justification : 'center',
      vertical: text.orientation === 'vertical',
      backgroundType: 'NONE',
      autoPadding: false,
      paddings: { top: 0, right: 0, bottom: 0, left: 0 },
    },
  );
  layer.name = psd.name ?? layer.name;
  layer.visible = !psd.hidden;
  if (Math.abs(rotation) > 0.01) layer.rotation = rotation;
  return layer;
}

/** A PostScript name back to the catalogue's font (what Koma exports), or the PSD's own name (a user's font). */
function fontNameOf(name: string | undefined): string {
  if (!name) return 'Komika';
  const hit = FONT_CATALOGUE.find((font) => font.postScript.includes(name));
  return hit ? hit.name : name;
}

function hex(r: number, g: number, b: number): string {
  const part = (v: number) =>
    Math.round(Math.min(255, Math.max(0, v)))
      .toString(16)
      .padStart(2, '0');
  return `#${part(r)}${part(g)}${part(b)}`;
}
