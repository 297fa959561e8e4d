import { setGeneratedStory, setPageGutter, setPageSetup, setReadingOrder } from '@koma/editor';
import { PANEL_SPLIT_GAP, type Gutter } from '@koma/domain';
import { PageSetupPicker } from '../../setup/PageSetupPicker.tsx';
import type { EditorSession } from '../session.ts';
import { useDoc, useUi } from '../hooks.ts';
import { useT } from '../../i18n/index.ts';

/** Reading order (renumbers every page), the page setup, the reading-order overlay, and the page's story text. */
export function PageTab({ session }: { session: EditorSession }) {
  const t = useT();
  const doc = useDoc(session);
  const active = useUi(session, (s) => s.activePage);
  const showOrder = useUi(session, (s) => s.showReadingOrder);
  const page = doc.pages[active];
  return (
    <div className="tab-body">
      {session.type === 'COMIC' && (
        <fieldset className="field">
          <legend>{t('editor.pages.readingOrder')}</legend>
          {(['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT'] as const).map((order) => (
            <label key={order} className="radio">
              <input
                type="radio"
                name="reading-order"
                checked={doc.comicConfiguration.readingOrder === order}
                onChange={() => session.editor.execute(setReadingOrder, { order })}
                data-testid={`reading-order-${order}`}
              />
              {t(order === 'LEFT_TO_RIGHT' ? 'editor.pages.ltr' : 'editor.pages.rtl')}
            </label>
          ))}
        </fieldset>
      )}
      {session.type === 'COMIC' && (
        <>
          <PageSetupPicker
            value={doc.comicConfiguration.setup}
            onChange={(setup) => session.editor.execute(setPageSetup, { setup })}
            testId="page-setup"
          />
          <small className="muted">{t('setup.legend')}</small>
        </>
      )}
      {page && session.type === 'COMIC' && (
        <fieldset className="field" data-testid="page-gutter">
          <legend>{t('editor.pages.gutter')}</legend>
          <div className="field-row">
            {(['horizontal', 'vertical'] as const).map((axis) => (
              <label key={axis} className="field">
                <span>{t(axis === 'horizontal' ? 'editor.pages.gutterH' : 'editor.pages.gutterV')}</span>
                <input
                  key={`${page.uuid}:${page.gutter?.[axis] ?? ''}`}
                  type="number"
                  min={0}
                  max={500}
                  step={1}
                  placeholder={String(PANEL_SPLIT_GAP)}
                  defaultValue={page.gutter?.[axis] ?? ''}
                  data-testid={`gutter-${axis}`}
                  onBlur={(e) => {
                    const raw = e.target.value.trim();
                    const current = page.gutter;
                    if (raw === '' && !current) return;
                    // One field set alone keeps the other at the spec's split gap.
                    const next: Gutter = {
                      horizontal: current?.horizontal ?? PANEL_SPLIT_GAP,
                      vertical: current?.vertical ?? PANEL_SPLIT_GAP,
                      [axis]: raw === '' ? PANEL_SPLIT_GAP : Number(raw),
                    };
                    if (current && next.horizontal === current.horizontal && next.vertical === current.vertical) return;
                    session.editor.execute(setPageGutter, { uuid: page.uuid, gutter: next });
                  }}
                />
              </label>
            ))}
          </div>
          <p className="small">{t('editor.pages.gutterHint')}</p>
        </fieldset>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={showOrder}
          onChange={(e) => session.ui.update({ showReadingOrder: e.target.checked })}
          data-testid="show-reading-order"
        />
        {t('editor.pages.showOrder')}
      </label>
      {page && (
        <label className="field">
          <span>{t('editor.pages.story')}</span>
          <textarea
            rows={6}
            key={page.uuid}
            defaultValue={page.generatedStory}
            onBlur={(e) =>
              e.target.value !== page.generatedStory &&
              session.editor.execute(setGeneratedStory, { uuid: page.uuid, story: e.target.value })
            }
          />
        </label>
      )}
    </div>
  );
}
