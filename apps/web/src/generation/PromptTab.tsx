import { useState } from 'react';
import { COMIC_PRESETS, findComicPreset, modelRequiresSubscription } from '@koma/domain';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { useSession } from '../session/context.ts';
import { GenerateButton } from './GenerateButton.tsx';
import { useController, useSettings } from './hooks.ts';
import { expandPrompt } from './operations/prompt-expansion.ts';
import { RegionsSection } from './regional/RegionsSection.tsx';
import { SketchMapSection } from './regional/SketchMapSection.tsx';
import { withModel } from './settings.ts';
import './i18n.ts';
import './i18n-jobs.ts';
import './generation.css';

/** The Prompt tab: prompt, negative prompt, comic preset, prompt expansion, Generate, regions and sketch map. */
export function PromptTab({ session }: { session: EditorSession }) {
  const t = useT();
  const controller = useController(session);
  const settings = useSettings(controller);
  const account = useSession();
  const subscribed = account.user?.plan === 'subscriber';
  const d = settings.diffusion;
  const preset = settings.comicPreset ? findComicPreset(settings.comicPreset) : undefined;
  const [expansions, setExpansions] = useState<string[]>([]);
  const [expanding, setExpanding] = useState(false);

  const expand = async () => {
    setExpanding(true);
    try {
      setExpansions(await expandPrompt(d.prompt));
    } catch (error) {
      console.error('Prompt expansion failed', error);
      session.ui.notify(t('common.failed_to_perform_image_operation'), 'error');
    } finally {
      setExpanding(false);
    }
  };

  return (
    <div className="tab-body gen-tab" data-testid="prompt-tab">
      <label className="field">
        <span>{t('generation.prompt.prompt')}</span>
        <textarea
          rows={4}
          value={d.prompt}
          data-testid="prompt-input"
          onChange={(e) => controller.settings.updateDiffusion({ prompt: e.target.value })}
        />
      </label>
      <label className="field">
        <span>{t('generation.prompt.negative')}</span>
        <textarea
          rows={2}
          value={d.negativePrompt}
          data-testid="negative-prompt-input"
          onChange={(e) => controller.settings.updateDiffusion({ negativePrompt: e.target.value })}
        />
      </label>
      <label className="field">
        <span>{t('generation.prompt.preset')}</span>
        <select
          value={settings.comicPreset ?? ''}
          data-testid="preset-select"
          onChange={(e) => {
            const next = e.target.value ? findComicPreset(e.target.value) : undefined;
            if (next) {
              controller.settings.update({
                comicPreset: next.id,
                diffusion: { ...withModel(controller.settings.state.diffusion, next.modelId), loras: [...next.loras] },
              });
            } else controller.settings.update({ comicPreset: null });
            if (next) void account.updatePreferences({ comicPreset: next.id }).catch(() => undefined);
          }}
        >
          <option value="">{t('generation.prompt.noPreset')}</option>
          {COMIC_PRESETS.map((p) => {
            // A free user sees which presets need a subscription (their model is for subscribers).
            const locked = !subscribed && modelRequiresSubscription(p.modelId);
            return (
              <option key={p.id} value={p.id} data-locked={locked}>
                {p.recommended ? '★ ' : ''}
                {p.name}
                {p.credit !== undefined ? ` · ${p.credit} cr` : ''}
                {locked ? ` · ${t('generation.plans.subscribersOnly')}` : ''}
              </option>
            );
          })}
        </select>
      </label>
      {preset && <p className="muted small">{t('generation.prompt.presetHint', { base: preset.basePrompt })}</p>}
      <div className="button-row">
        <button
          type="button"
          className="button"
          disabled={expanding || d.prompt.trim() === ''}
          data-testid="expand-prompt"
          onClick={() => void expand()}
        >
          {expanding ? t('generation.prompt.expanding') : t('generation.prompt.expand')}
        </button>
      </div>
      {expansions.length > 0 && (
        <ul className="gen-expansions" data-testid="prompt-expansions">
          {expansions.map((p, i) => (
            <li key={i}>
              <span>{p}</span>
              <button
                type="button"
                className="button button--small"
                onClick={() => {
                  controller.settings.updateDiffusion({ prompt: p });
                  setExpansions([]);
                }}
              >
                {t('generation.prompt.useExpansion')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <GenerateButton session={session} />
      <RegionsSection session={session} />
      <SketchMapSection session={session} />
    </div>
  );
}
