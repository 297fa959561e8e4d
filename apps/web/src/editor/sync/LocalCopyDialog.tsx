import { useState } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import { useT } from '../../i18n/index.ts';
import type { EditorSession } from '../session.ts';
import { clearLocalCopy, type LocalCopy } from './local-copy.ts';
import './i18n.ts';

/** Offers back unsaved work found on this device when the workspace opens: restore it or discard it. */
export function LocalCopyDialog({
  session,
  copy,
  serverRevision,
  onDone,
}: {
  session: EditorSession;
  copy: LocalCopy;
  serverRevision: number;
  onDone: () => void;
}) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const time = new Date(copy.savedAt).toLocaleString(document.documentElement.lang || undefined);
  const restore = async () => {
    setBusy(true);
    try {
      const outcome = await session.restoreLocal(copy);
      session.ui.notify(t(outcome === 'merged' ? 'sync.localCopy.merged' : 'sync.localCopy.restored'), 'info');
    } catch (error) {
      session.ui.notify(String(error), 'error');
    }
    onDone();
  };
  const discard = async () => {
    setBusy(true);
    await clearLocalCopy(copy.workspaceId);
    session.localCopy.start();
    onDone();
  };
  return (
    <Dialog title={t('sync.localCopy.title')} labelledBy="local-copy-title" onCancel={() => undefined}>
      <p>{t('sync.localCopy.body', { time })}</p>
      {serverRevision > copy.baseRevision ? <p>{t('sync.localCopy.newer')}</p> : null}
      <div className="button-row">
        <button
          type="button"
          className="button button--primary"
          disabled={busy}
          data-testid="local-copy-restore"
          onClick={() => void restore()}
        >
          {t('sync.localCopy.restore')}
        </button>
        <button
          type="button"
          className="button"
          disabled={busy}
          data-testid="local-copy-discard"
          onClick={() => void discard()}
        >
          {t('sync.localCopy.discard')}
        </button>
      </div>
    </Dialog>
  );
}
