import type { TabContent } from '../editor/RightPanel.tsx';
import { ModelTab } from './ModelTab.tsx';
import { PromptTab } from './PromptTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';

/** The prompt, model and settings tabs, for RightPanel's `extra`. */
export const generationTabs: TabContent = {
  prompt: (s) => <PromptTab session={s} />,
  model: (s) => <ModelTab session={s} />,
  settings: (s) => <SettingsTab session={s} />,
};
