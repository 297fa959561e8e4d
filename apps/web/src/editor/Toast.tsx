import { useEffect, useState } from 'react';
import type { EditorSession } from './session.ts';
import { useUi } from './hooks.ts';

/** Shows the editor's latest message for a few seconds; errors stay longer and are announced assertively. */
export function Toast({ session }: { session: EditorSession }) {
  const message = useUi(session, (s) => s.message);
  const [shown, setShown] = useState<number | null>(null);
  useEffect(() => {
    if (!message) return;
    setShown(message.seq);
    const timer = window.setTimeout(() => setShown(null), message.kind === 'error' ? 6000 : 3000);
    return () => window.clearTimeout(timer);
  }, [message]);
  if (!message || shown !== message.seq) return null;
  return (
    <div
      className={`toast toast--${message.kind}`}
      role={message.kind === 'error' ? 'alert' : 'status'}
      data-testid="toast"
    >
      {message.text}
    </div>
  );
}
