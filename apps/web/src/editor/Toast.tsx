import { useEffect, useRef, useState } from 'react';
import type { EditorSession } from './session.ts';
import { useT } from '../i18n/index.ts';
import { Icon } from './Icon.tsx';
import './i18n-shell.ts';

/** How long a toast stays: errors longer, so there is time to read why something failed. */
const SHOWN_MS = { info: 4000, error: 7000 } as const;
/** Older toasts go when a newer one would make the stack taller than this. */
const MAX_SHOWN = 3;

interface Shown {
  seq: number;
  text: string;
  kind: 'info' | 'error';
}

/**
 * The editor's toasts. Anything in the editor tells the user something with `session.ui.notify(text, kind)`
 * (kind 'info' or 'error'; the text already in the user's language): it appears over the bottom of the canvas (above the queue,
 * in the same dock), stacked under any still showing, and goes after a few seconds or when dismissed. Errors are announced assertively
 * to screen readers. See docs/how-it-works/editor-shell.md.
 */
export function Toast({ session }: { session: EditorSession }) {
  const t = useT();
  const [shown, setShown] = useState<Shown[]>([]);
  const timers = useRef(new Map<number, number>());

  useEffect(() => {
    const dismissLater = (item: Shown) => {
      const timer = window.setTimeout(() => {
        timers.current.delete(item.seq);
        setShown((list) => list.filter((s) => s.seq !== item.seq));
      }, SHOWN_MS[item.kind]);
      timers.current.set(item.seq, timer);
    };
    const current = session.ui.state.message;
    if (current) {
      setShown([current]);
      dismissLater(current);
    }
    const unsubscribe = session.ui.subscribe((state, prev) => {
      const message = state.message;
      if (!message || message === prev.message) return;
      const item = { seq: message.seq, text: message.text, kind: message.kind };
      // The same words again replace the older toast instead of stacking a copy.
      setShown((list) => [...list.filter((s) => s.text !== item.text), item].slice(-MAX_SHOWN));
      dismissLater(item);
    });
    const pending = timers.current;
    return () => {
      unsubscribe();
      for (const timer of pending.values()) window.clearTimeout(timer);
      pending.clear();
    };
  }, [session]);

  if (shown.length === 0) return null;
  return (
    <div className="toasts">
      {shown.map((item, i) => (
        <div
          key={item.seq}
          className={`toast toast--${item.kind}`}
          role={item.kind === 'error' ? 'alert' : 'status'}
          // The newest is "the" toast; earlier ones stay above it until their time is up.
          data-testid={i === shown.length - 1 ? 'toast' : 'toast-earlier'}
        >
          <span className="toast__text">{item.text}</span>
          <button
            type="button"
            className="toast__close"
            aria-label={t('editor.toast.dismiss')}
            onClick={() => setShown((list) => list.filter((s) => s.seq !== item.seq))}
          >
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
