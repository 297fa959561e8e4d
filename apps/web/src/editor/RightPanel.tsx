import type { ReactNode } from 'react';
import { useState } from 'react';
import type { EditorSession } from './session.ts';
import { useT } from '../i18n/index.ts';
import { PageTab } from './tabs/PageTab.tsx';
import { PresetsTab } from './tabs/PresetsTab.tsx';
import { LayerTab } from './tabs/LayerTab.tsx';

/** The right panel's tabs, always in the spec's order: prompt, model, page, settings, panel_presets, layer. */
export const TAB_ORDER = ['prompt', 'model', 'page', 'settings', 'panel_presets', 'layer'] as const;
export type TabId = (typeof TAB_ORDER)[number];

export type TabContent = Partial<Record<TabId, (session: EditorSession) => ReactNode>>;

const BUILT_IN: TabContent = {
  page: (s) => <PageTab session={s} />,
  panel_presets: (s) => <PresetsTab session={s} />,
  layer: (s) => <LayerTab session={s} />,
};

/** Tabs with content; the generation tabs (prompt, model, settings) come in through `extra`. */
export function RightPanel({ session, extra = {} }: { session: EditorSession; extra?: TabContent }) {
  const t = useT();
  const content: TabContent = { ...BUILT_IN, ...extra };
  const tabs = TAB_ORDER.filter((id) => content[id]);
  const [current, setCurrent] = useState<TabId>(tabs.includes('prompt') ? 'prompt' : 'layer');
  const render = content[current] ?? content.layer!;
  return (
    <div className="right-panel">
      <div className="tab-list" role="tablist">
        {tabs.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-selected={current === id}
            aria-controls="tab-panel"
            className={`tab${current === id ? ' tab--active' : ''}`}
            data-testid={`tab-${id}`}
            onClick={() => setCurrent(id)}
          >
            {t(`editor.tabs.${id}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="tab-panel" aria-labelledby={`tab-${current}`}>
        {render(session)}
      </div>
    </div>
  );
}
