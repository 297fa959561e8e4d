import type { EditorSession } from '../editor/session.ts';
import { useT } from '../i18n/index.ts';
import { ENGINE_SETUP_DOC } from './config.ts';
import { useController } from './hooks.ts';
import { useObservable } from './observable.ts';
import './i18n-jobs.ts';

/** "Preview engine — not a diffusion model", what that means, and where to set up a real engine. */
export function BuiltinNote({ session }: { session: EditorSession }) {
  const t = useT();
  const config = useObservable(useController(session).config);
  const link = config?.links.engineSetup;
  return (
    <div className="gen-builtin-note" data-testid="builtin-note" role="note">
      <strong className="gen-builtin-badge">{t('generation.builtin.badge')}</strong>
      <p className="small">{t('generation.builtin.hint')}</p>
      <p className="small">
        {link ? (
          <a href={link} target="_blank" rel="noreferrer">
            {t('generation.builtin.setup', { where: link })}
          </a>
        ) : (
          t('generation.builtin.setup', { where: ENGINE_SETUP_DOC })
        )}
      </p>
    </div>
  );
}
