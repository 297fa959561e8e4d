// The Sketch map section of the prompt tab: a background prompt and brushes (colour, radius, prompt, negative
// prompt) painted in the generation frame on the canvas, an eraser, and Generate for POST /api/diffusion/smd.
import { useEffect, type ReactNode } from 'react';
import { COMPOSITE_MAX_SIDE, MAX_BRUSHES, nextCompositeColor } from '@koma/domain';
import {
  addSketchMapBrush,
  clearSketchMapBrush,
  removeSketchMapBrush,
  setSketchMapBackground,
  updateSketchMapBrush,
} from '@koma/editor';
import { useDoc } from '../../editor/hooks.ts';
import type { EditorSession } from '../../editor/session.ts';
import { expandHex } from '../../editor/tabs/TextMoreFields.tsx';
import { useT } from '../../i18n/index.ts';
import { useController, useSettings } from '../hooks.ts';
import { generateSketchMap, sketchMapRequest } from './generate.ts';
import { CompositeGenerateButton, IssueList, PromptBox } from './parts.tsx';
import { useComposite } from './store.ts';
import './regional.css';

export function SketchMapSection({ session }: { session: EditorSession }): ReactNode {
  const t = useT();
  const controller = useController(session);
  const doc = useDoc(session);
  const [ui, store] = useComposite(session);
  const map = doc.sketchMap;
  const open = ui.mode === 'sketch';
  useEffect(() => () => (store.state.mode === 'sketch' ? store.update({ mode: null }) : undefined), [store]);
  const edit = (index: number, patch: Parameters<typeof updateSketchMapBrush.run>[1]['patch']) =>
    session.editor.execute(updateSketchMapBrush, { index, patch });
  return (
    <details
      className="gen-composite-section"
      open={open}
      data-testid="sketch-section"
      onToggle={(e) => {
        const nowOpen = e.currentTarget.open;
        if (nowOpen !== open) store.update({ mode: nowOpen ? 'sketch' : null });
      }}
    >
      <summary>{t('generation.sketchMap.title', { n: map.brushes.length })}</summary>
      <p className="muted small">{t('generation.sketchMap.hint')}</p>
      <PromptBox
        label={t('generation.sketchMap.background')}
        value={map.backgroundPrompt}
        testId="sketch-background"
        onCommit={(prompt) => session.editor.execute(setSketchMapBackground, { prompt })}
      />
      <div className="button-row" role="group" aria-label={t('generation.sketchMap.tool')}>
        <button
          type="button"
          className={`button button--small${ui.erase ? '' : ' button--primary'}`}
          aria-pressed={!ui.erase}
          data-testid="sketch-paint"
          onClick={() => store.update({ erase: false, mode: 'sketch' })}
        >
          {t('generation.sketchMap.paint')}
        </button>
        <button
          type="button"
          className={`button button--small${ui.erase ? ' button--primary' : ''}`}
          aria-pressed={ui.erase}
          data-testid="sketch-eraser"
          onClick={() => store.update({ erase: true, mode: 'sketch' })}
        >
          {t('generation.sketchMap.erase')}
        </button>
      </div>
      <ol className="gen-composite-list">
        {map.brushes.map((brush, index) => {
          const selected = index === ui.brush;
          return (
            <li
              key={index}
              className={`gen-composite-item${selected ? ' gen-composite-item--selected' : ''}`}
              style={{ borderLeftColor: brush.color }}
              data-testid="brush-item"
            >
              <div className="gen-composite-item__head">
                <input
                  type="color"
                  aria-label={t('generation.sketchMap.color')}
                  value={expandHex(brush.color)}
                  onChange={(e) => edit(index, { color: e.target.value })}
                />
                <button
                  type="button"
                  className="gen-composite-item__title"
                  aria-pressed={selected}
                  onClick={() => store.update({ brush: index, mode: 'sketch' })}
                >
                  {t('generation.sketchMap.brush', { n: index + 1 })}
                </button>
                <span className="muted small">
                  {brush.strokes.length === 0
                    ? t('generation.sketchMap.empty')
                    : t('generation.sketchMap.strokes', { count: brush.strokes.length })}
                </span>
              </div>
              <label className="field field--inline">
                <span>{t('generation.sketchMap.radius')}</span>
                <input
                  type="number"
                  min={1}
                  max={COMPOSITE_MAX_SIDE}
                  value={brush.radius}
                  data-testid="brush-radius"
                  onChange={(e) => {
                    const radius = Number(e.target.value);
                    if (e.target.value !== '' && radius >= 1 && radius <= COMPOSITE_MAX_SIDE) edit(index, { radius });
                  }}
                />
              </label>
              <PromptBox
                label={t('generation.sketchMap.prompt')}
                value={brush.prompt}
                testId="brush-prompt"
                onCommit={(prompt) => edit(index, { prompt })}
              />
              <PromptBox
                label={t('generation.sketchMap.negative')}
                value={brush.negativePrompt}
                rows={1}
                testId="brush-negative"
                onCommit={(negativePrompt) => edit(index, { negativePrompt })}
              />
              <div className="button-row">
                <button
                  type="button"
                  className="button button--small"
                  data-testid="brush-clear"
                  disabled={brush.strokes.length === 0}
                  onClick={() => session.editor.execute(clearSketchMapBrush, { index })}
                >
                  {t('generation.sketchMap.clear')}
                </button>
                <button
                  type="button"
                  className="button button--small"
                  data-testid="brush-remove"
                  onClick={() => {
                    session.editor.execute(removeSketchMapBrush, { index });
                    if (ui.brush >= index && ui.brush > 0) store.update({ brush: ui.brush - 1 });
                  }}
                >
                  {t('generation.sketchMap.remove')}
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <div className="button-row">
        <button
          type="button"
          className="button button--small"
          data-testid="brush-add"
          disabled={map.brushes.length >= MAX_BRUSHES}
          onClick={() => {
            const result = session.editor.execute(addSketchMapBrush, {
              color: nextCompositeColor(map.brushes.map((b) => b.color)),
            });
            if (result.ok) store.update({ brush: result.value, erase: false, mode: 'sketch' });
          }}
        >
          {t('generation.sketchMap.add')}
        </button>
      </div>
      {ui.sketchChecked && <SketchIssues session={session} />}
      <CompositeGenerateButton
        kind="smd"
        label={t('generation.sketchMap.generate')}
        testId="sketch-generate"
        onClick={() => void generateSketchMap(controller)}
      />
    </details>
  );
}

/** What stops the brush-based request now (masks are only measured here, never encoded). */
function SketchIssues({ session }: { session: EditorSession }): ReactNode {
  useDoc(session);
  const settings = useSettings(useController(session));
  const { built } = sketchMapRequest(session, settings, () => '');
  return <IssueList issues={built.ok ? [] : built.issues} testId="sketch-issues" />;
}
