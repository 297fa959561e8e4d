import { useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import type { Rect } from '@koma/domain';
import { bubbleShape, canvasToScreen, shownText, trackingOf, updateText, type LayerNode } from '@koma/editor';
import type { EditorSession } from '../editor/session.ts';
import { useDoc, useUi } from '../editor/hooks.ts';
import { cssFontFor, fittedSize, measurerFor } from './text-measure.ts';

/** Where a text layer's glyphs go inside its box: the bubble's text area, or the box less its paddings. */
function textAreaOf(node: LayerNode<'TEXT'>): Rect {
  const d = node.data;
  const { width, height } = node.transform.size;
  if (d.backgroundType === 'SPEECH_BUBBLE') return bubbleShape(d, { x: 0, y: 0, width, height }).outline.textArea;
  return {
    x: d.paddings.left,
    y: d.paddings.top,
    width: width - d.paddings.left - d.paddings.right,
    height: height - d.paddings.top - d.paddings.bottom,
  };
}

/**
 * The editor's look: the layer's own font, size, spacing, colour and writing mode at the current zoom, over the area
 * the text prints in, on the bubble's paper so the canvas's copy of the old text does not show through.
 */
function editorStyle(session: EditorSession, node: LayerNode<'TEXT'>, draft: string): CSSProperties {
  const d = node.data;
  const zoom = session.view().zoom;
  const area = textAreaOf(node);
  const at = canvasToScreen(session.view(), { x: node.transform.x + area.x, y: node.transform.y + area.y });
  // Shrink-to-fit text is edited at the size it prints at, re-fitted as the draft grows.
  const { width: boxW, height: boxH } = node.transform.size;
  const layout = shownText({ ...d, text: draft || ' ' }, boxW, boxH, measurerFor(d.vertical)).layout;
  const font = { ...layout.font, size: layout.font.size * zoom };
  const pitch =
    layout.kind === 'vertical'
      ? layout.columnPitch
      : layout.lines.length > 1
        ? layout.lines[1]!.y - layout.lines[0]!.y
        : 0;
  const lineHeight = pitch > 0 ? pitch * zoom : font.size * 1.3;
  // The block grows past the area when the draft outgrows it, centred on the area as it prints.
  const width = Math.max(area.width, layout.width) * zoom;
  const height = Math.max(area.height, layout.height) * zoom;
  const paper = d.backgroundType === 'NONE' ? 'rgba(255, 255, 255, 0.85)' : d.backgroundColor;
  const left = at.x - (width - area.width * zoom) / 2;
  const top = at.y - (height - area.height * zoom) / 2;
  // A turned layer is edited turned, about its box's centre as the canvas turns it; a mirrored one is edited
  // unmirrored, so that what is typed reads.
  const t = node.transform;
  const centre = canvasToScreen(session.view(), { x: t.x + t.size.width / 2, y: t.y + t.size.height / 2 });
  const turn = node.rotation
    ? { transform: `rotate(${node.rotation}deg)`, transformOrigin: `${centre.x - left}px ${centre.y - top}px` }
    : {};
  return {
    ...turn,
    left,
    top,
    width,
    height,
    font: cssFontFor(font, d.vertical),
    lineHeight: `${lineHeight}px`,
    letterSpacing: `${trackingOf(d) * zoom}px`,
    color: d.fontColor,
    background: paper,
    textAlign: d.textAlign === 'left' || d.textAlign === 'right' ? d.textAlign : 'center',
    writingMode: d.vertical ? 'vertical-rl' : 'horizontal-tb',
    // Padding that centres the block the way the canvas centres it in the area.
    paddingTop: d.vertical ? 0 : Math.max(0, (height - layout.height * zoom) / 2),
    paddingRight: d.vertical ? Math.max(0, (width - layout.width * zoom) / 2) : 0,
  };
}

/**
 * In-place text editing where the text stands, as it prints. The placeholder (or the old text) starts selected so
 * typing replaces it; Escape cancels, a click away (the editor losing focus) commits, and the commit is one undo
 * step. IME composition is the textarea's own; keys pressed while composing belong to the IME.
 */
export function TextEditor({ session }: { session: EditorSession }) {
  const editingId = useUi(session, (s) => s.editingTextId);
  const doc = useDoc(session);
  const node = editingId ? doc.layers[editingId] : undefined;
  if (node?.type !== 'TEXT') return null;
  // A fresh editor per edit, so the draft starts as the layer's text before the selection is made.
  return <InPlaceEditor key={node.id} session={session} node={node} />;
}

function InPlaceEditor({ session, node }: { session: EditorSession; node: LayerNode<'TEXT'> }) {
  const [draft, setDraft] = useState(node.data.text);
  const ref = useRef<HTMLTextAreaElement>(null);
  const done = useRef(false);

  useLayoutEffect(() => {
    ref.current?.focus({ preventScroll: true });
    ref.current?.select();
  }, []);

  const finish = (keep: boolean) => {
    if (done.current) return;
    done.current = true;
    if (keep && draft !== node.data.text) {
      const result = session.editor.execute(updateText, {
        id: node.id,
        patch: { text: draft },
        fit: fittedSize({ ...node.data, text: draft }),
      });
      if (!result.ok) {
        // Refused (broken ruby notation): the message is shown and the draft stays open to be corrected.
        done.current = false;
        requestAnimationFrame(() => ref.current?.focus({ preventScroll: true }));
        return;
      }
    }
    session.controller.endTextEdit();
  };
  return (
    <textarea
      ref={ref}
      className="canvas-text-editor"
      data-testid="text-editor"
      value={draft}
      spellCheck={false}
      style={editorStyle(session, node, draft)}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => finish(true)}
      onKeyDown={(e) => {
        e.stopPropagation();
        // Keys pressed while an IME is composing belong to it (Escape drops the composition, Enter confirms it).
        if (e.nativeEvent.isComposing || e.keyCode === 229) return;
        if (e.key === 'Escape') {
          e.preventDefault();
          finish(false);
        }
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) finish(true);
      }}
      onPointerDown={(e) => e.stopPropagation()}
      onDoubleClick={(e) => e.stopPropagation()}
    />
  );
}
