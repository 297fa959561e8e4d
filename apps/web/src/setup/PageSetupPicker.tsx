import {
  PAGE_SETUP_PRESETS,
  pageSetupBoxes,
  presetPageSetup,
  type PageInk,
  type PageSetup,
  type PageSetupPreset,
} from '@koma/domain';
import { useT } from '../i18n/index.ts';
import './i18n.ts';
import './page-setup.css';

/** Print presets choose colour (350 dpi) or monochrome (600 dpi); the default and webtoon pages are screen pages. */
const hasInk = (preset: PageSetupPreset) => preset !== 'DEFAULT' && preset !== 'WEBTOON';

/** A page setup chooser: the preset, its ink for print, and what it gives in pixels. */
export function PageSetupPicker({
  value,
  onChange,
  testId,
}: {
  value: PageSetup;
  onChange: (setup: PageSetup) => void;
  testId: string;
}) {
  const t = useT();
  const boxes = pageSetupBoxes(value);
  return (
    <fieldset className="field page-setup" data-testid={testId}>
      <legend>{t('setup.title')}</legend>
      <select
        value={value.preset}
        data-testid={`${testId}-preset`}
        aria-label={t('setup.title')}
        onChange={(e) => onChange(presetPageSetup(e.target.value as PageSetupPreset, value.ink))}
      >
        {PAGE_SETUP_PRESETS.map((preset) => (
          <option key={preset} value={preset}>
            {t(`setup.presets.${preset}`)}
          </option>
        ))}
      </select>
      {hasInk(value.preset) && (
        <select
          value={value.ink}
          data-testid={`${testId}-ink`}
          aria-label={t('setup.ink')}
          onChange={(e) => onChange(presetPageSetup(value.preset, e.target.value as PageInk))}
        >
          {(['COLOR', 'MONO'] as const).map((ink) => (
            <option key={ink} value={ink}>
              {t(`setup.${ink}`)}
            </option>
          ))}
        </select>
      )}
      <small className="muted" data-testid={`${testId}-summary`}>
        {t('setup.summary', {
          width: boxes.media.width,
          height: boxes.media.height,
          bleed: boxes.bleedPx,
          safe: boxes.safePx,
          dpi: value.dpi,
        })}
      </small>
    </fieldset>
  );
}
