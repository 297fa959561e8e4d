import { addPage, movePage, removePage } from '@koma/editor';
import type { EditorSession } from './session.ts';
import { useDoc, useUi } from './hooks.ts';
import { useT } from '../i18n/index.ts';

/** The comic's pages: open one, add, move and delete pages (all undoable). */
export function PageStrip({ session }: { session: EditorSession }) {
  const t = useT();
  const doc = useDoc(session);
  const active = useUi(session, (s) => s.activePage);
  const current = doc.pages[active];
  return (
    <nav className="page-strip" aria-label={t('editor.pages.title')} data-testid="page-strip">
      {doc.pages.map((page, i) => (
        <button
          key={page.uuid}
          type="button"
          className={`page-thumb${i === active ? ' page-thumb--active' : ''}`}
          aria-current={i === active ? 'page' : undefined}
          data-testid="page-thumb"
          onClick={() => session.openPage(i)}
        >
          {page.thumbnailUrl ? (
            // The stored page picture, never the page drawn from its full images; off-screen ones load when scrolled to.
            <img src={page.thumbnailUrl} alt="" loading="lazy" decoding="async" />
          ) : (
            <span className="page-thumb__blank" />
          )}
          <span>{t('editor.pages.page', { n: i + 1 })}</span>
        </button>
      ))}
      <span className="page-strip__actions">
        <button
          type="button"
          className="button button--ghost"
          data-testid="add-page"
          onClick={() => {
            const result = session.editor.execute(addPage, { index: active + 1 });
            if (result.ok) session.openPage(active + 1);
          }}
        >
          + {t('editor.pages.add')}
        </button>
        {current && (
          <>
            <button
              type="button"
              className="icon-button"
              title={t('editor.pages.left')}
              aria-label={t('editor.pages.left')}
              disabled={active === 0}
              onClick={() =>
                session.editor.execute(movePage, { uuid: current.uuid, to: active - 1 }).ok &&
                session.openPage(active - 1)
              }
            >
              ←
            </button>
            <button
              type="button"
              className="icon-button"
              title={t('editor.pages.right')}
              aria-label={t('editor.pages.right')}
              disabled={active === doc.pages.length - 1}
              onClick={() =>
                session.editor.execute(movePage, { uuid: current.uuid, to: active + 1 }).ok &&
                session.openPage(active + 1)
              }
            >
              →
            </button>
            <button
              type="button"
              className="icon-button"
              title={t('editor.pages.remove')}
              aria-label={t('editor.pages.remove')}
              disabled={doc.pages.length < 2}
              data-testid="remove-page"
              onClick={() =>
                session.editor.execute(removePage, { uuid: current.uuid }).ok &&
                session.openPage(Math.max(0, active - 1))
              }
            >
              ✕
            </button>
          </>
        )}
      </span>
    </nav>
  );
}
