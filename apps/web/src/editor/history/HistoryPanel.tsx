import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/endpoints.ts';
import { i18n, useT } from '../../i18n/index.ts';
import { paths } from '../../router/routes.ts';
import { CanvasView } from '../../canvas/CanvasView.tsx';
import { Icon } from '../Icon.tsx';
import { EditorSession } from '../session.ts';
import { restoreInto } from './restore.ts';
import './history.css';
import './i18n.ts';

type Version = Awaited<ReturnType<typeof api.workspace.revisions>>['items'][number];

const PAGE = 50;

function formatTime(iso: string): string {
  return new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'medium' }).format(
    new Date(iso),
  );
}

interface Preview {
  version: Version;
  session: EditorSession;
  data: unknown;
}

/**
 * The History panel (issue 14 item 4): the kept versions of the open workspace, newest first. Preview shows one
 * read-only on the canvas under a banner offering Restore, Make a copy and Close. Escape closes the preview, then
 * the panel.
 */
export function HistoryPanel({
  session,
  onClose,
  onPreview,
}: {
  session: EditorSession;
  onClose: () => void;
  /** Told when a version starts or stops being shown, so the rest of the editor can step aside. */
  onPreview?: (previewing: boolean) => void;
}) {
  const t = useT();
  const [items, setItems] = useState<Version[] | null>(null);
  const [head, setHead] = useState(0);
  const [failed, setFailed] = useState(false);
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<Preview | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = useCallback(
    async (before?: number) => {
      setFailed(false);
      try {
        const page = await api.workspace.revisions(session.workspaceId, {
          limit: PAGE,
          ...(before ? { before } : {}),
        });
        setHead(page.head);
        setItems((old) => (before && old ? [...old, ...page.items] : page.items));
        setMore(page.items.length === PAGE);
      } catch (error) {
        console.error('Listing versions failed', error);
        setFailed(true);
      }
    },
    [session.workspaceId],
  );

  useEffect(() => {
    // The latest edits become a version first, so the list starts with what the user sees.
    void session.autosave.saveNow().finally(() => void load());
    heading.current?.focus();
  }, [session, load]);

  const closePreview = useCallback(() => {
    setPreview((old) => {
      old?.session.dispose();
      return null;
    });
  }, []);

  useEffect(() => {
    // While a version is shown, keys must not reach the editor underneath (it would edit what is hidden).
    const keys = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        if (preview) closePreview();
        else onClose();
      }
      if (preview) e.stopPropagation();
    };
    window.addEventListener('keydown', keys, true);
    return () => window.removeEventListener('keydown', keys, true);
  }, [preview, closePreview, onClose]);

  useEffect(() => {
    onPreview?.(preview !== null);
    return () => preview?.session.dispose();
  }, [preview, onPreview]);

  const open = async (version: Version) => {
    setBusy(true);
    try {
      const record = await api.workspace.version(session.workspaceId, version.revision);
      const shown = new EditorSession(
        session.workspaceId,
        { name: record.name, type: record.type, revision: version.revision, data: record.data },
        api,
        { readOnly: true },
      );
      shown.ui.update({
        activePage: Math.min(session.ui.state.activePage, Math.max(0, shown.editor.doc.pages.length - 1)),
      });
      setPreview({ version, session: shown, data: record.data });
    } catch (error) {
      console.error('Opening a version failed', error);
      session.ui.notify(t('history.previewFailed'), 'error');
    } finally {
      setBusy(false);
    }
  };

  const restore = () => {
    if (!preview) return;
    const refused = restoreInto(session, preview.data);
    if (refused) {
      session.ui.notify(`${t('history.restoreFailed')} ${refused}`, 'error');
      return;
    }
    session.ui.notify(t('history.restored', { time: formatTime(preview.version.savedAt) }));
    closePreview();
    onClose();
  };

  const copy = async () => {
    if (!preview) return;
    setBusy(true);
    try {
      const name = t('history.copyName', { name: session.name, time: formatTime(preview.version.savedAt) });
      const { id } = await api.workspace.copyVersion(session.workspaceId, preview.version.revision, name);
      await session.autosave.saveNow();
      window.location.assign(paths.editor(id));
    } catch (error) {
      console.error('Copying a version failed', error);
      session.ui.notify(t('history.copyFailed'), 'error');
      setBusy(false);
    }
  };

  if (preview) {
    const time = formatTime(preview.version.savedAt);
    return (
      <div className="history-preview" data-testid="history-preview">
        <CanvasView session={preview.session} preview />
        <div className="history-banner" role="region" aria-label={t('history.banner', { time })}>
          <p className="history-banner__text" data-testid="history-banner">
            {t('history.banner', { time })}
          </p>
          <div className="history-banner__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              onClick={restore}
              data-testid="history-restore"
              autoFocus
            >
              {t('history.restore')}
            </button>
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void copy()}
              data-testid="history-copy"
            >
              {t('history.copy')}
            </button>
            <button type="button" className="button" onClick={closePreview} data-testid="history-close-preview">
              {t('history.closePreview')}
            </button>
          </div>
        </div>
      </div>
    );
  }

  return (
    <section className="history-panel" aria-labelledby="history-title" data-testid="history-panel">
      <header className="history-panel__head">
        <h2 id="history-title" className="history-panel__title" tabIndex={-1} ref={heading}>
          {t('history.title')}
        </h2>
        <button
          type="button"
          className="tool-button"
          aria-label={t('history.close')}
          title={t('history.close')}
          onClick={onClose}
          data-testid="history-close"
        >
          <Icon name="close" size={18} />
        </button>
      </header>
      <p className="history-panel__note">{t('history.retention')}</p>
      {failed ? (
        <p role="alert" className="history-panel__status">
          {t('history.failed')}{' '}
          <button type="button" className="button" onClick={() => void load()}>
            {t('history.retry')}
          </button>
        </p>
      ) : items === null ? (
        <p className="history-panel__status" aria-live="polite">
          {t('history.loading')}
        </p>
      ) : items.length === 0 ? (
        <p className="history-panel__status">{t('history.empty')}</p>
      ) : (
        <ol className="history-list" data-testid="history-list">
          {items.map((version) => {
            const time = formatTime(version.savedAt);
            return (
              <li
                key={version.revision}
                className="history-item"
                data-testid="history-item"
                data-revision={version.revision}
              >
                <button
                  type="button"
                  className="history-item__button"
                  disabled={busy}
                  aria-label={t('history.previewOf', { time })}
                  onClick={() => void open(version)}
                >
                  {version.thumbnailUrl ? (
                    <img className="history-item__thumb" src={version.thumbnailUrl} alt="" loading="lazy" />
                  ) : (
                    <span className="history-item__thumb history-item__thumb--none" aria-hidden="true" />
                  )}
                  <span className="history-item__text">
                    <span className="history-item__time">
                      {time}
                      {version.revision === head && <span className="history-item__badge">{t('history.current')}</span>}
                    </span>
                    <span className="history-item__device">
                      {version.device ?? t('history.unknownDevice')}
                      {version.tab ? ` · ${t('history.tab', { tab: version.tab.slice(0, 6) })}` : ''}
                    </span>
                  </span>
                  <span className="history-item__action">{t('history.preview')}</span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {more && items && (
        <button type="button" className="button history-panel__more" onClick={() => void load(items.at(-1)?.revision)}>
          {t('history.older')}
        </button>
      )}
    </section>
  );
}
