import { useState } from 'react';
import {
  LORA_CATALOGUE,
  LORA_FILTERS,
  MAX_LORAS,
  MODEL_CATALOGUE,
  filterLoras,
  findModelById,
  loraBaseModelLabel,
  loraBasesFor,
  type DiffusionSettings,
  type LoraFilter,
} from '@koma/domain';
import type { EditorSession } from '../editor/session.ts';
import { useEngineAvailability } from '../engines/availability.ts';
import '../engines/i18n.ts';
import '../engines/engines.css';
import { useT } from '../i18n/index.ts';
import { useSession } from '../session/context.ts';
import { useController, useSettings } from './hooks.ts';
import { withLora, withModel } from './settings.ts';
import './i18n.ts';
import './generation.css';

/** A drawn swatch for a model: preview images may not exist, so none is requested. */
function swatch(id: string): string {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const a = h % 360;
  return `linear-gradient(135deg, hsl(${a} 55% 62%), hsl(${(a + 60) % 360} 55% 42%))`;
}

/** The Model tab: the model catalogue and the LoRAs (filtered by category, at most 10). */
export function ModelTab({ session }: { session: EditorSession }) {
  const t = useT();
  const controller = useController(session);
  const settings = useSettings(controller);
  const account = useSession();
  const subscribed = account.user?.plan === 'subscriber';
  const d = settings.diffusion;
  const [filter, setFilter] = useState<LoraFilter>('all');
  const model = findModelById(d.model);
  // Only LoRAs trained for the model's base are offered: the server refuses the others.
  const bases = model ? loraBasesFor(model) : [];
  const set = (next: DiffusionSettings) => controller.settings.updateDiffusion(() => next);
  // Models and LoRAs whose file no engine server has (from the server's capability check).
  const availability = useEngineAvailability();
  return (
    <div className="tab-body gen-tab" data-testid="model-tab">
      {availability?.models[d.model]?.previewsOff && (
        <p className="engine-note" role="note" data-testid="previews-off-note">
          {t('engines.previewsOffModel')}
        </p>
      )}
      <div className="gen-models" role="radiogroup" aria-label={t('generation.model.title')}>
        {MODEL_CATALOGUE.map((m) => {
          const status = availability?.models[m.id];
          const off = status !== undefined && !status.available;
          return (
            <button
              key={m.id}
              type="button"
              role="radio"
              aria-checked={d.model === m.id}
              className={`gen-model${d.model === m.id ? ' gen-model--active' : ''}${off ? ' gen-model--off' : ''}`}
              data-testid={`model-${m.id}`}
              disabled={off && d.model !== m.id}
              title={off ? status.reason : undefined}
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
                {off && <span className="gen-mark gen-mark--off">{t('engines.unavailable')}</span>}
              </span>
            </button>
          );
        })}
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
        {filterLoras(LORA_CATALOGUE, filter)
          .filter((entry) => bases.includes(entry.baseModel))
          .map((entry) => {
            const chosen = d.loras.some((l) => l.url === entry.url);
            const status = availability?.loras[entry.id];
            const off = status !== undefined && !status.available;
            return (
              <li key={entry.id} className="gen-lora" data-testid="lora-entry" title={off ? status.reason : undefined}>
                <span className="gen-lora__name">{entry.name}</span>
                {off && <span className="gen-mark gen-mark--off">{t('engines.unavailable')}</span>}
                <span className="muted small">
                  {t('generation.model.base', { label: loraBaseModelLabel(entry.baseModel) })}
                </span>
                <button
                  type="button"
                  className="button button--small"
                  disabled={chosen || off || d.loras.length >= MAX_LORAS}
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
