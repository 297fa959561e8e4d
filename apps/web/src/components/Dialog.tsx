import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import './dialog.css';

interface Props {
  title: string;
  children: ReactNode;
  /** Escape and the backdrop both cancel. */
  onCancel: () => void;
  labelledBy: string;
}

/**
 * A modal on the native <dialog>: the browser traps focus and Escape cancels it; focus goes back to the opener.
 * That is the keyboard behaviour a hand-rolled modal tends to get wrong.
 */
export function Dialog({ title, children, onCancel, labelledBy }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    // React removes the element rather than closing it, which skips the browser's own focus return: do it here.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={labelledBy}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onCancel();
      }}
    >
      <div className="dialog__body">
        <h2 id={labelledBy} className="dialog__title">
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
