import { useEffect, useRef, useState } from 'react';
import { api } from '../api/endpoints.ts';
import { Header } from '../components/Header.tsx';
import { useT } from '../i18n/index.ts';
import { useSession } from '../session/context.ts';
import { EditorSession } from './session.ts';
import { sameValue } from '@koma/editor';
import { describeRepairs } from './sync/repairs.ts';
import { clearLocalCopy, readLocalCopy, type LocalCopy } from './sync/local-copy.ts';
import { LocalCopyDialog } from './sync/LocalCopyDialog.tsx';
import { EditorLayout } from './EditorLayout.tsx';
import '../screens/status.css';
import './editor.css';
import './i18n.ts';

type Loaded =
  | { id: string; session: EditorSession; offer: LocalCopy | null; serverRevision: number }
  | { id: string; failed: true };

/** The editor for one workspace: loads it, then lays out toolbar, layers, canvas, tabs and page strip. */
export function EditorScreen({ workspaceId }: { workspaceId: string }) {
  const t = useT();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const account = useSession();
  const restricted = useRef(false);
  restricted.current = account.user?.restrictedMode ?? false;

  useEffect(() => {
    let active = true;
    let session: EditorSession | null = null;
    const flush = () => void session?.localCopy.flush();
    // The tab may close within the second before the debounced copy is written.
    window.addEventListener('pagehide', flush);
    Promise.all([api.workspace.get(workspaceId), readLocalCopy(workspaceId)])
      .then(([record, copy]) => {
        if (!active) return;
        session = new EditorSession(workspaceId, record, api, { restricted: restricted.current });
        session.autosave.start();
        session.startLive();
        // Unsaved work found on this device is offered back, unless the server already has exactly it.
        const offer = copy && !sameValue(copy.data, record.data) ? copy : null;
        if (copy && !offer) void clearLocalCopy(workspaceId);
        if (!offer) session.localCopy.start();
        if (session.repairs.length > 0) {
          // Said once: the repaired document is saved at the next tick, and then loads with nothing to repair.
          session.ui.notify(describeRepairs(session.repairs), 'info');
          session.editor.markNeedsSave();
        }
        // Browser tests and bug reports read the open document from here (it is the user's own data).
        (window as { __koma?: EditorSession }).__koma = session;
        setLoaded({ id: workspaceId, session, offer, serverRevision: record.revision });
      })
      .catch((error: unknown) => {
        console.error(`Failed to load workspace ${workspaceId}`, error);
        if (active) setLoaded({ id: workspaceId, failed: true });
      });
    return () => {
      active = false;
      window.removeEventListener('pagehide', flush);
      if (session) {
        void session.autosave.saveNow();
        session.dispose();
      }
    };
  }, [workspaceId]);

  const current = loaded?.id === workspaceId ? loaded : null;
  if (!current || !('session' in current)) {
    return (
      <div className="app-shell">
        <Header />
        <main className="status-screen" data-testid="editor-screen" data-workspace-id={workspaceId}>
          {current ? (
            <p className="status-screen__text status-screen__text--error" role="alert">
              {t('common.failed_to_load_workspace', { id: workspaceId })}
            </p>
          ) : (
            <p className="status-screen__text" aria-live="polite">
              {t('editor.loading')}
            </p>
          )}
        </main>
      </div>
    );
  }
  const done = () => setLoaded({ ...current, offer: null });
  return (
    <>
      <EditorLayout session={current.session} />
      {current.offer ? (
        <LocalCopyDialog
          session={current.session}
          copy={current.offer}
          serverRevision={current.serverRevision}
          onDone={done}
        />
      ) : null}
    </>
  );
}
