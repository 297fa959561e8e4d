import { useRef } from 'react';
import { DEFAULT_FILTER_PARAMS, type FilterParams } from '@koma/domain';
import { setFilterParams, type Gesture, type LayerNode } from '@koma/editor';
import type { EditorSession } from '../session.ts';
import { useT } from '../../i18n/index.ts';

const RANGES: Record<keyof FilterParams, [number, number]> = {
  exposure: [-2, 2],
  contrast: [0, 2],
  highlights: [-1, 1],
  shadows: [-1, 1],
  whites: [0, 2],
  blacks: [0, 2],
  vignette: [0, 1],
  grain: [0, 1],
  saturation: [0, 2],
};

type Args = { id: string; patch: Partial<FilterParams> };

/** The nine image adjustments; a slider drag is one undo step, and Reset restores the defaults. */
export function FilterFields({ session, node }: { session: EditorSession; node: LayerNode<'IMAGE'> }) {
  const t = useT();
  const gesture = useRef<Gesture<Args> | null>(null);
  const params = node.data.filterParams;
  const start = () => {
    gesture.current ??= session.editor.beginGesture(setFilterParams);
  };
  const end = () => {
    gesture.current?.commit();
    gesture.current = null;
  };
  return (
    <fieldset className="field" data-testid="filter-fields">
      <legend>{t('editor.layer.adjustments')}</legend>
      {(Object.keys(RANGES) as (keyof FilterParams)[]).map((key) => {
        const [min, max] = RANGES[key];
        return (
          <label key={key} className="field field--inline">
            <span>{t(`editor.layer.filters.${key}`)}</span>
            <input
              type="range"
              min={min}
              max={max}
              step={0.01}
              value={params[key]}
              data-testid={`filter-${key}`}
              onPointerDown={start}
              onKeyDown={start}
              onChange={(e) => {
                start();
                gesture.current?.update({ id: node.id, patch: { [key]: Number(e.target.value) } });
              }}
              onPointerUp={end}
              onKeyUp={end}
              onBlur={end}
            />
          </label>
        );
      })}
      <button
        type="button"
        className="button button--small"
        onClick={() => session.editor.execute(setFilterParams, { id: node.id, patch: { ...DEFAULT_FILTER_PARAMS } })}
      >
        {t('editor.layer.resetAdjustments')}
      </button>
    </fieldset>
  );
}
