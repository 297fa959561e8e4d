import { useEffect, useState } from 'react';
import { createHttpClient } from '../api/http.ts';
import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { useController } from './hooks.ts';
import type { QueueEntry } from './job-list.ts';
import { listJobs, type ServerJob } from './jobs.ts';
import { useObservable } from './observable.ts';
import { secondsLeft } from './processing.ts';
import './i18n-jobs.ts';
import './results.css';

const POLL_MS = 2000;

/** The user's active jobs the server lists that this page does not follow (other documents, other tabs). */
function useOtherJobs(open: boolean, followed: ReadonlySet<string>): ServerJob[] {
  const [jobs, setJobs] = useState<ServerJob[]>([]);
  useEffect(() => {
    if (!open) return;
    let live = true;
    const http = createHttpClient();
    const poll = () =>
      void listJobs(http)
        .then((lists) => live && setJobs(lists.active))
        .catch(() => undefined);
    poll();
    const timer = window.setInterval(poll, POLL_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [open]);
  return open ? jobs.filter((j) => !followed.has(j.job_id)) : [];
}

/**
 * Every job of the user in one place: state, queue position, progress with the time left, the preview so far,
 * the cost, and why it failed; cancel and retry from here. A chip over the canvas opens it.
 */
export function QueuePanel({ session }: { session: EditorSession }) {
  const t = useT();
  const controller = useController(session);
  const entries = useObservable(controller.jobs.list.entries);
  const [open, setOpen] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const active = entries.filter((e) => e.status === 'IN_QUEUE' || e.status === 'IN_PROGRESS');
  const others = useOtherJobs(open, new Set(entries.flatMap((e) => (e.jobId ? [e.jobId] : []))));
  useEffect(() => {
    if (!open || active.length === 0) return;
    const timer = window.setInterval(() => setNow(Date.now()), 500);
    return () => window.clearInterval(timer);
  }, [open, active.length]);
  if (entries.length === 0 && !open) return null;
  const count = active.length + others.length;
  return (
    <div className="gen-queue" data-testid="queue">
      <button
        type="button"
        className="button button--small gen-queue__chip"
        aria-expanded={open}
        data-testid="queue-toggle"
        onClick={() => setOpen((o) => !o)}
      >
        {t('generation.queue.toggle', { n: count })}
      </button>
      {open && (
        <section className="gen-queue__panel" aria-label={t('generation.queue.title')} data-testid="queue-panel">
          <header className="gen-queue__head">
            <strong>{t('generation.queue.title')}</strong>
            <button
              type="button"
              className="button button--small"
              data-testid="queue-clear"
              onClick={() => controller.jobs.list.clearFinished()}
            >
              {t('generation.queue.clear')}
            </button>
          </header>
          {entries.length + others.length === 0 && <p className="muted small">{t('generation.queue.empty')}</p>}
          <ol className="gen-queue__list">
            {[...entries].reverse().map((e) => (
              <Row key={e.key} entry={e} now={now} onCancel={(id) => void controller.jobs.cancelJob(id)} />
            ))}
            {others.map((j) => (
              <Row
                key={j.job_id}
                entry={{
                  key: j.job_id,
                  jobId: j.job_id,
                  kind: j.kind ?? 'job',
                  layerId: '',
                  status: j.status,
                  ...(j.queue_position !== undefined ? { position: j.queue_position } : {}),
                  ...(j.cost !== undefined ? { cost: j.cost } : {}),
                }}
                elsewhere
                now={now}
                onCancel={(id) => void controller.jobs.cancelJob(id)}
              />
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}

function Row(props: { entry: QueueEntry; now: number; elsewhere?: boolean; onCancel: (jobId: string) => void }) {
  const t = useT();
  const { entry: e, now } = props;
  const running = e.status === 'IN_QUEUE' || e.status === 'IN_PROGRESS';
  const left = e.status === 'IN_PROGRESS' ? secondsLeft(e, now) : null;
  // A kind this page does not know yet (a newer server) shows as its raw name rather than a missing key.
  const kind = t(`generation.queue.kinds.${e.kind}`, { defaultValue: e.kind });
  return (
    <li
      className={`gen-queue__row gen-queue__row--${e.status.toLowerCase()}`}
      data-testid="queue-row"
      data-status={e.status}
      data-job-id={e.jobId ?? ''}
      data-kind={e.kind}
      data-position={e.position ?? ''}
    >
      <div className="gen-queue__thumb" aria-hidden="true">
        {e.previewUrl ? <img src={e.previewUrl} alt="" /> : null}
      </div>
      <div className="gen-queue__body">
        <div>
          <strong className="small">{kind}</strong>{' '}
          <span className="small" data-testid="queue-status">
            {t(`generation.queue.status.${e.status}`)}
            {e.status === 'IN_QUEUE' &&
              e.position !== undefined &&
              ` · ${t('generation.queue.position', { n: e.position + 1 })}`}
            {e.status === 'IN_PROGRESS' && ` · ${Math.round((e.progress ?? 0) * 100)}%`}
            {left !== null && left > 0 && ` · ${t('generation.queue.left', { s: left })}`}
          </span>
          {e.cost !== undefined && (
            <span className="muted small" data-testid="queue-cost">
              {' · '}
              {t('generation.queue.cost', { credits: e.cost })}
            </span>
          )}
          {props.elsewhere && <span className="muted small"> · {t('generation.queue.elsewhere')}</span>}
        </div>
        {e.status === 'IN_PROGRESS' && (
          <progress className="gen-queue__bar" max={1} value={e.progress ?? 0} aria-label={kind} />
        )}
        {e.failure && (
          <p className="small gen-queue__failure" data-testid="queue-failure">
            {e.failure()}
          </p>
        )}
      </div>
      <div className="gen-queue__actions">
        {running && e.jobId && (
          <button
            type="button"
            className="button button--small"
            data-testid="queue-cancel"
            onClick={() => props.onCancel(e.jobId!)}
          >
            {t('generation.queue.cancel')}
          </button>
        )}
        {e.status === 'FAILED' && e.retry && (
          <button type="button" className="button button--small" data-testid="queue-retry" onClick={e.retry}>
            {t('generation.queue.retry')}
          </button>
        )}
      </div>
    </li>
  );
}
