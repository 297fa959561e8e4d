import { useSyncExternalStore } from 'react';
import type { EditorSession } from './session.ts';
import { useT } from '../i18n/index.ts';

export function SaveIndicator({ session }: { session: EditorSession }) {
  const t = useT();
  const status = useSyncExternalStore(
    (cb) => session.autosave.onStatus(cb),
    () => session.autosave.status,
  );
  return (
    <span
      className={`save-indicator save-indicator--${status}`}
      data-testid="save-status"
      data-status={status}
      role="status"
    >
      {t(`editor.save.${status}`)}
    </span>
  );
}
