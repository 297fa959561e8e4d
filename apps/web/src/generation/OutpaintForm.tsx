import { useState } from 'react';
import {
  DEFAULT_OUTPAINT_PADDING,
  OUTPAINT_MAX_PADDING,
  OUTPAINT_PADDING_STEP,
  OUTPAINT_SIDES,
  extendsSomething,
  normalizeOutpaintPadding,
  snapOutpaintPadding,
  type OutpaintPadding,
} from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { useController } from './hooks.ts';
import { outpaint } from './operations/outpaint.ts';
import './i18n.ts';
import './video.css';

/** How far outpaint extends each side (128 unless changed, snapped to 8 when the field is left), then send it. */
export function OutpaintForm({
  session,
  node,
  busy,
  credits,
  onSent,
}: {
  session: EditorSession;
  node: LayerNode<'IMAGE'>;
  busy: boolean;
  credits: number | null;
  onSent: () => void;
}) {
  const t = useT();
  const controller = useController(session);
  const [sides, setSides] = useState<OutpaintPadding>({ ...DEFAULT_OUTPAINT_PADDING });
  const padding = normalizeOutpaintPadding(sides);
  const grows = extendsSomething(padding);
  const label = t('generation.ops.outpaint');
  return (
    <div className="gen-outpaint-form" data-testid="outpaint-form">
      <strong className="small">{t('generation.outpaint.title')}</strong>
      <div className="gen-outpaint-form__sides">
        {OUTPAINT_SIDES.map((side) => (
          <label key={side} className="field">
            <span>{t(`generation.outpaint.${side}`)}</span>
            <input
              type="number"
              min={0}
              max={OUTPAINT_MAX_PADDING}
              step={OUTPAINT_PADDING_STEP}
              value={sides[side]}
              data-testid={`outpaint-${side}`}
              onChange={(e) => setSides((s) => ({ ...s, [side]: e.target.valueAsNumber }))}
              onBlur={() => setSides((s) => ({ ...s, [side]: snapOutpaintPadding(s[side]) }))}
            />
          </label>
        ))}
      </div>
      <p className="muted small">
        {grows ? t('generation.outpaint.hint', { max: OUTPAINT_MAX_PADDING }) : t('generation.outpaint.nothing')}
      </p>
      <button
        type="button"
        className="button button--small button--primary"
        disabled={busy || !grows}
        data-testid="outpaint-run"
        onClick={() => {
          onSent();
          void outpaint(controller, node.id, padding);
        }}
      >
        {credits === null ? label : t('generation.ops.withCost', { label, credits })}
      </button>
    </div>
  );
}
