import { useT } from '../../i18n/index.ts';
import type { EditorSession } from '../session.ts';
import { useImports } from './progress.ts';

/** The images being prepared or uploaded, with how far each upload is (large files take a while on a slow link). */
export function ImportProgressList({ session }: { session: EditorSession }) {
  const t = useT();
  const items = useImports(session);
  if (items.length === 0) return null;
  return (
    <ul className="import-progress" aria-label={t('editor.import.progressLabel')} data-testid="import-progress">
      {items.map((item) => {
        const percent = Math.round(item.fraction * 100);
        return (
          <li key={item.id} className="import-progress__item" role="status">
            <span className="import-progress__text">
              {item.stage === 'preparing'
                ? t('editor.import.preparing', { name: item.name })
                : t('editor.import.uploading', { name: item.name, percent })}
            </span>
            <progress max={100} value={item.stage === 'preparing' ? undefined : percent} />
          </li>
        );
      })}
    </ul>
  );
}
