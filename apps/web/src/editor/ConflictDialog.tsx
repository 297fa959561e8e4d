import { useState, useSyncExternalStore } from 'react';
import type { EditorSession } from './session.ts';
import { Dialog } from '../components/Dialog.tsx';
import { useT } from '../i18n/index.ts';
import { paths } from '../router/routes.ts';

/**
 * Another tab or device saved first: keep this version (theirs stays in history) or open theirs after copying this
 * one. The title names where theirs was saved when this tab heard it (another tab of this browser, or elsewhere).
 */
const titleKey = {
  tab: 'editor.conflict.titleTab',
  device: 'editor.conflict.titleDevice',
  unknown: 'editor.conflict.title',
} as const;

export function ConflictDialog({ session }: { session: EditorSession }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const status = useSyncExternalStore(
    (cb) => session.autosave.onStatus(cb),
    () => session.autosave.status,
  );
  if (status !== 'conflict') return null;
  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      console.error('Resolving the save conflict failed', error);
      session.ui.notify(String(error), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={t(titleKey[session.conflictOrigin() ?? 'unknown'])}
      labelledBy="conflict-title"
      onCancel={() => undefined}
    >
      <p>{t('editor.conflict.body')}</p>
      <div className="button-row">
        <button
          type="button"
          className="button button--primary"
          disabled={busy}
          data-testid="conflict-keep-mine"
          onClick={() => void act(() => session.keepMine())}
        >
          {t('editor.conflict.keepMine')}
        </button>
        <button
          type="button"
          className="button"
          disabled={busy}
          data-testid="conflict-load-theirs"
          onClick={() =>
            void act(async () => {
              await session.copyMine();
              window.location.assign(paths.editor(session.workspaceId));
            })
          }
        >
          {t('editor.conflict.loadTheirs')}
        </button>
      </div>
    </Dialog>
  );
}
