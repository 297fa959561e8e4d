import { LAYOUT_PRESETS, layoutPreset, boundsOf } from '@koma/domain';
import { applyLayoutPreset, applyRandomLayout } from '@koma/editor';
import type { EditorSession } from '../session.ts';
import { useDoc } from '../hooks.ts';
import { useT } from '../../i18n/index.ts';

/** The nine layouts with previews drawn from their own data, in the comic's reading order; and a random layout. */
export function PresetsTab({ session }: { session: EditorSession }) {
  const t = useT();
  const doc = useDoc(session);
  if (session.type !== 'COMIC') return <div className="tab-body muted">{t('editor.layer.none')}</div>;
  const order = doc.comicConfiguration.readingOrder;
  const page = { width: doc.comicConfiguration.width, height: doc.comicConfiguration.height };
  return (
    <div className="tab-body">
      <div className="preset-grid">
        {LAYOUT_PRESETS.map((preset) => {
          const panels = layoutPreset(preset, page, order);
          return (
            <button
              key={preset.id}
              type="button"
              className="preset"
              title={t('editor.presets.apply', { name: preset.name })}
              data-testid={`preset-${preset.id}`}
              onClick={() =>
                session.editor.execute(applyLayoutPreset, { rootId: session.activeRoot(), presetId: preset.id })
              }
            >
              <svg viewBox={`0 0 ${page.width} ${page.height}`} role="img" aria-label={preset.name}>
                <rect width={page.width} height={page.height} fill="#fff" />
                {panels.map((p) => {
                  const b = boundsOf(p.vertices);
                  return (
                    <g key={p.index}>
                      <polygon
                        points={p.vertices.map((v) => `${v.x},${v.y}`).join(' ')}
                        fill="#f3f4f6"
                        stroke="#111"
                        strokeWidth={18}
                      />
                      <text
                        x={b.x + b.width / 2}
                        y={b.y + b.height / 2}
                        fontSize={Math.min(220, b.height / 2)}
                        textAnchor="middle"
                        dominantBaseline="middle"
                        fill="#6b7280"
                      >
                        {p.position}
                      </text>
                    </g>
                  );
                })}
              </svg>
              <span>{preset.name}</span>
            </button>
          );
        })}
      </div>
      <button
        type="button"
        className="button"
        data-testid="random-layout"
        onClick={() => session.editor.execute(applyRandomLayout, { rootId: session.activeRoot() })}
      >
        {t('editor.presets.random')}
      </button>
    </div>
  );
}
