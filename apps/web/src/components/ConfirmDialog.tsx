import { useId, useState } from 'react';
import { useT } from '../i18n/index.ts';
import { Dialog } from './Dialog.tsx';

interface Props {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** Asks before a destructive action. Cancel has the initial focus, so a stray Enter destroys nothing. */
export function ConfirmDialog({ title, body, confirmLabel, onConfirm, onClose }: Props) {
  const t = useT();
  const id = useId();
  const [busy, setBusy] = useState(false);
  return (
    <Dialog title={title} labelledBy={`${id}-title`} onCancel={onClose}>
      <p className="dialog__text">{body}</p>
      <div className="dialog__actions">
        <button type="button" className="button button--ghost" onClick={onClose} autoFocus>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void onConfirm().finally(() => setBusy(false));
          }}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
