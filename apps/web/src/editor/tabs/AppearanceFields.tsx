import { BLEND_MODES, type BlendMode } from '@koma/domain';
import { flipLayers, rotateLayers, setAppearance, type LayerNode } from '@koma/editor';
import type { EditorSession } from '../session.ts';
import { useT } from '../../i18n/index.ts';

const TURNING = new Set(['IMAGE', 'TEXT', 'POSE']);

/** Opacity and blend mode of any drawable layer; rotation and flips of images, text and poses (issue 17). */
export function AppearanceFields({ session, node }: { session: EditorSession; node: LayerNode }) {
  const t = useT();
  const e = session.editor;
  const ids = [node.id];
  const opacity = Math.round((node.opacity ?? 1) * 100);
  return (
    <fieldset className="field-group" data-testid="appearance">
      <label className="field">
        <span>
          {t('editor.layer.opacity')} <output data-testid="layer-opacity-value">{opacity} %</output>
        </span>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={opacity}
          data-testid="layer-opacity"
          onChange={(ev) => e.execute(setAppearance, { ids, opacity: Number(ev.target.value) / 100 })}
        />
      </label>
      <label className="field">
        <span>{t('editor.layer.blendMode')}</span>
        <select
          value={node.blendMode ?? 'normal'}
          data-testid="layer-blend"
          onChange={(ev) => e.execute(setAppearance, { ids, blendMode: ev.target.value as BlendMode })}
        >
          {BLEND_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(`editor.layer.blendModes.${mode}`)}
            </option>
          ))}
        </select>
      </label>
      {TURNING.has(node.type) && (
        <>
          <label className="field">
            <span>{t('editor.layer.rotation')}</span>
            <input
              key={`${node.id}:${node.rotation ?? 0}`}
              type="number"
              step={1}
              defaultValue={Math.round((node.rotation ?? 0) * 10) / 10}
              data-testid="layer-rotation"
              onBlur={(ev) => {
                const to = Number(ev.target.value);
                if (ev.target.value !== '' && to !== (node.rotation ?? 0)) e.execute(rotateLayers, { ids, to });
              }}
            />
          </label>
          <div className="button-row">
            <button type="button" data-testid="rotate-left" onClick={() => e.execute(rotateLayers, { ids, by: -90 })}>
              {t('editor.layer.rotateLeft')}
            </button>
            <button type="button" data-testid="rotate-right" onClick={() => e.execute(rotateLayers, { ids, by: 90 })}>
              {t('editor.layer.rotateRight')}
            </button>
            <button
              type="button"
              data-testid="flip-h"
              aria-pressed={node.flipX ?? false}
              onClick={() => e.execute(flipLayers, { ids, axis: 'horizontal' })}
            >
              {t('editor.layer.flipH')}
            </button>
            <button
              type="button"
              data-testid="flip-v"
              aria-pressed={node.flipY ?? false}
              onClick={() => e.execute(flipLayers, { ids, axis: 'vertical' })}
            >
              {t('editor.layer.flipV')}
            </button>
          </div>
        </>
      )}
    </fieldset>
  );
}
