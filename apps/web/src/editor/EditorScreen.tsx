// Stand-in written by the web-shell engineer so routes and browser tests have a target; the lead's editor
// replaces this file. It only loads the workspace and shows its name, or the spec's load-failure message.
import { useEffect, useState } from 'react';
import { api } from '../api/endpoints.ts';
import type { WorkspaceRecord } from '../api/types.ts';
import { Header } from '../components/Header.tsx';
import { useT } from '../i18n/index.ts';
import '../screens/status.css';

export function EditorScreen({ workspaceId }: { workspaceId: string }) {
  const t = useT();
  const [state, setState] = useState<{ id: string; workspace: WorkspaceRecord | null; failed: boolean } | null>(null);

  useEffect(() => {
    let active = true;
    api.workspace
      .get(workspaceId)
      .then((workspace) => active && setState({ id: workspaceId, workspace, failed: false }))
      .catch((error: unknown) => {
        console.error(`Failed to load workspace ${workspaceId}`, error);
        if (active) setState({ id: workspaceId, workspace: null, failed: true });
      });
    return () => {
      active = false;
    };
  }, [workspaceId]);

  const current = state?.id === workspaceId ? state : null;
  return (
    <div className="app-shell">
      <Header />
      <main className="status-screen" data-testid="editor-screen" data-workspace-id={workspaceId}>
        {current === null ? (
          <p className="status-screen__text" aria-live="polite">
            {t('editor.loading')}
          </p>
        ) : current.failed || !current.workspace ? (
          <p className="status-screen__text status-screen__text--error" role="alert">
            {t('common.failed_to_load_workspace', { id: workspaceId })}
          </p>
        ) : (
          <h1 className="status-screen__title" data-testid="workspace-name">
            {current.workspace.name}
          </h1>
        )}
      </main>
    </div>
  );
}
