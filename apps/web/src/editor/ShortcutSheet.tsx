import { Fragment } from 'react';
import { Dialog } from '../components/Dialog.tsx';
import { useT } from '../i18n/index.ts';
import { SHORTCUT_ROWS, type KeyCombo } from './shortcut-table.ts';
import './i18n-shell.ts';

function Combo({ combo }: { combo: KeyCombo }) {
  const t = useT();
  return (
    <span className="shortcut-combo">
      {combo.map((key, i) => (
        <Fragment key={i}>
          {i > 0 && <span aria-hidden="true">+</span>}
          <kbd>{key.startsWith('keys.') ? t(`editor.shortcuts.${key}`) : key}</kbd>
        </Fragment>
      ))}
    </span>
  );
}

/** Every keyboard shortcut with what it does, in the user's language; opened with ? or the toolbar's button. */
export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const t = useT();
  return (
    <Dialog title={t('editor.shortcuts.title')} labelledBy="shortcut-sheet-title" onCancel={onClose}>
      <div className="shortcut-sheet" data-testid="shortcut-sheet">
        {/* Only the list scrolls: the title and Close stay in view (Close has the focus, and a dialog that
            scrolled to it would hide its own title). */}
        <div className="shortcut-sheet__list">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('editor.shortcuts.key')}</th>
                <th scope="col">{t('editor.shortcuts.effect')}</th>
              </tr>
            </thead>
            <tbody>
              {SHORTCUT_ROWS.map((row) => (
                <tr key={row.effect} data-testid="shortcut-row">
                  <td>
                    {row.keys.map((combo, i) => (
                      <Fragment key={i}>
                        {i > 0 && <span className="shortcut-or"> {t('editor.shortcuts.or')} </span>}
                        <Combo combo={combo} />
                      </Fragment>
                    ))}
                  </td>
                  <td>{t(`editor.shortcuts.effects.${row.effect}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="shortcut-sheet__note">{t('editor.shortcuts.mac')}</p>
          <p className="shortcut-sheet__note">{t('editor.shortcuts.mouse')}</p>
          <p className="shortcut-sheet__note">{t('editor.shortcuts.touch')}</p>
        </div>
        <div className="button-row">
          <button type="button" className="button" onClick={onClose}>
            {t('editor.shortcuts.close')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
