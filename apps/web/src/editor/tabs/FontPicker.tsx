import { useEffect, useState } from 'react';
import { FONT_CATALOGUE, catalogueFont } from '@koma/editor';
import { ensureFont, fontStack } from '../../fonts.ts';
import { useT } from '../../i18n/index.ts';

/**
 * The font picker: every catalogue font, Latin then Japanese, each named in its own face with a sample line. The
 * fonts load when the picker opens (not with the app), and the samples redraw as they arrive.
 */
export function FontPicker({ value, onChange }: { value: string; onChange: (fontName: string) => void }) {
  const t = useT();
  const [, setLoaded] = useState(0);
  useEffect(() => {
    let live = true;
    for (const font of FONT_CATALOGUE)
      void ensureFont(font.name).then(() => {
        if (live) setLoaded((n) => n + 1);
      });
    return () => {
      live = false;
    };
  }, []);
  const current = catalogueFont(value)?.name ?? value;
  return (
    <fieldset className="field font-picker" data-testid="font-picker">
      <legend>{t('editor.layer.fields.fontName')}</legend>
      {(['latin', 'japanese'] as const).map((script) => (
        <div key={script} role="radiogroup" aria-label={t(`editor.layer.fontScript_${script}`)}>
          {FONT_CATALOGUE.filter((f) => f.script === script).map((font) => (
            <label key={font.name} className="font-picker__option" style={{ fontFamily: fontStack(font.name) }}>
              <input
                type="radio"
                name="font-picker"
                value={font.name}
                checked={current === font.name}
                data-testid={`font-${font.name}`}
                onChange={() => onChange(font.name)}
              />
              <span className="font-picker__name">{font.name === 'Komika' ? 'Komika (Comic Neue)' : font.name}</span>
              <span className="font-picker__sample">{script === 'latin' ? 'Wait, what?!' : 'えっ、本当に？'}</span>
            </label>
          ))}
        </div>
      ))}
    </fieldset>
  );
}
