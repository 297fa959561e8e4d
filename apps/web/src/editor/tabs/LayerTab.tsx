import {
  SPEECH_BUBBLES,
  SPEECH_BUBBLE_NAMES,
  TEXT_BACKGROUND_TYPES,
  TEXT_ALIGNS,
  TEXT_FITS,
  type TextData,
} from '@koma/domain';
import {
  bubbleStylePatch,
  shownText,
  renameLayer,
  setPanelDetails,
  splitPanel,
  setPanelBorder,
  togglePanelBorder,
  bleedPanel,
  updateText,
  linkBubbles,
  unlinkBubbles,
  kindOf,
  type LayerNode,
  type LayerTabSection,
} from '@koma/editor';
import type { ReactNode } from 'react';
import type { EditorSession } from '../session.ts';
import { useDoc, useUi } from '../hooks.ts';
import '../../setup/i18n.ts';
import { useT } from '../../i18n/index.ts';
import { ImageOperations } from '../../generation/ImageOperations.tsx';
import { fittedSize, measurerFor } from '../../canvas/text-measure.ts';
import { FilterFields } from './FilterFields.tsx';
import { AppearanceFields } from './AppearanceFields.tsx';
import { TextMoreFields, expandHex } from './TextMoreFields.tsx';
import { PinToFace } from './PinToFace.tsx';

/** Properties of the selected layer: common fields, then what its type offers. */
export function LayerTab({ session }: { session: EditorSession }) {
  const t = useT();
  const doc = useDoc(session);
  const selection = useUi(session, (s) => s.selection);
  const node = selection.length === 1 ? doc.layers[selection[0]!] : undefined;
  const pair = selection.map((id) => doc.layers[id]);
  if (pair.length === 2 && pair.every((l) => l?.type === 'TEXT' && l.data.backgroundType === 'SPEECH_BUBBLE')) {
    return (
      <div className="tab-body" data-testid="layer-tab">
        <button
          type="button"
          className="button"
          data-testid="link-bubbles"
          onClick={() => session.editor.execute(linkBubbles, { ids: [selection[0]!, selection[1]!] })}
        >
          {t('editor.layer.link')}
        </button>
      </div>
    );
  }
  if (!node) return <div className="tab-body muted">{t('editor.layer.none')}</div>;
  return (
    <div className="tab-body" data-testid="layer-tab">
      <label className="field">
        <span>{t('editor.layer.name')}</span>
        <input
          key={node.id}
          defaultValue={node.name}
          onBlur={(e) =>
            e.target.value !== node.name && session.editor.execute(renameLayer, { id: node.id, name: e.target.value })
          }
        />
      </label>
      <p className="muted small">
        {Math.round(node.transform.x)}, {Math.round(node.transform.y)} · {Math.round(node.transform.size.width)}×
        {Math.round(node.transform.size.height)}
      </p>
      {/* Appearance (opacity, blend, turns, flips) is common to every drawn layer; a container draws nothing. */}
      {!kindOf(node).container && <AppearanceFields session={session} node={node} />}
      {kindOf(node).tab.map((section) => (
        <Section key={section} section={section} session={session} node={node} />
      ))}
    </div>
  );
}

/**
 * The sections a layer kind lists in its `tab` (packages/editor/src/kinds), each drawn here; the record's type
 * refuses a section without a renderer. Each renderer is given only layers of the kinds that list it.
 */
const SECTIONS: Record<LayerTabSection, (props: { session: EditorSession; node: LayerNode }) => ReactNode> = {
  'text.fields': ({ session, node }) => <TextFields session={session} node={node as LayerNode<'TEXT'>} />,
  'panel.fields': ({ session, node }) => <PanelFields session={session} node={node as LayerNode<'PANEL'>} />,
  'image.variations': ({ node }) => <VariationCount node={node as LayerNode<'IMAGE'>} />,
  'image.filters': ({ session, node }) => <FilterFields session={session} node={node as LayerNode<'IMAGE'>} />,
  'generation.operations': ({ session, node }) => <ImageOperations session={session} node={node} />,
};

function Section({ section, ...props }: { section: LayerTabSection; session: EditorSession; node: LayerNode }) {
  return SECTIONS[section](props);
}

function VariationCount({ node }: { node: LayerNode<'IMAGE'> }) {
  const t = useT();
  if (node.data.variations.length === 0) return null;
  return (
    <p className="small">
      {t('editor.layer.variations', { i: node.data.variationsIdx + 1, n: node.data.variations.length })}
    </p>
  );
}

function TextFields({ session, node }: { session: EditorSession; node: LayerNode<'TEXT'> }) {
  const t = useT();
  const d = node.data;
  const set = (patch: Partial<TextData>) =>
    session.editor.execute(updateText, { id: node.id, patch, fit: fittedSize({ ...d, ...patch }) });
  return (
    <>
      <label className="field">
        <span>{t('editor.layer.text')}</span>
        <textarea
          key={`${node.id}-${d.text}`}
          rows={3}
          defaultValue={d.text}
          data-testid="text-content"
          onBlur={(e) => e.target.value !== d.text && set({ text: e.target.value })}
        />
      </label>
      <label className="field">
        <span>{t('editor.layer.background')}</span>
        <select
          value={d.backgroundType}
          onChange={(e) => set({ backgroundType: e.target.value as TextData['backgroundType'] })}
          data-testid="text-background"
        >
          {TEXT_BACKGROUND_TYPES.map((b) => (
            <option key={b} value={b}>
              {t(`editor.layer.backgroundTypes.${b}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="field field--inline">
        <span>{t('editor.layer.fontSize')}</span>
        <input
          type="number"
          min={1}
          max={500}
          value={d.fontSize}
          onChange={(e) => Number(e.target.value) > 0 && set({ fontSize: Number(e.target.value) })}
        />
      </label>
      <TextFit node={node} set={set} />
      <label className="field field--inline">
        <span>{t('editor.layer.fontColor')}</span>
        <input type="color" value={expandHex(d.fontColor)} onChange={(e) => set({ fontColor: e.target.value })} />
      </label>
      <label className="field field--inline">
        <span>{t('editor.layer.align')}</span>
        <select value={d.textAlign} onChange={(e) => set({ textAlign: e.target.value as TextData['textAlign'] })}>
          {TEXT_ALIGNS.map((a) => (
            <option key={a} value={a}>
              {t(`editor.layer.aligns.${a}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={d.vertical}
          onChange={(e) =>
            set({
              vertical: e.target.checked,
              // Dialogue sizes follow the writing direction (30 across, 35 down) unless the user chose another size.
              ...(d.fontSize === (e.target.checked ? 30 : 35) ? { fontSize: e.target.checked ? 35 : 30 } : {}),
            })
          }
          data-testid="text-vertical"
        />
        {t('editor.layer.vertical')}
      </label>
      <TextMoreFields node={node} set={set} />
      <label className="checkbox">
        <input type="checkbox" checked={d.fontBold} onChange={(e) => set({ fontBold: e.target.checked })} />
        {t('editor.layer.bold')}
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={d.fontItalic} onChange={(e) => set({ fontItalic: e.target.checked })} />
        {t('editor.layer.italic')}
      </label>
      {d.backgroundType === 'SPEECH_BUBBLE' && (
        <>
          <fieldset className="field">
            <legend>{t('editor.layer.bubbleStyle')}</legend>
            <div className="bubble-grid" role="radiogroup" data-testid="bubble-picker">
              {SPEECH_BUBBLES.map((bubble) => (
                <button
                  key={bubble.id}
                  type="button"
                  role="radio"
                  aria-checked={d.bubbleStyle === bubble.id}
                  className={`bubble-choice${d.bubbleStyle === bubble.id ? ' bubble-choice--active' : ''}`}
                  title={SPEECH_BUBBLE_NAMES[bubble.id] ?? bubble.id}
                  data-testid={`bubble-${bubble.id}`}
                  onClick={() => set(bubbleStylePatch(d, bubble.id))}
                >
                  <img src={`/${bubble.thumbnail}`} alt={SPEECH_BUBBLE_NAMES[bubble.id] ?? bubble.id} loading="lazy" />
                </button>
              ))}
            </div>
          </fieldset>
          <label className="checkbox">
            <input type="checkbox" checked={d.hasTail} onChange={(e) => set({ hasTail: e.target.checked })} />
            {t('editor.layer.hasTail')}
          </label>
          <LinkedTo session={session} node={node} />
          <PinToFace session={session} node={node} onChange={set} />
          <label className="field field--inline">
            <span>{t('editor.layer.tailAngle')}</span>
            <input
              type="range"
              min={0}
              max={359}
              value={Math.round(((d.tailAngle % 360) + 360) % 360)}
              onChange={(e) => set({ tailAngle: Number(e.target.value) })}
              data-testid="tail-angle"
            />
          </label>
          <label className="field field--inline">
            <span>{t('editor.layer.tailLength')}</span>
            <input
              type="range"
              min={0}
              max={400}
              value={d.tailLength}
              onChange={(e) => set({ tailLength: Number(e.target.value) })}
            />
          </label>
        </>
      )}
    </>
  );
}

/** The bubble this one is joined to, and a button to part them. */
function LinkedTo({ session, node }: { session: EditorSession; node: LayerNode<'TEXT'> }) {
  const t = useT();
  const id = node.data.linkedBubbleId;
  const partner = id === null ? undefined : session.editor.doc.layers[id];
  if (!partner) return null;
  return (
    <div className="field">
      <p className="small" data-testid="linked-to">
        {t('editor.layer.linkedTo', { name: partner.name || partner.type })}
      </p>
      <button
        type="button"
        className="button"
        data-testid="unlink-bubbles"
        onClick={() => session.editor.execute(unlinkBubbles, { id: node.id })}
      >
        {t('editor.layer.unlink')}
      </button>
    </div>
  );
}

/**
 * Grow the box to fit the text (the spec's behaviour) or shrink the text to fit the box; when shrinking, the size
 * the text is set at, or a warning when even the smallest size overflows.
 */
function TextFit({ node, set }: { node: LayerNode<'TEXT'>; set: (patch: Partial<TextData>) => unknown }) {
  const t = useT();
  const d = node.data;
  const { width, height } = node.transform.size;
  const shown = d.textFit === 'shrink' ? shownText(d, width, height, measurerFor(d.vertical)) : null;
  return (
    <>
      <label className="field">
        <span>{t('editor.layer.fit')}</span>
        <select
          value={d.textFit}
          data-testid="text-fit"
          onChange={(e) => set({ textFit: e.target.value as TextData['textFit'] })}
        >
          {TEXT_FITS.map((f) => (
            <option key={f} value={f}>
              {t(`editor.layer.fits.${f}`)}
            </option>
          ))}
        </select>
      </label>
      {shown?.overflow ? (
        <p className="small field-warning" role="alert" data-testid="text-overflow">
          {t('editor.layer.overflow', { n: shown.data.fontSize })}
        </p>
      ) : shown && shown.data.fontSize !== d.fontSize ? (
        <p className="small muted" data-testid="text-fitted-size" data-size={shown.data.fontSize}>
          {t('editor.layer.fittedAt', { n: shown.data.fontSize })}
        </p>
      ) : null}
    </>
  );
}

/**
 * Pins the tail to a detected face of an image on the same page, so it follows when the image moves. A menu of its
 * own (not a native select, whose open state a page cannot see): while it is open the faces are outlined and
 * numbered on their images as in the menu, and an outline can be clicked as well as an entry.
 */
function PanelFields({ session, node }: { session: EditorSession; node: LayerNode<'PANEL'> }) {
  const t = useT();
  return (
    <>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={node.data.border}
          onChange={() => session.editor.execute(togglePanelBorder, { id: node.id })}
        />
        {t('editor.layer.border')}
      </label>
      {node.data.border && (
        <div className="field-row">
          <label className="field">
            <span>{t('editor.layer.borderWidth')}</span>
            <input
              key={`${node.id}:${node.data.borderWidth}`}
              type="number"
              min={0.5}
              max={100}
              step={0.5}
              defaultValue={node.data.borderWidth}
              data-testid="panel-border-width"
              onBlur={(e) => {
                const width = Number(e.target.value);
                if (e.target.value !== '' && width !== node.data.borderWidth)
                  session.editor.execute(setPanelBorder, { ids: [node.id], width });
              }}
            />
          </label>
          <label className="field">
            <span>{t('editor.layer.borderColor')}</span>
            <input
              type="color"
              value={node.data.borderColor}
              data-testid="panel-border-color"
              onChange={(e) => session.editor.execute(setPanelBorder, { ids: [node.id], color: e.target.value })}
            />
          </label>
        </div>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={node.data.ignoreNeighbors}
          onChange={(e) => session.editor.execute(setPanelDetails, { id: node.id, ignoreNeighbors: e.target.checked })}
        />
        {t('editor.layer.ignoreNeighbors')}
      </label>
      <button
        type="button"
        className="button button--small"
        data-testid="bleed-panel"
        onClick={() => session.editor.execute(bleedPanel, { id: node.id })}
      >
        {t('setup.bleedPanel')}
      </button>
      <label className="field">
        <span>{t('editor.layer.description')}</span>
        <textarea
          key={node.id}
          rows={3}
          defaultValue={node.data.description}
          onBlur={(e) =>
            e.target.value !== node.data.description &&
            session.editor.execute(setPanelDetails, { id: node.id, description: e.target.value })
          }
        />
      </label>
      <div className="button-row">
        <button
          type="button"
          className="button"
          data-testid="split-horizontal"
          onClick={() => session.editor.execute(splitPanel, { id: node.id, direction: 'horizontal', at: 0.5 })}
        >
          {t('editor.layer.splitH')}
        </button>
        <button
          type="button"
          className="button"
          data-testid="split-vertical"
          onClick={() => session.editor.execute(splitPanel, { id: node.id, direction: 'vertical', at: 0.5 })}
        >
          {t('editor.layer.splitV')}
        </button>
      </div>
    </>
  );
}
