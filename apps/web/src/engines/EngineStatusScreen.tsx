import { useCallback, useEffect, useState } from 'react';
import { useT } from '../i18n/index.ts';
import { Link } from '../router/Link.tsx';
import { paths } from '../router/routes.ts';
import './i18n.ts';
import './engines.css';

/** The server's capability report (apps/server/src/engines/status.ts), as much of it as this page shows. */
interface ServerReport {
  url: string;
  reachable: boolean;
  checkedAt: string;
  error?: string;
  version?: string;
  os?: string;
  queueRemaining?: number;
  previewMethod?: string;
  previewsOff: boolean;
  warnings: string[];
  missingNodes: { node: string; source: string }[];
  missingFiles: { folder: string; file: string; usedBy: string }[];
}

interface Status {
  checkedAt: string;
  engines: { id: string; servers?: ServerReport[] }[];
}

/** Product names, the same in every language. */
const ENGINE_NAMES: Record<string, string> = { builtin: 'Built-in', comfyui: 'ComfyUI', fal: 'fal', openai: 'OpenAI' };

type State =
  { kind: 'loading' } | { kind: 'forbidden' } | { kind: 'failed'; message: string } | { kind: 'ok'; status: Status };

async function request(method: 'GET' | 'POST'): Promise<State> {
  try {
    const res = await fetch(method === 'GET' ? '/api/admin/engines' : '/api/admin/engines/check', {
      method,
      credentials: 'same-origin',
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      ...(method === 'POST' ? { body: '{}' } : {}),
    });
    if (res.status === 403) return { kind: 'forbidden' };
    if (!res.ok) return { kind: 'failed', message: `HTTP ${res.status}` };
    return { kind: 'ok', status: (await res.json()) as Status };
  } catch (err) {
    return { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
  }
}

/** /admin/engines: what each engine server has and lacks, for the accounts in ENGINE_ADMIN_EMAILS. */
export function EngineStatusScreen() {
  const t = useT();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [checking, setChecking] = useState(false);
  useEffect(() => {
    void request('GET').then(setState);
  }, []);
  const recheck = useCallback(() => {
    setChecking(true);
    void request('POST')
      .then(setState)
      .finally(() => setChecking(false));
  }, []);

  return (
    <main className="engine-status" aria-busy={state.kind === 'loading' || checking}>
      <header className="engine-status__head">
        <h1>{t('engines.title')}</h1>
        {state.kind !== 'forbidden' && (
          <button type="button" className="button button--primary" onClick={recheck} disabled={checking}>
            {checking ? t('engines.checking') : t('engines.checkAgain')}
          </button>
        )}
        <Link to={paths.dashboard()} className="button">
          {t('engines.back')}
        </Link>
      </header>
      {state.kind === 'loading' && <p>{t('common.loading')}</p>}
      {state.kind === 'forbidden' && <p role="alert">{t('engines.forbidden')}</p>}
      {state.kind === 'failed' && <p role="alert">{t('engines.failed', { message: state.message })}</p>}
      {state.kind === 'ok' && (
        <>
          <p className="muted">{t('engines.checkedAt', { time: new Date(state.status.checkedAt).toLocaleString() })}</p>
          {state.status.engines.map((engine) => (
            <section key={engine.id} className="engine-status__engine" data-testid={`engine-${engine.id}`}>
              <h2>{ENGINE_NAMES[engine.id] ?? engine.id}</h2>
              {!engine.servers && <p className="muted">{t('engines.noServers')}</p>}
              {engine.servers?.map((s) => (
                <ServerCard key={s.url} server={s} />
              ))}
            </section>
          ))}
        </>
      )}
    </main>
  );
}

function ServerCard({ server: s }: { server: ServerReport }) {
  const t = useT();
  const ok = s.reachable && !s.error;
  const clean = ok && s.missingNodes.length === 0 && s.missingFiles.length === 0 && s.warnings.length === 0;
  return (
    <article className={`engine-server${ok ? '' : ' engine-server--down'}`} data-testid="engine-server">
      <h3>
        <span className={`engine-dot${ok ? ' engine-dot--ok' : ''}`} aria-hidden="true" />
        {s.url} — {ok ? t('engines.reachable') : t('engines.unreachable')}
      </h3>
      {s.error && <p role="alert">{s.error}</p>}
      {s.reachable && (
        <p className="engine-server__facts">
          <span>{s.version ? t('engines.version', { version: s.version }) : t('engines.unknownVersion')}</span>
          {s.os && <span>{t('engines.os', { os: s.os })}</span>}
          {s.queueRemaining !== undefined && <span>{t('engines.queue', { n: s.queueRemaining })}</span>}
          {s.previewMethod && <span>{t('engines.previews', { method: s.previewMethod })}</span>}
        </p>
      )}
      {s.previewsOff && (
        <p className="engine-server__warn" data-testid="previews-off">
          {t('engines.previewsOff')}
        </p>
      )}
      {s.missingNodes.length > 0 && (
        <>
          <h4>{t('engines.missingNodes')}</h4>
          <ul>
            {s.missingNodes.map((n) => (
              <li key={n.node}>
                <code>{n.node}</code> — {n.source}
              </li>
            ))}
          </ul>
        </>
      )}
      {s.missingFiles.length > 0 && (
        <>
          <h4>{t('engines.missingFiles')}</h4>
          <ul data-testid="missing-files">
            {s.missingFiles.map((f) => (
              <li key={`${f.folder}/${f.file}/${f.usedBy}`}>
                <code>
                  models/{f.folder}/{f.file}
                </code>{' '}
                <span className="muted">{t('engines.usedBy', { what: f.usedBy })}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {s.warnings.filter((w) => !w.startsWith('Previews are off')).length > 0 && (
        <>
          <h4>{t('engines.warnings')}</h4>
          <ul>
            {s.warnings
              .filter((w) => !w.startsWith('Previews are off'))
              .map((w) => (
                <li key={w}>{w}</li>
              ))}
          </ul>
        </>
      )}
      {clean && <p className="muted">{t('engines.allGood')}</p>}
    </article>
  );
}
