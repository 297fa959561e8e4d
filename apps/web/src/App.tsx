import { EditorScreen } from './editor/EditorScreen.tsx';
import { EngineStatusScreen } from './engines/EngineStatusScreen.tsx';
import { useT } from './i18n/index.ts';
import { Redirect } from './router/Redirect.tsx';
import { useLocation } from './router/history.ts';
import { matchRoute, paths, requiresSession } from './router/routes.ts';
import { useSession } from './session/context.ts';
import { AuthScreen } from './screens/auth/AuthScreen.tsx';
import { DashboardScreen } from './screens/dashboard/DashboardScreen.tsx';
import { FlowEntryScreen } from './screens/flow/FlowEntryScreen.tsx';
import { NotFoundScreen } from './screens/NotFoundScreen.tsx';
import './screens/status.css';

/** Picks the screen for the address; signed-out visitors of private routes go to /signin and come back after. */
export function App() {
  const t = useT();
  const { status } = useSession();
  const location = useLocation();
  const route = matchRoute(location.pathname);

  if (status === 'loading') {
    return (
      <main className="status-screen" aria-busy="true">
        <p className="status-screen__text">{t('common.loading')}</p>
      </main>
    );
  }
  const signedIn = status === 'signedIn';
  if (route.name === 'root') return <Redirect to={signedIn ? paths.dashboard() : paths.signin()} />;
  if (requiresSession(route) && !signedIn) {
    return <Redirect to={paths.signin(location.pathname + location.search)} />;
  }

  switch (route.name) {
    case 'signin':
    case 'signup':
      if (signedIn) return <Redirect to={paths.dashboard()} />;
      return <AuthScreen key={route.name} mode={route.name} />;
    case 'dashboard':
      return <DashboardScreen />;
    case 'editor':
      return <EditorScreen key={route.workspaceId} workspaceId={route.workspaceId} />;
    case 'flow':
      return <FlowEntryScreen variationId={route.variationId} />;
    case 'engineStatus':
      return <EngineStatusScreen />;
    case 'notFound':
      return <NotFoundScreen path={route.path} />;
  }
}
