import { useEffect, useState } from 'react';
import { useT } from '../../i18n/index.ts';
import { api, createWorkspaceOrEmpty } from '../../api/endpoints.ts';
import { Link } from '../../router/Link.tsx';
import { navigate } from '../../router/history.ts';
import { paths } from '../../router/routes.ts';
import { randomIds } from '../dashboard/newWorkspace.ts';
import { findFlowImage, flowWorkspaceRequest } from './flowWorkspace.ts';
import '../status.css';

type Outcome = { ok: true; workspaceId: string } | { ok: false; messageKey: string };

// One creation per variation id per page load: StrictMode runs effects twice, and a second POST would leave a
// duplicate workspace behind.
const inFlight = new Map<string, Promise<Outcome>>();

async function openFlowImage(variationId: string, name: string): Promise<Outcome> {
  try {
    const { userImages } = await api.flowImages.find(variationId);
    const flow = findFlowImage(Array.isArray(userImages) ? userImages : [], variationId);
    if (!flow) return { ok: false, messageKey: 'common.could_not_find_flow_image' };
    const id = await createWorkspaceOrEmpty(api, flowWorkspaceRequest(flow, name, randomIds));
    return id ? { ok: true, workspaceId: id } : { ok: false, messageKey: 'flow.failed_to_create' };
  } catch (error) {
    console.error('Could not find flow image', error);
    return { ok: false, messageKey: 'common.could_not_find_flow_image' };
  }
}

/** /flow/:variationId — makes a workspace holding that image, then rewrites the address to its editor. */
export function FlowEntryScreen({ variationId }: { variationId: string }) {
  const t = useT();
  const [failure, setFailure] = useState<{ messageKey: string } | null>(null);

  useEffect(() => {
    let active = true;
    let pending = inFlight.get(variationId);
    if (!pending) {
      pending = openFlowImage(variationId, t('flow.workspaceName', { id: variationId.slice(0, 8) }));
      inFlight.set(variationId, pending);
    }
    void pending.then((outcome) => {
      inFlight.delete(variationId);
      if (!active) return;
      if (outcome.ok) navigate(paths.editor(outcome.workspaceId), { replace: true });
      else setFailure({ messageKey: outcome.messageKey });
    });
    return () => {
      active = false;
    };
  }, [variationId, t]);

  if (!failure) {
    return (
      <main className="status-screen" aria-busy="true">
        <p className="status-screen__text" aria-live="polite">
          {t('flow.opening')}
        </p>
      </main>
    );
  }
  return (
    <main className="status-screen">
      <p className="status-screen__text status-screen__text--error" role="alert">
        {t(failure.messageKey)}
      </p>
      <Link to={paths.dashboard()} className="button button--primary">
        {t('common.go_to_dashboard')}
      </Link>
    </main>
  );
}
