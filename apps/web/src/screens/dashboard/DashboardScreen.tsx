import { useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { api, createWorkspaceOrEmpty } from '../../api/endpoints.ts';
import type { WorkspaceSummary, WorkspaceType } from '../../api/types.ts';
import { Header } from '../../components/Header.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { RenameDialog } from '../../components/RenameDialog.tsx';
import { errorText } from '../../components/errorText.ts';
import { navigate } from '../../router/history.ts';
import { paths } from '../../router/routes.ts';
import { newWorkspaceRequest, randomIds } from './newWorkspace.ts';
import { PageSetupPicker } from '../../setup/PageSetupPicker.tsx';
import { presetPageSetup, type PageSetup } from '@koma/domain';
import { useWorkspaces } from './useWorkspaces.ts';
import { WorkspaceCard } from './WorkspaceCard.tsx';
import './dashboard.css';

type Pending = { kind: 'rename' | 'delete'; workspace: WorkspaceSummary } | null;

export function DashboardScreen() {
  const t = useT();
  const list = useWorkspaces();
  const [pending, setPending] = useState<Pending>(null);
  const [creating, setCreating] = useState<WorkspaceType | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [setup, setSetup] = useState<PageSetup>(() => presetPageSetup('DEFAULT'));

  const create = async (type: WorkspaceType) => {
    setCreating(type);
    setNotice(null);
    const name = t(type === 'COMIC' ? 'dashboard.defaultComicName' : 'dashboard.defaultInfiniteName');
    let failure: unknown = null;
    const id = await createWorkspaceOrEmpty(
      api,
      newWorkspaceRequest(type, name, randomIds, type === 'COMIC' ? setup : undefined),
      (message, error) => {
        console.error(message);
        failure = error;
      },
    );
    setCreating(null);
    if (id) navigate(paths.editor(id));
    else setNotice(t('dashboard.failed_to_create', { message: errorText(failure, t) }));
  };

  const duplicate = async (workspace: WorkspaceSummary) => {
    setNotice(null);
    try {
      await api.workspace.duplicate(workspace.id);
      await list.reload();
    } catch (error) {
      setNotice(t('dashboard.failed_to_duplicate', { message: errorText(error, t) }));
    }
  };

  const rename = async (workspace: WorkspaceSummary, name: string) => {
    try {
      await api.workspace.rename(workspace.id, name);
    } catch (error) {
      throw new Error(t('dashboard.failed_to_rename', { message: errorText(error, t) }), { cause: error });
    }
    list.patch(workspace.id, { name });
    setPending(null);
  };

  const remove = async (workspace: WorkspaceSummary) => {
    try {
      await api.workspace.remove(workspace.id);
      list.drop(workspace.id);
    } catch (error) {
      setNotice(t('dashboard.failed_to_delete', { message: errorText(error, t) }));
    }
    setPending(null);
  };

  return (
    <div className="app-shell">
      <Header />
      <main className="dashboard">
        <div className="dashboard__top">
          <h1 className="dashboard__title">{t('dashboard.title')}</h1>
          <div className="dashboard__create" role="group" aria-label={t('dashboard.create')}>
            {(['COMIC', 'INFINITE'] as const).map((type) => (
              <button
                key={type}
                type="button"
                className={`create-tile create-tile--${type.toLowerCase()}`}
                disabled={creating !== null}
                onClick={() => void create(type)}
              >
                <span className="create-tile__icon" aria-hidden="true" />
                <span className="create-tile__label">
                  {t(type === 'COMIC' ? 'dashboard.createComic' : 'dashboard.createInfinite')}
                </span>
                <span className="create-tile__hint">
                  {t(type === 'COMIC' ? 'dashboard.createComicHint' : 'dashboard.createInfiniteHint')}
                </span>
              </button>
            ))}
          </div>
          <PageSetupPicker value={setup} onChange={setSetup} testId="new-comic-setup" />
        </div>

        {notice && (
          <div className="notice notice--error" role="alert">
            <span>{notice}</span>
            <button type="button" className="button button--ghost button--small" onClick={() => setNotice(null)}>
              {t('common.close')}
            </button>
          </div>
        )}

        {list.error !== null && (
          <div className="notice notice--error" role="alert">
            <span>{t('dashboard.failed_to_list', { message: errorText(list.error, t) })}</span>
            <button type="button" className="button button--small" onClick={() => void list.reload()}>
              {t('common.retry')}
            </button>
          </div>
        )}

        {list.loading && list.items.length === 0 ? (
          <p className="dashboard__status" aria-live="polite">
            {t('common.loading')}
          </p>
        ) : list.items.length === 0 && list.error === null ? (
          <p className="dashboard__empty">{t('dashboard.empty')}</p>
        ) : (
          <ul className="dashboard__grid" aria-label={t('dashboard.title')}>
            {list.items.map((workspace) => (
              <WorkspaceCard
                key={workspace.id}
                workspace={workspace}
                onRename={() => setPending({ kind: 'rename', workspace })}
                onDuplicate={() => void duplicate(workspace)}
                onDelete={() => setPending({ kind: 'delete', workspace })}
              />
            ))}
          </ul>
        )}

        {list.items.length < list.total && (
          <div className="dashboard__more">
            <span>{t('dashboard.count', { shown: list.items.length, total: list.total })}</span>
            <button type="button" className="button" disabled={list.loading} onClick={() => void list.loadMore()}>
              {t('dashboard.loadMore')}
            </button>
          </div>
        )}
      </main>

      {pending?.kind === 'rename' && (
        <RenameDialog
          initialName={pending.workspace.name}
          onSubmit={(name) => rename(pending.workspace, name)}
          onClose={() => setPending(null)}
        />
      )}
      {pending?.kind === 'delete' && (
        <ConfirmDialog
          title={t('dashboard.deleteTitle', { name: pending.workspace.name })}
          body={t('dashboard.deleteBody')}
          confirmLabel={t('dashboard.deleteConfirm')}
          onConfirm={() => remove(pending.workspace)}
          onClose={() => setPending(null)}
        />
      )}
    </div>
  );
}
