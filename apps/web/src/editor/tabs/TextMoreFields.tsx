import { useState } from 'react';
import type { TextData } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import { FontPicker } from './FontPicker.tsx';
import { useT } from '../../i18n/index.ts';

type NumberKey =
  | 'backgroundBorderSize'
  | 'tailWidth'
  | 'tailGap'
  | 'fontStrokeSize'
  | 'characterSpacing'
  | 'lineSpacing'
  | 'rectRounding'
  | 'wobbleAmplitude'
  | 'wobbleFrequency'
  | 'wobblePhase';
type ColorKey = 'backgroundColor' | 'backgroundStrokeColor' | 'fontStrokeColor';

const NUMBERS: [NumberKey, number, number, number][] = [
  ['backgroundBorderSize', 0, 40, 1],
  ['tailWidth', 0, 100, 1],
  ['tailGap', 0, 0.9, 0.05],
  ['fontStrokeSize', 0, 40, 1],
  ['characterSpacing', 0.5, 3, 0.05],
  ['lineSpacing', 0.5, 3, 0.05],
  ['rectRounding', 0, 200, 1],
  ['wobbleAmplitude', 0, 0.4, 0.01],
  ['wobbleFrequency', 0, 24, 1],
  ['wobblePhase', 0, 360, 1],
];
const COLORS: ColorKey[] = ['backgroundColor', 'backgroundStrokeColor', 'fontStrokeColor'];

/** A document colour as the 6-digit form `<input type="color">` accepts (#rgb is widened; alpha is dropped). */
export function expandHex(color: string): string {
  return color.length === 4 ? `#${color[1]}${color[1]}${color[2]}${color[2]}${color[3]}${color[3]}` : color.slice(0, 7);
}

/** The rest of the TEXT fields of spec §3: borders, colours, stroke, spacing, rounding, tail shape, wobble, paddings. */
export function TextMoreFields({ node, set }: { node: LayerNode<'TEXT'>; set: (patch: Partial<TextData>) => unknown }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const d = node.data;
  return (
    <details className="field" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="text-more">
      <summary>{t('editor.layer.more')}</summary>
      {open && <FontPicker value={d.fontName} onChange={(fontName) => set({ fontName })} />}
      <label className="checkbox">
        <input type="checkbox" checked={d.fontStroke} onChange={(e) => set({ fontStroke: e.target.checked })} />
        {t('editor.layer.fields.fontStroke')}
      </label>
      {d.vertical && (
        <>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={d.tateChuYoko}
              data-testid="text-tateChuYoko"
              onChange={(e) => set({ tateChuYoko: e.target.checked })}
            />
            {t('editor.layer.fields.tateChuYoko')}
          </label>
          {d.tateChuYoko && (
            <label className="field field--inline">
              <span>{t('editor.layer.fields.tateChuYokoLength')}</span>
              <select
                value={d.tateChuYokoLength}
                data-testid="text-tateChuYokoLength"
                onChange={(e) => set({ tateChuYokoLength: Number(e.target.value) })}
              >
                {[2, 3].map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          )}
        </>
      )}
      {COLORS.map((key) => (
        <label key={key} className="field field--inline">
          <span>{t(`editor.layer.fields.${key}`)}</span>
          <input
            type="color"
            value={expandHex(d[key])}
            onChange={(e) => set({ [key]: e.target.value })}
            data-testid={`text-${key}`}
          />
        </label>
      ))}
      {NUMBERS.map(([key, min, max, step]) => (
        <label key={key} className="field field--inline">
          <span>{t(`editor.layer.fields.${key}`)}</span>
          <input
            type="number"
            min={min}
            max={max}
            step={step}
            value={d[key]}
            data-testid={`text-${key}`}
            onChange={(e) => {
              const value = Number(e.target.value);
              if (e.target.value !== '' && Number.isFinite(value) && value >= min && value <= max)
                set({ [key]: value });
            }}
          />
        </label>
      ))}
      <label className="checkbox">
        <input type="checkbox" checked={d.autoPadding} onChange={(e) => set({ autoPadding: e.target.checked })} />
        {t('editor.layer.fields.autoPadding')}
      </label>
      {!d.autoPadding &&
        (['top', 'right', 'bottom', 'left'] as const).map((side) => (
          <label key={side} className="field field--inline">
            <span>{t(`editor.layer.fields.padding_${side}`)}</span>
            <input
              type="number"
              min={0}
              max={500}
              value={d.paddings[side]}
              onChange={(e) => {
                const value = Number(e.target.value);
                if (e.target.value !== '' && value >= 0 && value <= 500)
                  set({ paddings: { ...d.paddings, [side]: value } });
              }}
            />
          </label>
        ))}
    </details>
  );
}
