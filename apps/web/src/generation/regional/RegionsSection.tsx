// The Regions section of the prompt tab: regional prompts (colour, prompt, negative prompt), each with a box drawn
// in the generation frame on the canvas, and Generate for POST /api/regional.
import { useEffect, type ReactNode } from 'react';
import { MAX_REGIONS, nextCompositeColor } from '@koma/domain';
import { addRegion, removeRegion, updateRegion } from '@koma/editor';
import { useDoc } from '../../editor/hooks.ts';
import { expandHex } from '../../editor/tabs/TextMoreFields.tsx';
import type { EditorSession } from '../../editor/session.ts';
import { useT } from '../../i18n/index.ts';
import { useController, useSettings } from '../hooks.ts';
import { currentFrame } from './frame.ts';
import { generateRegional, regionalRequest } from './generate.ts';
import { CompositeGenerateButton, IssueList, PromptBox } from './parts.tsx';
import { useComposite } from './store.ts';
import './regional.css';

export function RegionsSection({ session }: { session: EditorSession }): ReactNode {
  const t = useT();
  const controller = useController(session);
  const settings = useSettings(controller);
  const doc = useDoc(session);
  const [ui, store] = useComposite(session);
  const regions = doc.regionalPrompts;
  const open = ui.mode === 'regions';
  // Leaving the tab leaves the frame: the canvas goes back to the editor's tools.
  useEffect(() => () => (store.state.mode === 'regions' ? store.update({ mode: null }) : undefined), [store]);
  const pixels = open ? currentFrame(session, settings.diffusion.dimension).pixels : null;
  return (
    <details
      className="gen-composite-section"
      open={open}
      data-testid="regions-section"
      onToggle={(e) => {
        const nowOpen = e.currentTarget.open;
        if (nowOpen !== open) store.update({ mode: nowOpen ? 'regions' : null });
      }}
    >
      <summary>{t('generation.regional.title', { n: regions.length })}</summary>
      <p className="muted small">{t('generation.regional.hint')}</p>
      <ol className="gen-composite-list">
        {regions.map((region, index) => {
          const selected = index === ui.region;
          const size =
            region.rect && pixels
              ? t('generation.regional.size', {
                  width: Math.round((region.rect.x1 - region.rect.x0) * pixels.width),
                  height: Math.round((region.rect.y1 - region.rect.y0) * pixels.height),
                })
              : region.rect
                ? ''
                : t('generation.regional.notDrawn');
          return (
            <li
              key={index}
              className={`gen-composite-item${selected ? ' gen-composite-item--selected' : ''}`}
              style={{ borderLeftColor: region.color }}
              data-testid="region-item"
            >
              <div className="gen-composite-item__head">
                <input
                  type="color"
                  aria-label={t('generation.regional.color')}
                  value={expandHex(region.color)}
                  onChange={(e) => session.editor.execute(updateRegion, { index, patch: { color: e.target.value } })}
                />
                <button
                  type="button"
                  className="gen-composite-item__title"
                  aria-pressed={selected}
                  onClick={() => store.update({ region: index, mode: 'regions' })}
                >
                  {t('generation.regional.region', { n: index + 1 })}
                </button>
                <span className="muted small">{size}</span>
                <button
                  type="button"
                  className="button button--small"
                  data-testid="region-remove"
                  onClick={() => {
                    session.editor.execute(removeRegion, { index });
                    if (ui.region >= index && ui.region > 0) store.update({ region: ui.region - 1 });
                  }}
                >
                  {t('generation.regional.remove')}
                </button>
              </div>
              <PromptBox
                label={t('generation.regional.prompt')}
                value={region.prompt}
                testId="region-prompt"
                onCommit={(prompt) => session.editor.execute(updateRegion, { index, patch: { prompt } })}
              />
              <PromptBox
                label={t('generation.regional.negative')}
                value={region.negativePrompt}
                rows={1}
                testId="region-negative"
                onCommit={(negativePrompt) =>
                  session.editor.execute(updateRegion, { index, patch: { negativePrompt } })
                }
              />
            </li>
          );
        })}
      </ol>
      <div className="button-row">
        <button
          type="button"
          className="button button--small"
          data-testid="region-add"
          disabled={regions.length >= MAX_REGIONS}
          onClick={() => {
            const result = session.editor.execute(addRegion, {
              color: nextCompositeColor(regions.map((r) => r.color)),
              negativePrompt: settings.diffusion.negativePrompt,
            });
            if (result.ok) store.update({ region: result.value, mode: 'regions' });
          }}
        >
          {t('generation.regional.add')}
        </button>
      </div>
      {ui.regionChecked && <RegionIssues session={session} />}
      <CompositeGenerateButton
        kind="regional"
        label={t('generation.regional.generate')}
        testId="regional-generate"
        onClick={() => void generateRegional(controller)}
      />
    </details>
  );
}

/** What stops the regional request now; rendered again with every change, so a fixed field drops off the list. */
function RegionIssues({ session }: { session: EditorSession }): ReactNode {
  useDoc(session);
  const settings = useSettings(useController(session));
  const { built } = regionalRequest(session, settings);
  return <IssueList issues={built.ok ? [] : built.issues} testId="regional-issues" />;
}
