import { useState } from 'react';
import { i18n, useT } from '../../i18n/index.ts';
import type { WorkspaceSummary } from '../../api/types.ts';
import { Link } from '../../router/Link.tsx';
import { paths } from '../../router/routes.ts';

interface Props {
  workspace: WorkspaceSummary;
  onRename: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

export function WorkspaceCard({ workspace, onRename, onDuplicate, onDelete }: Props) {
  const t = useT();
  const [thumbnailFailed, setThumbnailFailed] = useState(false);
  const href = paths.editor(workspace.id);
  const showThumbnail = workspace.thumbnailUrl && !thumbnailFailed;
  return (
    <li className="ws-card" data-testid="workspace-card" data-workspace-id={workspace.id}>
      {/* The picture opens the workspace too; the title link below is the one keyboards and screen readers use. */}
      <Link to={href} className="ws-card__open" tabIndex={-1} aria-hidden="true">
        <span className={`ws-card__thumb ws-card__thumb--${workspace.type.toLowerCase()}`}>
          {showThumbnail ? (
            <img
              src={workspace.thumbnailUrl ?? undefined}
              alt=""
              loading="lazy"
              onError={() => setThumbnailFailed(true)}
            />
          ) : (
            <span className="ws-card__placeholder">{t('dashboard.noThumbnail')}</span>
          )}
        </span>
      </Link>
      <div className="ws-card__meta">
        <h2 className="ws-card__name" title={workspace.name}>
          <Link to={href} className="ws-card__title-link">
            {workspace.name}
          </Link>
        </h2>
        <p className="ws-card__details">
          <span className="ws-card__type">{t(`dashboard.type_${workspace.type}`)}</span>
          <span>{t('dashboard.updated', { date: formatDate(workspace.updatedAt) })}</span>
        </p>
      </div>
      <div className="ws-card__actions" role="group" aria-label={t('dashboard.actions', { name: workspace.name })}>
        <button type="button" className="button button--small" onClick={onRename}>
          {t('dashboard.rename')}
        </button>
        <button type="button" className="button button--small" onClick={onDuplicate}>
          {t('dashboard.duplicate')}
        </button>
        <button type="button" className="button button--small button--danger-text" onClick={onDelete}>
          {t('dashboard.delete')}
        </button>
      </div>
    </li>
  );
}
