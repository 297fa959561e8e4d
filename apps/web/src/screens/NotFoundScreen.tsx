import { useT } from '../i18n/index.ts';
import { Link } from '../router/Link.tsx';
import { paths } from '../router/routes.ts';
import './status.css';

export function NotFoundScreen({ path }: { path: string }) {
  const t = useT();
  return (
    <main className="status-screen">
      <h1 className="status-screen__title">{t('common.not_found_title')}</h1>
      <p className="status-screen__text">{t('common.not_found_body', { path })}</p>
      <Link to={paths.dashboard()} className="button button--primary">
        {t('common.go_to_dashboard')}
      </Link>
    </main>
  );
}
