import { useState } from 'react';
import { api } from '../api/endpoints.ts';
import { errorText } from '../components/errorText.ts';
import { WORKSPACE_NAME_MAX, workspaceNameError } from '../components/RenameDialog.tsx';
import { useT } from '../i18n/index.ts';
import type { EditorSession } from './session.ts';
import './i18n-shell.ts';

/**
 * The workspace's name in the top bar: click (or Enter) to edit it in place; Enter or leaving the field renames,
 * Escape keeps the old name. A refused name stays in the field with the reason under it.
 */
export function WorkspaceName({ session }: { session: EditorSession }) {
  const t = useT();
  const [name, setName] = useState(session.name);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const commit = async () => {
    if (draft === null || busy) return;
    const problem = workspaceNameError(draft);
    if (problem) {
      setError(t(problem, { max: WORKSPACE_NAME_MAX }));
      return;
    }
    const next = draft.trim();
    if (next === name) {
      setDraft(null);
      setError(null);
      return;
    }
    setBusy(true);
    try {
      await api.workspace.rename(session.workspaceId, next);
      // Exports and copies are named after the workspace.
      session.name = next;
      setName(next);
      setDraft(null);
      setError(null);
    } catch (failure) {
      setError(t('dashboard.failed_to_rename', { message: errorText(failure, t) }));
    } finally {
      setBusy(false);
    }
  };

  if (draft === null) {
    return (
      <button
        type="button"
        className="workspace-name"
        title={t('editor.name.rename')}
        aria-label={`${t('editor.name.label')}: ${name}`}
        data-testid="workspace-name"
        onClick={() => setDraft(name)}
      >
        {name}
      </button>
    );
  }
  return (
    <span className="workspace-name workspace-name--editing">
      <input
        className="workspace-name__input"
        value={draft}
        autoFocus
        maxLength={WORKSPACE_NAME_MAX + 50}
        aria-label={t('editor.name.label')}
        aria-invalid={error !== null}
        aria-describedby={error ? 'workspace-name-error' : undefined}
        data-testid="workspace-name-input"
        disabled={busy}
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void commit();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            setDraft(null);
            setError(null);
          }
        }}
        onBlur={() => {
          // Leaving a refused name keeps the old one rather than trapping the user in the field.
          if (draft !== null && workspaceNameError(draft)) {
            setDraft(null);
            setError(null);
          } else void commit();
        }}
      />
      {error && (
        <span className="workspace-name__error" id="workspace-name-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
