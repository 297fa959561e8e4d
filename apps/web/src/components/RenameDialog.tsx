import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useT } from '../i18n/index.ts';
import { Dialog } from './Dialog.tsx';

/** The server's limit (apps/server routes/workspaces.ts). */
export const WORKSPACE_NAME_MAX = 200;

/** i18n key of what is wrong with a workspace name, or null when it is fine. */
export function workspaceNameError(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'dashboard.name_required';
  if (trimmed.length > WORKSPACE_NAME_MAX) return 'dashboard.name_too_long';
  return null;
}

interface Props {
  initialName: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}

export function RenameDialog({ initialName, onSubmit, onClose }: Props) {
  const t = useT();
  const id = useId();
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = workspaceNameError(name);
    if (problem) {
      setError(t(problem));
      return;
    }
    setBusy(true);
    try {
      await onSubmit(name.trim());
    } catch (failure) {
      // The dialog stays open with the typed name, so nothing is lost on a failed rename.
      setError(failure instanceof Error ? failure.message : String(failure));
      setBusy(false);
    }
  };

  return (
    <Dialog title={t('dashboard.renameTitle')} labelledBy={`${id}-title`} onCancel={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor={`${id}-name`} className="dialog__label">
          {t('dashboard.nameLabel')}
        </label>
        <input
          id={`${id}-name`}
          className="dialog__input"
          value={name}
          autoFocus
          onFocus={(e) => e.currentTarget.select()}
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error && (
          <p id={`${id}-error`} className="dialog__error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
