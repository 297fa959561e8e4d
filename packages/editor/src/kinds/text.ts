import { HANDLE_HIT_MARGIN, TEXT_EXPORT_PADDING, createTextLayer, zTextData, type Point } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { pinnedFaceCentre } from '../text/pin.ts';
import { addText } from '../commands/add.ts';
import { linkBubbles, unlinkBubble, unlinkBubbles, updateText } from '../commands/text.ts';
import { bubbleShape, tailFromTip } from '../text/tail.ts';
import { psdFontName } from '../text/font.ts';
import { shownText } from '../text/shrink.ts';
import { letteringScale, newBubbleBox, scaledTextData } from '../text/defaults.ts';
import { gestureDrag } from '../interaction/drag.ts';
import type { PlanContext, PlanNode, PlanText } from '../export/plan-types.ts';
import { clampName, grow, intersect, pixelRect } from '../export/rects.ts';
import { defineKind } from './kind.ts';
import { placedBounds, placementOf } from './placement.ts';

/**
 * The tip of a text layer's speech-bubble tail, in canvas units, or null when it has none. Given the document, a
 * tail pinned to a face has its tip where it is drawn, aimed at the face, so the handle follows the face.
 */
export function tailTip(node: LayerNode<'TEXT'>, doc?: DocState): Point | null {
  if (node.data.backgroundType !== 'SPEECH_BUBBLE' || !node.data.hasTail) return null;
  const target = doc ? pinnedFaceCentre(doc, node) : null;
  return bubbleShape(node.data, placedBounds(placementOf(node)), target).tail?.tip ?? null;
}

/**
 * The text layer's box frame in export pixels: its placement (turn and flip about the box centre) conjugated by the
 * export scale, so that box pixels map onto page pixels as the canvas maps layer units onto canvas units.
 */
function textFrame(l: LayerNode<'TEXT'>, ctx: PlanContext): NonNullable<PlanText['frame']> {
  const { matrix: m, size } = placementOf(l);
  const sx = ctx.scaleX;
  const sy = ctx.scaleY;
  const origin = ctx.toPage({ x: m[4], y: m[5] });
  return {
    matrix: [m[0], (m[1] * sy) / sx, (m[2] * sx) / sy, m[3], origin.x, origin.y],
    width: size.width * sx,
    height: size.height * sy,
  };
}

/** A text box with its background: none, a rectangle or a speech bubble with a tail. */
export const textKind = defineKind({
  type: 'TEXT',
  schema: zTextData,
  create: (id, transform) => createTextLayer(id, transform),
  container: false,
  raster: false,
  keepAspect: false,
  carriesClipped: false,
  // Every length of the lettering follows the page, outline and border widths included.
  rescale(node, factor) {
    node.data = scaledTextData(node.data, factor, false);
  },
  handles(node) {
    const tip = tailTip(node);
    return tip ? [tip] : [];
  },
  grab(host, node, p) {
    const tip = tailTip(node, host.doc);
    if (!tip || Math.hypot(tip.x - p.x, tip.y - p.y) > (HANDLE_HIT_MARGIN * 1.5) / host.zoom()) return null;
    // Dragging the tail tip re-aims the tail; one undo step per drag.
    return gestureDrag('MOVE_LAYER', host.editor.beginGesture(updateText), (q) => {
      const current = host.doc.layers[node.id];
      if (current?.type !== 'TEXT') return null;
      const aimed = tailFromTip(current.data, placedBounds(placementOf(current)), q);
      return aimed ? { id: node.id, patch: aimed } : null;
    });
  },
  tool: {
    id: 'TEXT',
    down(host, _e, p) {
      const hit = host.hitAt(p, (n) => n.type === 'TEXT');
      const root = host.activeRoot();
      let id = hit;
      if (!id) {
        // Sized for the page: a 350 or 600 dpi print page gets lettering as large, relative to it, as the spec's page.
        const scale = letteringScale(host.doc.comicConfiguration.setup);
        const data = scaledTextData(host.newBubble(), scale);
        const { width, height } = newBubbleBox(data.vertical, scale);
        const created = host.editor.execute(addText, {
          parentId: root,
          transform: { x: p.x - width / 2, y: p.y - height / 2, size: { width, height } },
          data,
        });
        if (!created.ok) return null;
        id = created.value;
      }
      host.select([id]);
      host.enter('EDIT_TEXT');
      host.ui.update({ editingTextId: id });
      return null;
    },
  },
  imageIds: () => [],
  export: {
    restore: true,
    nodes(l, clipping, ctx) {
      const base = ctx.base(l, clipping);
      const box = ctx.boxOf(l);
      const padded = intersect(pixelRect(grow(box, TEXT_EXPORT_PADDING)), ctx.canvas);
      const d = l.data;
      const out: PlanNode[] = [];
      if (d.backgroundType !== 'NONE') {
        out.push({
          kind: 'raster',
          ...base,
          key: `${l.id}:textBackground`,
          name: clampName(`${base.name} background`),
          role: 'textBackground',
          rect: padded,
          trim: true,
        });
      }
      const fontScale = Math.sqrt(ctx.scaleX * ctx.scaleY);
      // Shrink-to-fit text: the type layer carries the size the raster was drawn at.
      const { width, height } = l.transform.size;
      const fontSize = ctx.measure ? shownText(d, width, height, ctx.measure(d.vertical)).data.fontSize : d.fontSize;
      out.push({
        kind: 'raster',
        ...base,
        key: `${l.id}:text`,
        role: 'text',
        rect: padded,
        trim: true,
        text: {
          value: d.text,
          fontName: psdFontName(d),
          fontSize: fontSize * fontScale,
          color: d.fontColor,
          bold: d.fontBold,
          italic: d.fontItalic,
          align: d.textAlign === 'left' || d.textAlign === 'right' ? d.textAlign : 'center',
          vertical: d.vertical,
          box,
          frame: textFrame(l, ctx),
          // Canvas strokes are centred on the glyph edge, so half the width shows outside the fill.
          stroke:
            d.fontStroke && d.fontStrokeSize > 0
              ? { color: d.fontStrokeColor, size: (d.fontStrokeSize / 2) * fontScale }
              : null,
        },
      });
      return out;
    },
  },
  tab: ['text.fields'],
  commands: { addText, updateText, linkBubbles, unlinkBubbles },
  // A removed bubble leaves its partner standing alone (undo brings both links back).
  beforeRemove: (doc, node) => unlinkBubble(doc, node.id),
});
