import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { boxOf, changeVariation, keepVariations } from '@koma/editor';
import { useDoc } from '../editor/hooks.ts';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { toScreen } from './faces/face-boxes.ts';
import { useObservable } from './observable.ts';
import { resultsOf, type TrayState } from './results.ts';
import './i18n-jobs.ts';
import './results.css';

const TRAY_GAP = 12;

/**
 * The results tray (comic-first staging): the pictures of the last generation side by side beside their layer.
 * Click or ← → shows one on the layer; each can be kept or dropped; "Keep the checked" settles it in one undo
 * step, Esc keeps them all. It never blocks the canvas: editing goes on meanwhile.
 */
export function ResultsTray({ session }: { session: EditorSession }) {
  const tray = useObservable(resultsOf(session).tray);
  const doc = useDoc(session);
  const node = tray ? doc.layers[tray.layerId] : undefined;
  if (!tray || node?.type !== 'IMAGE') return null;
  return <Tray key={`${tray.layerId}:${tray.imageIds.join(',')}`} session={session} tray={tray} />;
}

function Tray({ session, tray }: { session: EditorSession; tray: TrayState }) {
  const t = useT();
  const doc = useDoc(session);
  const results = resultsOf(session);
  const node = doc.layers[tray.layerId];
  const [dropped, setDropped] = useState<ReadonlySet<string>>(new Set());
  const ref = useRef<HTMLDivElement>(null);
  const present =
    node?.type === 'IMAGE' ? tray.imageIds.filter((id) => node.data.variations.some((v) => v.id === id)) : [];
  // Undo, a reload or another tab took the pictures away: nothing left to choose from.
  useEffect(() => {
    if (present.length < 2) results.closeTray();
  }, [present.length, results]);
  if (node?.type !== 'IMAGE' || present.length < 2) return null;
  const shown = node.data.variations[node.data.variationsIdx]?.id;
  const pick = (id: string) => {
    const index = node.data.variations.findIndex((v) => v.id === id);
    if (index >= 0 && index !== node.data.variationsIdx)
      session.editor.execute(changeVariation, { id: node.id, index });
  };
  const toggle = (id: string) =>
    setDropped((d) => {
      const next = new Set(d);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const settle = () => {
    const drop = present.filter((id) => dropped.has(id));
    const keep = present.filter((id) => !dropped.has(id));
    if (drop.length > 0 && keep.length > 0) {
      const show = shown && !dropped.has(shown) ? shown : keep[0];
      session.editor.execute(keepVariations, { id: node.id, drop, ...(show ? { show } : {}) });
    }
    results.closeTray();
  };
  const onKey = (e: KeyboardEvent) => {
    const at = Math.max(0, present.indexOf(shown ?? ''));
    const step = (d: number) => pick(present[(at + d + present.length) % present.length]!);
    if (e.key === 'ArrowRight') step(1);
    else if (e.key === 'ArrowLeft') step(-1);
    else if (e.key === ' ' && shown) toggle(shown);
    else if (e.key === 'Enter') settle();
    else if (e.key === 'Escape') results.closeTray();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  // Beside the layer on the right, or under it when the right side is off screen.
  const view = session.view();
  const box = toScreen(boxOf(node), view);
  const right = box.left + box.width + TRAY_GAP;
  const style =
    right + 220 < session.viewport.width
      ? { left: right, top: Math.max(8, box.top) }
      : { left: Math.max(8, box.left), top: box.top + box.height + TRAY_GAP };
  return (
    <div
      ref={ref}
      className="gen-tray"
      style={style}
      tabIndex={0}
      role="listbox"
      aria-label={t('generation.tray.title')}
      data-testid="results-tray"
      data-layer-id={node.id}
      onKeyDown={onKey}
    >
      <strong className="small">{t('generation.tray.title')}</strong>
      <div className="gen-tray__items">
        {present.map((id, i) => (
          <figure
            key={id}
            className={`gen-tray__item${id === shown ? ' gen-tray__item--shown' : ''}${dropped.has(id) ? ' gen-tray__item--dropped' : ''}`}
            role="option"
            aria-selected={id === shown}
            data-testid="tray-item"
            data-image-id={id}
            data-kept={!dropped.has(id)}
          >
            <button
              type="button"
              className="gen-tray__pick"
              aria-label={t('generation.tray.pick', { n: i + 1 })}
              data-testid={`tray-pick-${i}`}
              onClick={() => pick(id)}
            >
              <img src={`/api/images/${encodeURIComponent(id)}/thumbnail`} alt="" draggable={false} />
              <span className="gen-tray__number">{i + 1}</span>
            </button>
            <label className="small">
              <input
                type="checkbox"
                checked={!dropped.has(id)}
                data-testid={`tray-keep-${i}`}
                onChange={() => toggle(id)}
              />{' '}
              {t('generation.tray.keep')}
            </label>
          </figure>
        ))}
      </div>
      <div className="button-row">
        <button
          type="button"
          className="button button--small button--primary"
          data-testid="tray-settle"
          onClick={settle}
        >
          {t('generation.tray.keepChosen')}
        </button>
        <button
          type="button"
          className="button button--small"
          data-testid="tray-keep-all"
          onClick={() => results.closeTray()}
        >
          {t('generation.tray.keepAll')}
        </button>
      </div>
      <p className="muted small">{t('generation.tray.hint')}</p>
    </div>
  );
}
