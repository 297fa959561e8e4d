import {
  DEFAULT_IMAGE_SIZES,
  LIGHTNING_OPTIONS,
  LIGHTNING_PRESETS,
  type DiffusionSettings,
  type Lightning,
} from '@koma/domain';
import { useUi } from '../editor/hooks.ts';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { useSession } from '../session/context.ts';
import { useController, useSettings } from './hooks.ts';
import { NumberField } from './NumberField.tsx';
import './i18n.ts';
import './generation.css';

/** The Settings tab: sampling, size, lightning, batch, seed, strengths, IP-adapter and the face settings. */
export function SettingsTab({ session }: { session: EditorSession }) {
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
