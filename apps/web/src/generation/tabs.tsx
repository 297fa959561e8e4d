import { useState } from 'react';
import type { ReactNode } from 'react';
import {
  COMIC_PRESETS,
  DEFAULT_IMAGE_SIZES,
  LIGHTNING_OPTIONS,
  LIGHTNING_PRESETS,
  LORA_BASES_BY_MODEL_TYPE,
  LORA_CATALOGUE,
  LORA_FILTERS,
  MAX_LORAS,
  MODEL_CATALOGUE,
  filterLoras,
  findComicPreset,
  findModelById,
  loraBaseModelLabel,
  type DiffusionSettings,
  type Lightning,
  type LoraFilter,
} from '@koma/domain';
import type { TabContent } from '../editor/RightPanel.tsx';
import type { EditorSession } from '../editor/session.ts';
import { useUi } from '../editor/hooks.ts';
import { useT } from '../i18n/index.ts';
import { useSession } from '../session/context.ts';
import { submitJob } from './stream.ts';
import { useController, useSettings } from './hooks.ts';
import { withLora, withModel } from './settings.ts';
import { RegionsSection } from './regional/RegionsSection.tsx';
import { SketchMapSection } from './regional/SketchMapSection.tsx';
import './i18n.ts';
import './generation.css';

/** The prompt, model and settings tabs, for RightPanel's `extra`. */
export const generationTabs: TabContent = {
  prompt: (s) => <PromptTab session={s} />,
  model: (s) => <ModelTab session={s} />,
  settings: (s) => <SettingsTab session={s} />,
};

/** The Generate button with the request's price on it (quoteRequest), and what `g` does from a click. */
export function GenerateButton({ session }: { session: EditorSession }): ReactNode {
  const t = useT();
  const controller = useController(session);
  useSettings(controller); // re-render on every change: the price follows the settings
  const selection = useUi(session, (s) => s.selection);
  const credits = controller.currentQuote();
  const empty = controller.settings.state.diffusion.prompt.trim() === '';
  const onClick = () => {
    const doc = session.editor.doc;
    const selected = selection.length === 1 ? doc.layers[selection[0]!] : undefined;
    if (selected?.type === 'PANEL') void controller.generateIntoPanel(selected.id);
    else if (selected?.type === 'IMAGE' && selected.data.params && selected.data.variations.length > 0)
      void controller.regenerate(selected.id);
    else {
      const v = session.view();
      void controller.generateNew({
        x: (session.viewport.width / 2 - v.x) / v.zoom,
        y: (session.viewport.height / 2 - v.y) / v.zoom,
      });
    }
  };
  return (
    <div className="gen-generate">
      <button
        type="button"
        className="button button--primary gen-generate__button"
        data-testid="generate-button"
        disabled={empty || credits === null}
        title={empty ? t('generation.prompt.emptyPrompt') : t('generation.prompt.generateHint')}
        onClick={onClick}
      >
        {t('generation.prompt.generate')}
        {credits !== null && (
          <span className="gen-cost" data-testid="generate-cost">
            {t('generation.prompt.cost', { credits })}
          </span>
        )}
      </button>
      <p className="muted small">{t('generation.prompt.generateHint')}</p>
    </div>
  );
}

function PromptTab({ session }: { session: EditorSession }) {
  const t = useT();
  const controller = useController(session);
  const settings = useSettings(controller);
  const account = useSession();
  const d = settings.diffusion;
  const preset = settings.comicPreset ? findComicPreset(settings.comicPreset) : undefined;
  const [expansions, setExpansions] = useState<string[]>([]);
  const [expanding, setExpanding] = useState(false);

  const expand = async () => {
    setExpanding(true);
    try {
      const output = await submitJob('/api/prompt_expansion', { prompt: d.prompt, num_sequences: 3 });
      const prompts = (output as { prompts?: unknown } | null)?.prompts;
      setExpansions(Array.isArray(prompts) ? prompts.filter((p): p is string => typeof p === 'string') : []);
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
          {COMIC_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.recommended ? '★ ' : ''}
              {p.name}
              {p.credit !== undefined ? ` · ${p.credit} cr` : ''}
            </option>
          ))}
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

/** A drawn swatch for a model: preview images may not exist, so none is requested. */
function swatch(id: string): string {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const a = h % 360;
  return `linear-gradient(135deg, hsl(${a} 55% 62%), hsl(${(a + 60) % 360} 55% 42%))`;
}

function ModelTab({ session }: { session: EditorSession }) {
  const t = useT();
  const controller = useController(session);
  const settings = useSettings(controller);
  const account = useSession();
  const subscribed = account.user?.plan === 'subscriber';
  const d = settings.diffusion;
  const [filter, setFilter] = useState<LoraFilter>('all');
  const model = findModelById(d.model);
  const bases = model ? (LORA_BASES_BY_MODEL_TYPE[model.modelType] ?? []) : [];
  const set = (next: DiffusionSettings) => controller.settings.updateDiffusion(() => next);
  return (
    <div className="tab-body gen-tab" data-testid="model-tab">
      <div className="gen-models" role="radiogroup" aria-label={t('generation.model.title')}>
        {MODEL_CATALOGUE.map((m) => (
          <button
            key={m.id}
            type="button"
            role="radio"
            aria-checked={d.model === m.id}
            className={`gen-model${d.model === m.id ? ' gen-model--active' : ''}`}
            data-testid={`model-${m.id}`}
            onClick={() => set(withModel(d, m.id))}
          >
            <span className="gen-model__swatch" style={{ background: swatch(m.id) }} aria-hidden="true">
              {m.name.slice(0, 2)}
            </span>
            <span className="gen-model__name">{m.name}</span>
            <span className="gen-model__marks">
              {m.recommended && <span className="gen-mark">{t('generation.model.recommended')}</span>}
              {m.requiresSubscription && (
                <span className={`gen-mark gen-mark--sub${subscribed ? '' : ' gen-mark--locked'}`}>
                  {t('generation.model.subscription')}
                </span>
              )}
            </span>
          </button>
        ))}
      </div>
      <h3 className="gen-heading">
        {t('generation.model.loras')}{' '}
        <span className="muted small" data-testid="lora-count">
          {t('generation.model.loraLimit', { n: d.loras.length, max: MAX_LORAS })}
        </span>
      </h3>
      {d.loras.map((l) => (
        <div key={l.url} className="gen-lora gen-lora--chosen" data-testid="chosen-lora">
          <span className="gen-lora__name">{l.name}</span>
          <label className="field field--inline">
            <span>{t('generation.model.strength')}</span>
            <input
              type="number"
              min={0}
              max={2}
              step={0.05}
              value={l.strength}
              onChange={(e) => {
                const strength = Number(e.target.value);
                if (Number.isFinite(strength) && strength >= 0) set(withLora(d, { ...l, strength }));
              }}
            />
          </label>
          <button
            type="button"
            className="button button--small"
            onClick={() => set({ ...d, loras: d.loras.filter((x) => x.url !== l.url) })}
          >
            {t('generation.model.remove')}
          </button>
        </div>
      ))}
      <label className="field field--inline">
        <span>{t('generation.model.filter')}</span>
        <select value={filter} onChange={(e) => setFilter(e.target.value as LoraFilter)} data-testid="lora-filter">
          {LORA_FILTERS.map((f) => (
            <option key={f} value={f}>
              {t(`generation.model.filters.${f}`)}
            </option>
          ))}
        </select>
      </label>
      <ul className="gen-lora-list">
        {filterLoras(LORA_CATALOGUE, filter).map((entry) => {
          const chosen = d.loras.some((l) => l.url === entry.url);
          const fits = bases.includes(entry.baseModel);
          return (
            <li key={entry.id} className="gen-lora" data-testid="lora-entry">
              <span className="gen-lora__name">{entry.name}</span>
              <span className="muted small">
                {t('generation.model.base', { label: loraBaseModelLabel(entry.baseModel) })}
                {!fits && ` · ${t('generation.model.incompatible')}`}
              </span>
              <button
                type="button"
                className="button button--small"
                disabled={chosen || d.loras.length >= MAX_LORAS}
                onClick={() => {
                  const { name, civitaiModelId, thumbnailUrl, url, strength, baseModel } = entry;
                  set(withLora(d, { name, civitaiModelId, thumbnailUrl, url, strength, baseModel }));
                }}
              >
                {t('generation.model.add')}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function NumberField(props: {
  label: string;
  value: number;
  min: number;
  max: number;
  step?: number;
  testId?: string;
  disabled?: boolean;
  onChange: (value: number) => void;
}) {
  return (
    <label className="field field--inline">
      <span>{props.label}</span>
      <input
        type="number"
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        value={props.value}
        disabled={props.disabled}
        data-testid={props.testId}
        onChange={(e) => {
          const v = Number(e.target.value);
          if (e.target.value !== '' && Number.isFinite(v) && v >= props.min && v <= props.max) props.onChange(v);
        }}
      />
    </label>
  );
}

function SettingsTab({ session }: { session: EditorSession }) {
  const t = useT();
  const controller = useController(session);
  const settings = useSettings(controller);
  const account = useSession();
  const doc = session.editor.doc;
  const selection = useUi(session, (s) => s.selection);
  const d = settings.diffusion;
  const up = (patch: Partial<DiffusionSettings>) => controller.settings.updateDiffusion(patch);
  const selected = selection.length === 1 ? doc.layers[selection[0]!] : undefined;
  const selectedImage =
    selected?.type === 'IMAGE' ? selected.data.variations[selected.data.variationsIdx]?.id : undefined;
  const lightning = d.lightning === 'none' ? null : LIGHTNING_PRESETS[d.lightning];
  const dimKey = `${d.dimension.width}x${d.dimension.height}`;
  return (
    <div className="tab-body gen-tab" data-testid="settings-tab">
      {account.user?.plan !== 'subscriber' && (
        <p className="gen-watermark small" data-testid="watermark-note">
          {t('generation.settings.watermark')}
        </p>
      )}
      <NumberField
        label={t('generation.settings.steps')}
        value={lightning ? lightning.steps : d.steps}
        min={1}
        max={30}
        testId="steps-input"
        disabled={!!lightning}
        onChange={(steps) => up({ steps })}
      />
      <NumberField
        label={t('generation.settings.cfg')}
        value={lightning ? lightning.cfg : d.cfg}
        min={0}
        max={20}
        step={0.5}
        testId="cfg-input"
        disabled={!!lightning}
        onChange={(cfg) => up({ cfg })}
      />
      <label className="field field--inline">
        <span>{t('generation.settings.dimension')}</span>
        <select
          value={dimKey}
          data-testid="dimension-select"
          onChange={(e) => {
            const [w, h] = e.target.value.split('x').map(Number);
            if (w && h) up({ dimension: { width: w, height: h } });
          }}
        >
          {DEFAULT_IMAGE_SIZES.map((s) => (
            <option key={`${s.width}x${s.height}`} value={`${s.width}x${s.height}`}>
              {s.width}×{s.height}
            </option>
          ))}
        </select>
      </label>
      <label className="field field--inline">
        <span>{t('generation.settings.lightning')}</span>
        <select
          value={d.lightning}
          data-testid="lightning-select"
          onChange={(e) => up({ lightning: e.target.value as Lightning })}
        >
          {LIGHTNING_OPTIONS.map((o) => (
            <option key={o} value={o}>
              {t(`generation.settings.lightningOptions.${o}`)}
            </option>
          ))}
        </select>
      </label>
      {lightning && <p className="muted small">{t('generation.settings.lightningNote', lightning)}</p>}
      <NumberField
        label={t('generation.settings.batch')}
        value={d.batchSize}
        min={1}
        max={4}
        testId="batch-input"
        onChange={(batchSize) => up({ batchSize })}
      />
      <NumberField
        label={t('generation.settings.seed')}
        value={d.seed}
        min={-1}
        max={2_147_483_646}
        testId="seed-input"
        onChange={(seed) => up({ seed })}
      />
      <label className="checkbox">
        <input type="checkbox" checked={d.qualityTags} onChange={(e) => up({ qualityTags: e.target.checked })} />
        {t('generation.settings.qualityTags')}
      </label>
      {(
        [
          ['inpaintStrength', 'generation.settings.inpaintStrength'],
          ['img2imgStrength', 'generation.settings.img2imgStrength'],
          ['sketchStrength', 'generation.settings.sketchStrength'],
          ['poseStrength', 'generation.settings.poseStrength'],
        ] as const
      ).map(([key, label]) => (
        <NumberField
          key={key}
          label={t(label)}
          value={d[key]}
          min={0}
          max={1}
          step={0.05}
          onChange={(v) => up({ [key]: v })}
        />
      ))}
      <div className="field">
        <span>{t('generation.settings.ipAdapter')}</span>
        <div className="button-row">
          <span className="muted small" data-testid="ip-adapter-image">
            {d.ipAdapterImage ?? t('generation.settings.ipAdapterNone')}
          </span>
          <button
            type="button"
            className="button button--small"
            disabled={!selectedImage}
            onClick={() => selectedImage && up({ ipAdapterImage: selectedImage })}
          >
            {t('generation.settings.ipAdapterUseSelected')}
          </button>
          {d.ipAdapterImage && (
            <button type="button" className="button button--small" onClick={() => up({ ipAdapterImage: null })}>
              {t('generation.model.remove')}
            </button>
          )}
        </div>
      </div>
      <NumberField
        label={t('generation.settings.ipAdapterStrength')}
        value={d.ipAdapterStrength}
        min={0}
        max={1}
        step={0.05}
        onChange={(ipAdapterStrength) => up({ ipAdapterStrength })}
      />
      <h3 className="gen-heading">{t('generation.settings.face')}</h3>
      <label className="field">
        <span>{t('generation.settings.facePrompt')}</span>
        <textarea
          rows={2}
          value={settings.face.prompt}
          onChange={(e) => controller.settings.update({ face: { ...settings.face, prompt: e.target.value } })}
        />
      </label>
      <label className="field">
        <span>{t('generation.settings.faceNegative')}</span>
        <textarea
          rows={2}
          value={settings.face.negativePrompt}
          onChange={(e) => controller.settings.update({ face: { ...settings.face, negativePrompt: e.target.value } })}
        />
      </label>
      <NumberField
        label={t('generation.settings.faceStrength')}
        value={settings.face.strength}
        min={0}
        max={1}
        step={0.05}
        onChange={(strength) => controller.settings.update({ face: { ...settings.face, strength } })}
      />
    </div>
  );
}
